package save

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// oldReadFile is how Load parsed a file before readFile: a json.Decoder and a
// json.RawMessage per entity.
func oldReadFile(data []byte) (file, error) {
	var f file
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		return file{}, fmt.Errorf("load: %w: %v", ErrFormat, err)
	}
	if dec.More() {
		return file{}, fmt.Errorf("load: %w: data after the document", ErrFormat)
	}
	return f, nil
}

// splitArray splits an array as encoding/json fills a []json.RawMessage, nested
// brackets, commas and escaped quotes in strings included.
func TestSplitArrayAsRawMessages(t *testing.T) {
	for _, in := range []string{`null`, ` null `, `[]`, ` [ ] `, `[1]`, `[1,2]`, ` [ 1 , -2.5e3 ] `,
		`[1, "a,]", {"x":[1,{"y":"}"}]}, null, true ,[ ] ]`, `["\"]\\", "\\"]`, "[\n{}\t,\r{\"0\":{}}\n]", `[[[]],[[[1]]]]`} {
		var want []json.RawMessage
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		got, ok := splitArray([]byte(in))
		if !ok || (got == nil) != (want == nil) || len(got) != len(want) {
			t.Fatalf("%s: %q (%v), want %q", in, got, ok, want)
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("%s: element %d %s, want %s", in, i, got[i], want[i])
			}
		}
	}
	for _, in := range []string{`5`, `"[1]"`, `{}`, `true`, ``} {
		if _, ok := splitArray([]byte(in)); ok {
			t.Errorf("%s: split as an array", in)
		}
	}
}

// readFile parses a file as Load did, but keeps each entity's text in the file's own
// bytes (no copy of most of the file) and parses the file in place; a file it cannot
// parse gives the error the old parse gave, and one followed by a stray bracket loads
// as before.
func TestReadFileKeepsTheComponentsInTheFile(t *testing.T) {
	data := []byte(`{"format":"archai-world","version":1,"types":["a"],"world":{},` +
		`"components":[{"0":{"X":1}}, {"0":{"X":"]"}},{}],"systems":{}}`)
	f, err := readFile(data)
	if err != nil {
		t.Fatal(err)
	}
	old, err := oldReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Components) != 3 {
		t.Fatalf("%d entities, want 3", len(f.Components))
	}
	for i, c := range f.Components {
		if !within(data, c) || !bytes.Equal(c, old.Components[i]) {
			t.Errorf("entity %d: %s, in the file %v; want %s", i, c, within(data, c), old.Components[i])
		}
	}
	if string(f.World) != "{}" || f.Format != Format || len(f.Types) != 1 {
		t.Errorf("the other fields: %+v", f)
	}

	doc := string(data)
	for _, in := range []string{
		"",                     // empty
		doc[:len(doc)/2],       // truncated
		doc + " {}",            // another document after it
		doc + "]",              // a stray bracket: loads, as before
		`{"components":5}`,     // not an array
		`{"Components":[1,2]}`, // any case, as encoding/json matches
		`{"version":"one","components":[]}`,
		`[1,2]`,
	} {
		f, err := readFile([]byte(in))
		old, oldErr := oldReadFile([]byte(in))
		if fmt.Sprint(err) != fmt.Sprint(oldErr) || len(f.Components) != len(old.Components) {
			t.Errorf("%.40q: %v, %d entities; the old parse: %v, %d", in, err, len(f.Components), oldErr, len(old.Components))
		}
	}
}
