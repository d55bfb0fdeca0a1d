package jsonkeys

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDuplicate(t *testing.T) {
	structs := func(p Path) bool { return !p.Is("m") }
	for _, c := range []struct {
		doc, path, key string
	}{
		{`{"a":1,"b":2,"a":3}`, ``, `a`},
		{`{"a":{"x":[1,{"y":2}],"x":null}}`, `a`, `x`},
		{`{"a":[{"k":1},{"k":1,"j":2,"k":"s"}]}`, `a[1]`, `k`},
		{`[0,{"q":1},[{"r":{"s":1,"s":2}}]]`, `[2][0].r`, `s`},
		{`{"a":1,"\u0061":2}`, ``, `a`},                         // an escape spells the same key
		{`{"t":{"If":1,"if":2}}`, `t`, `if`},                    // a struct's field by any case
		{`{"m":{"If":1,"if":2,"x":{"a":1,"A":1}}}`, `m.x`, `A`}, // a map is exact; its values are structs
		{`{"a b":{"c":1,"c":2}}`, `["a b"]`, `c`},
	} {
		p, key, ok := Duplicate([]byte(c.doc), structs)
		require.True(t, ok, c.doc)
		assert.Equal(t, c.path, p.String(), c.doc)
		assert.Equal(t, c.key, key, c.doc)
	}
	for _, doc := range []string{
		`{}`, `[]`, `1`, `"a"`, `{"a":"a","b":{"a":1},"c":[{"a":1},{"a":2}]}`,
		`{"m":{"If":1,"if":2}}`, `{"a":"\"a\\\"","b":"\\"}`, `{"a":"}{","b":"]["}`,
	} {
		_, _, ok := Duplicate([]byte(doc), structs)
		assert.False(t, ok, doc)
	}
}

// An object of many keys is checked through a map, exactly or by any case.
func TestDuplicateInALargeObject(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"o":{`)
	for i := range 100 {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	doc := b.String()
	_, _, ok := Duplicate([]byte(doc+`"z":0}}`), nil)
	assert.False(t, ok)
	p, key, ok := Duplicate([]byte(doc+`"k42":0}}`), nil)
	require.True(t, ok)
	assert.Equal(t, "o", p.String())
	assert.Equal(t, "k42", key)
	_, _, ok = Duplicate([]byte(doc+`"K42":0}}`), nil)
	assert.False(t, ok)
	_, key, ok = Duplicate([]byte(doc+`"K42":0}}`), func(Path) bool { return true })
	require.True(t, ok)
	assert.Equal(t, "K42", key)
}

func TestUnknown(t *testing.T) {
	known := func(p Path) []string {
		switch {
		case p.Is():
			return []string{"name", "tasks"}
		case p.Is("tasks", "[]"):
			return []string{"name", "methods"}
		case p.Is("tasks", "[]", "methods", "[]"):
			return []string{"if"}
		}
		return nil
	}
	p, key, ok := Unknown([]byte(`{"name":"d","tasks":[{"name":"a"},{"Name":"b","methods":[{"IF":"x"},{"iff":"y"}]}]}`), known)
	require.True(t, ok)
	assert.Equal(t, "tasks[1].methods[1]", p.String())
	assert.Equal(t, "iff", key)
	_, _, ok = Unknown([]byte(`{"name":"d","tasks":[{"name":"a","methods":[{"if":"x"}]}]}`), known)
	assert.False(t, ok)
}

// Documents that are not JSON end the walk; it never panics.
func TestMalformedNeverPanics(t *testing.T) {
	for _, doc := range []string{``, `{`, `}`, `]]`, `{"a`, `{"a\`, `{"a":{"b":1}]]]}`, `[}`, `{"a":1,"a`, `"\u12"`} {
		assert.NotPanics(t, func() {
			Duplicate([]byte(doc), nil)
			Unknown([]byte(doc), func(Path) []string { return []string{} })
		}, doc)
	}
}

func FuzzDuplicate(f *testing.F) {
	f.Add([]byte(`{"a":[{"b":1,"b":2}]}`))
	f.Add([]byte(`{"a":"\u0062","b":{"c":[1,2,{"d":true}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, dup := Duplicate(data, nil)
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		// A document without duplicates encodes back to as many keys as it has.
		if !dup && count(data) != countValue(v) {
			t.Fatalf("%s: no duplicate reported, %d keys written, %d decoded", data, count(data), countValue(v))
		}
	})
}

func count(data []byte) int {
	n := 0
	walk(data, 0, nil, func(Path, *object, []byte) bool { n++; return true })
	return n
}

func countValue(v any) int {
	n := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			n += 1 + countValue(e)
		}
	case []any:
		for _, e := range x {
			n += countValue(e)
		}
	}
	return n
}

func BenchmarkDuplicate(b *testing.B) {
	var s strings.Builder
	s.WriteString(`{"main": "T0", "trees": [`)
	for t := range 200 {
		if t > 0 {
			s.WriteString(",\n")
		}
		fmt.Fprintf(&s, `{"id": "T%d", "root": {"type": "Sequence", "name": "top", "children": [`, t)
		for i := range 20 {
			if i > 0 {
				s.WriteString(",\n  ")
			}
			fmt.Fprintf(&s, `{"type": "Fallback", "name": "f%d", "children": [`+
				`{"type": "Inverter", "children": [{"type": "AlwaysFailure"}]}, `+
				`{"type": "Repeat", "ports": {"num_cycles": %d}, "children": [{"type": "AlwaysSuccess", "name": "ok"}]}]}`, i, i+1)
		}
		s.WriteString(`]}}`)
	}
	s.WriteString("]}\n")
	data := []byte(s.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, dup := Duplicate(data, func(p Path) bool { return !p.Is("ports") }); dup {
			b.Fatal("dup")
		}
	}
}

func TestTrailing(t *testing.T) {
	for _, c := range []struct {
		data      string
		end       int64
		line, col int
		rest      string
		ok        bool
	}{
		{`{}`, 2, 0, 0, "", false},
		{"{} \n\t\r\n", 2, 0, 0, "", false},
		{"{}}", 2, 1, 3, "}", true},
		{"{\"é\": 1}\n  ] x\r\n", 10, 2, 3, "] x", true},
		{"{\"é\": 1} x", 10, 1, 10, "x", true},
		{`{}`, 99, 0, 0, "", false},
	} {
		line, col, rest, ok := Trailing([]byte(c.data), c.end)
		if line != c.line || col != c.col || rest != c.rest || ok != c.ok {
			t.Errorf("Trailing(%q, %d) = %d, %d, %q, %v; want %d, %d, %q, %v", c.data, c.end, line, col, rest, ok, c.line, c.col, c.rest, c.ok)
		}
	}
}

// Locate finds a member's key (an element's value), by any case, the last of a key
// written twice, with columns in runes.
func TestLocate(t *testing.T) {
	doc := "{\"a\": [\n  {\"b\": 1, \"c\": {\"d\": \"x\"}},\n  {\"B\": [2, 3], \"é\": 0, \"é\": {\"f\": true}}\n],\n \"g\": null}"
	key := func(k string) Step { return Step{Key: k} }
	idx := func(i int) Step { return Step{Index: i, Array: true} }
	for _, c := range []struct {
		p         Path
		line, col int
	}{
		{Path{}, 1, 1},
		{Path{key("a")}, 1, 2},
		{Path{key("a"), idx(0)}, 2, 3},
		{Path{key("a"), idx(0), key("c"), key("d")}, 2, 18},
		{Path{key("a"), idx(1), key("b")}, 3, 4}, // "B", by any case
		{Path{key("a"), idx(1), key("b"), idx(1)}, 3, 13},
		{Path{key("é")}, 0, 0},                    // not at the top
		{Path{key("a"), idx(1), key("é")}, 3, 25}, // the second "é"
		{Path{key("a"), idx(1), key("é"), key("f")}, 3, 31},
		{Path{key("g")}, 5, 2},
		{Path{key("a"), idx(2)}, 0, 0},
	} {
		line, col, ok := Locate([]byte(doc), c.p)
		assert.Equal(t, c.line != 0, ok, c.p.String())
		assert.Equal(t, [2]int{c.line, c.col}, [2]int{line, col}, c.p.String())
	}
	for _, bad := range []string{"", "{", "]", `{"a": [}`, `"x"`, "{\"a\":1}}"} {
		Locate([]byte(bad), Path{{Key: "a"}}) // never panics
	}
}

// TestObjects: Objects reports each object with its path and offset, in document order,
// skips values nested deeper than its limit whole (the objects after them are still
// reported, at the right index), and stops when open returns false.
func TestObjects(t *testing.T) {
	data := []byte(`{"a": [{"b": {}}, [[{"deep": {"x": "}]"}}]], {"c": 1}], "d": {}}`)
	var got []string
	Objects(data, 3, func(p Path, at int) bool {
		got = append(got, fmt.Sprintf("%s@%d", p, at))
		return true
	})
	want := []string{"@0", "a[0]@7", "a[2]@45", "d@61"} // a[0].b and a[1] nest deeper than 3
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	got = got[:0]
	Objects(data, 0, func(p Path, at int) bool {
		got = append(got, p.String())
		return len(got) < 4
	})
	if want := []string{"", "a[0]", "a[0].b", "a[1][0][0]"}; !slices.Equal(got, want) {
		t.Fatalf("unlimited: got %q, want %q", got, want)
	}
	// Deep nesting costs no path: 1e6 levels walk with a path of at most the limit.
	deep := []byte(strings.Repeat(`{"a":[`, 1e6) + strings.Repeat(`]}`, 1e6) + `{}`)
	n := 0
	Objects(deep, 8, func(p Path, _ int) bool {
		if len(p) > 8 {
			t.Fatalf("path of %d steps", len(p))
		}
		n++
		return true
	})
	if n != 5 { // 4 objects down to the limit, then the trailing {}
		t.Fatalf("%d objects reported, want 5", n)
	}
}
