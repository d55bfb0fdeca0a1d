// Package jsonkeys walks the object keys of a JSON document with their paths, for the
// loaders of designer files: encoding/json keeps the last of two equal keys silently
// (and, for a struct, of two keys equal but for case), and names no path for an
// unknown field.
//
// The walk reads the bytes once, allocating only for escaped keys and for large
// objects; it expects a document encoding/json has decoded without a syntax error and
// reports nothing (never panics) for one it cannot read.
package jsonkeys

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Step is one step of a path: a key of an object, or an index of an array.
type Step struct {
	Key   string
	Index int
	Array bool // Index, not Key
}

// Path is the place of a value in a document, from the top; an empty Path is the
// document.
type Path []Step

// String writes p as a loader's errors do: tasks[3].methods[0], "" for the document.
// A key that is not an identifier is quoted: ports["max speed"].
func (p Path) String() string {
	var b strings.Builder
	for _, s := range p {
		switch {
		case s.Array:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.Index))
			b.WriteByte(']')
		case ident(s.Key):
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Key)
		default:
			k := s.Key
			if len(k) > 2*clipKey {
				k = k[:clipKey] + "…" + k[len(k)-clipKey:]
			}
			b.WriteByte('[')
			b.WriteString(strconv.Quote(k))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// clipKey is half the bytes of a long key Path.String writes.
const clipKey = 32

// Is reports whether p is the path of the given keys, where "[]" stands for any index
// of an array: Is("tasks", "[]", "methods", "[]"). Keys are compared by any case, as
// encoding/json matches a struct's fields ("Tasks" fills tasks).
func (p Path) Is(steps ...string) bool {
	if len(p) != len(steps) {
		return false
	}
	for i, s := range p {
		if s.Array != (steps[i] == "[]") || !s.Array && !strings.EqualFold(s.Key, steps[i]) {
			return false
		}
	}
	return true
}

func ident(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || 'a' <= c|0x20 && c|0x20 <= 'z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// Duplicate returns the path of the first object of data (in document order of the
// second key) holding a key twice, and that key. fold reports whether the object at a
// path decodes into a struct, whose fields encoding/json matches by any case ("If"
// sets the field of "if"): its keys are compared so; nil compares every object's keys
// exactly, as a map's are.
func Duplicate(data []byte, fold func(Path) bool) (Path, string, bool) {
	var at Path
	var dup string
	found := false
	walk(data, 0, nil, func(p Path, o *object, key []byte) bool {
		if o.fold == 0 {
			o.fold = 2
			if fold != nil && fold(p) {
				o.fold = 1
			}
		}
		folds := o.fold == 1
		if o.seen == nil {
			for _, k := range o.keys {
				if bytes.Equal(k, key) || folds && foldEqual(k, key) {
					at, dup, found = clone(p), string(key), true
					return false
				}
			}
			o.keys = append(o.keys, key)
			if len(o.keys) > bigObject {
				o.seen = make(map[string]bool, 4*bigObject)
				for _, k := range o.keys {
					o.seen[mapKey(k, folds)] = true
				}
			}
			return true
		}
		k := mapKey(key, folds)
		if o.seen[k] {
			at, dup, found = clone(p), string(key), true
			return false
		}
		o.seen[k] = true
		return true
	})
	return at, dup, found
}

// foldEqual is bytes.EqualFold, quick for ASCII keys of different lengths.
func foldEqual(a, b []byte) bool {
	if len(a) != len(b) && ascii(a) && ascii(b) {
		return false
	}
	return bytes.EqualFold(a, b)
}

func ascii(s []byte) bool {
	for _, c := range s {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// mapKey is key, or its folded form (equal for keys bytes.EqualFold finds equal).
func mapKey(key []byte, fold bool) string {
	if !fold {
		return string(key)
	}
	out := make([]byte, 0, len(key))
	for i := 0; i < len(key); {
		if c := key[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(key[i:])
		for { // the smallest rune of r's fold orbit
			r2 := unicode.SimpleFold(r)
			if r2 <= r {
				r = r2
				break
			}
			r = r2
		}
		out = utf8.AppendRune(out, r)
		i += n
	}
	return string(out)
}

// Unknown returns the path of the first object of data (in document order) holding a
// key not among known(path), compared by any case as encoding/json matches a struct's
// fields, and that key. known returns nil for an object whose keys are free (a map).
func Unknown(data []byte, known func(Path) []string) (Path, string, bool) {
	var at Path
	var bad string
	found := false
	walk(data, 0, nil, func(p Path, _ *object, key []byte) bool {
		names := known(p)
		if names == nil {
			return true
		}
		for _, n := range names {
			if bytes.EqualFold([]byte(n), key) {
				return true
			}
		}
		at, bad, found = clone(p), string(key), true
		return false
	})
	return at, bad, found
}

func clone(p Path) Path {
	return append(Path{}, p...)
}

// bigObject is the number of keys past which Duplicate keeps an object's keys in a map.
// Below it a key is compared with each one before it: a save file's entities have a
// component per key (17 for a guard), and a map made for each of 100,000 of them
// took most of the scan's time.
const bigObject = 64

// object is what Duplicate keeps of an open object.
type object struct {
	fold int8            // 0 not known yet, 1 keys compared by any case, 2 exactly
	keys [][]byte        // the keys so far, unescaped, up to bigObject of them
	seen map[string]bool // then the keys (folded if fold is 1)
}

// maxNames is the number of keys of objects and arrays walk keeps a string of.
const maxNames = 16

type frame struct {
	array bool
	index int
	obj   object
}

// Objects calls open for each object of data, in document order, with its path and the
// offset of its '{'; open returning false ends the walk. Values nested deeper than limit
// objects and arrays (limit > 0) are skipped whole, their objects not reported, so that
// the walk keeps a path of at most limit steps however deep data nests. Unlike
// [Duplicate], Objects may be given data encoding/json has not decoded (a loader counts
// what a document holds before decoding it): it never panics, and for data that is not
// JSON it reports some of the objects.
func Objects(data []byte, limit int, open func(p Path, offset int) bool) {
	walk(data, limit, open, nil)
}

// walk calls visit (if not nil) for each key of each object of data, in document order,
// with the path of the object and the object's state (fresh for each object), and open
// (if not nil) for each object, with its path and offset; visit or open returning false
// ends the walk. limit > 0 skips values nested deeper (see Objects).
func walk(data []byte, limit int, open func(p Path, offset int) bool, visit func(p Path, o *object, key []byte) bool) {
	var stack []frame
	var path Path
	var pending []byte // the key whose value comes next in an object
	hasPending := false
	var names []string // the keys of objects and arrays met, up to maxNames
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch c {
		case ' ', '\t', '\n', '\r', ',', ':':
			continue
		case '{', '[':
			if limit > 0 && len(stack) >= limit {
				// Too deep: skip the value whole, as one value of the open object or array.
				end, ok := skipValue(data, i)
				if !ok {
					return
				}
				i = end - 1
				if len(stack) > 0 {
					if top := &stack[len(stack)-1]; top.array {
						top.index++
					} else {
						hasPending = false
					}
				}
				continue
			}
			if len(stack) > 0 {
				top := &stack[len(stack)-1]
				switch {
				case top.array:
					path = append(path, Step{Index: top.index, Array: true})
					top.index++
				case hasPending:
					// A path's few keys repeat (children, ports, children): keep one
					// string of each rather than allocate each time.
					k := ""
					for _, n := range names {
						if string(pending) == n {
							k = n
							break
						}
					}
					if k == "" {
						k = string(pending)
						if len(names) < maxNames {
							names = append(names, k)
						}
					}
					path = append(path, Step{Key: k})
					hasPending = false
				default:
					return // malformed
				}
			}
			if n := len(stack); n < cap(stack) {
				stack = stack[:n+1]
				f := &stack[n]
				f.array, f.index = c == '[', 0
				f.obj = object{keys: f.obj.keys[:0]}
			} else {
				stack = append(stack, frame{array: c == '['})
			}
			if c == '{' && open != nil && !open(path, i) {
				return
			}
		case '}', ']':
			if len(stack) == 0 {
				return
			}
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				if len(path) == 0 {
					return
				}
				path = path[:len(path)-1]
			}
		case '"':
			end, key, ok := str(data, i)
			if !ok {
				return
			}
			i = end - 1
			if len(stack) == 0 {
				continue
			}
			top := &stack[len(stack)-1]
			switch {
			case top.array:
				top.index++
			case hasPending: // a string value
				hasPending = false
			default:
				if visit != nil && !visit(path, &top.obj, key) {
					return
				}
				pending, hasPending = key, true
			}
		default: // a number, true, false or null
			j := i + 1
			for j < len(data) && !delim(data[j]) {
				j++
			}
			i = j - 1
			if len(stack) == 0 {
				continue
			}
			if top := &stack[len(stack)-1]; top.array {
				top.index++
			} else {
				hasPending = false
			}
		}
	}
}

// skipValue returns the index after the object or array starting at data[i], counting
// brackets outside strings; false if data ends first.
func skipValue(data []byte, i int) (int, bool) {
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1, true
			}
		case '"':
			j := i + 1
			for j < len(data) && data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(data) {
				return 0, false
			}
			i = j
		}
	}
	return 0, false
}

func delim(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', ':', ']', '}':
		return true
	}
	return false
}

// str reads the string starting at data[i] (a quote) and returns the index after its
// closing quote and its text, unescaped if it holds an escape.
func str(data []byte, i int) (int, []byte, bool) {
	j := i + 1
	escaped := false
	for ; j < len(data); j++ { // keys are short: a loop beats bytes.IndexByte
		if c := data[j]; c == '"' {
			break
		} else if c == '\\' {
			escaped = true
			j++
		}
	}
	if j >= len(data) {
		return 0, nil, false
	}
	raw := data[i : j+1]
	if !escaped {
		return j + 1, raw[1 : len(raw)-1], true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return 0, nil, false
	}
	return j + 1, []byte(s), true
}

// Trailing returns where data holds more than JSON white space after end (the offset
// where a json.Decoder stopped after the document: Decoder.InputOffset): the line and
// column (from 1; the column counts runes) of the first other byte, and the rest of its
// line. encoding/json's Decoder reads one value and leaves the rest, and its More
// reports nothing for a stray '}' or ']'.
func Trailing(data []byte, end int64) (line, col int, rest string, ok bool) {
	i := int(min(max(end, 0), int64(len(data))))
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	if i == len(data) {
		return 0, 0, "", false
	}
	start := bytes.LastIndexByte(data[:i], '\n') + 1
	line = 1 + bytes.Count(data[:i], []byte("\n"))
	col = 1 + utf8.RuneCount(data[start:i])
	stop := bytes.IndexAny(data[i:], "\r\n")
	if stop < 0 {
		stop = len(data) - i
	}
	return line, col, string(data[i : i+stop]), true
}

// LocateNearest is [Locate] of p, or of the nearest enclosing member data writes when p's
// own is missing (a key left out for its default): the place a loader's error about p
// names. It returns false when not even the document is found.
func LocateNearest(data []byte, p Path) (line, col int, ok bool) {
	for n := len(p); n >= 0; n-- {
		if line, col, ok := Locate(data, p[:n]); ok {
			return line, col, true
		}
	}
	return 0, 0, false
}

// Locate returns where the member at p is written in data: the line and column (from 1;
// the column counts runes) of its key, or of the value itself for an element of an array
// or for the document (an empty p). Keys are compared by any case, as encoding/json
// matches a struct's fields; of a key written twice in one object, the last is found.
// It expects a document encoding/json has decoded without a syntax error and returns
// false (never panics) when p is not in data.
func Locate(data []byte, p Path) (line, col int, ok bool) {
	type frame struct {
		array bool
		index int
	}
	var stack []frame
	var at Path    // the path of the innermost open object or array
	var key string // the key whose value comes next, in an object
	var keyAt int  // the offset of that key
	expectKey := false
	found := -1
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		start := int(dec.InputOffset())
		for start < len(data) && (delim(data[start]) && data[start] != ']' && data[start] != '}') {
			start++ // white space, ',' or ':' before the token
		}
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if d, isDelim := tok.(json.Delim); isDelim && (d == '}' || d == ']') {
			if len(stack) == 0 {
				break
			}
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				at = at[:len(at)-1]
				expectKey = !stack[len(stack)-1].array
			}
			continue
		}
		if expectKey {
			key, _ = tok.(string)
			keyAt, expectKey = start, false
			continue
		}
		var step Step // the value's step from at, and where the member is written
		where := start
		if len(stack) > 0 {
			if top := &stack[len(stack)-1]; top.array {
				step = Step{Index: top.index, Array: true}
				top.index++
			} else {
				step, where = Step{Key: key}, keyAt
				expectKey = true
			}
		}
		if d, isDelim := tok.(json.Delim); isDelim { // '{' or '['
			if len(stack) > 0 {
				at = append(at, step)
			}
			stack = append(stack, frame{array: d == '['})
			expectKey = d == '{'
			if samePath(at, p) {
				found = where
			}
			continue
		}
		if len(stack) == 0 && len(p) == 0 ||
			len(stack) > 0 && len(at)+1 == len(p) && samePath(at, p[:len(at)]) && sameStep(step, p[len(at)]) {
			found = where
		}
	}
	if found < 0 {
		return 0, 0, false
	}
	line = 1 + bytes.Count(data[:found], []byte("\n"))
	col = 1 + utf8.RuneCount(data[bytes.LastIndexByte(data[:found], '\n')+1:found])
	return line, col, true
}

func samePath(a, b Path) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameStep(a[i], b[i]) {
			return false
		}
	}
	return true
}

func sameStep(a, b Step) bool {
	if a.Array || b.Array {
		return a.Array == b.Array && a.Index == b.Index
	}
	return strings.EqualFold(a.Key, b.Key)
}
