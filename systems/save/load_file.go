package save

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unsafe"
)

// readFile parses a save file's document in place (json.Unmarshal), each entity's
// components (file.Components, most of the file) kept as a slice of data, not a copy.
// Load used a json.Decoder, which copied the whole file into a buffer grown by doubling
// (up to three times the file at once), and then each entity's text into a
// json.RawMessage of its own (the file once more, held until the world was built). A
// document Unmarshal refuses is parsed again that way, so that its error stays the same
// (a document followed by other data gives the same error, or loads, as before).
func readFile(data []byte) (file, error) {
	in := fileIn{Components: componentTexts{data: data}}
	if json.Unmarshal(data, &in) == nil {
		in.file.Components = in.Components.items
		return in.file, nil
	}
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

// fileIn is file as readFile parses it: its Components (the less nested field of that
// name, which encoding/json fills instead of file's) split in place.
type fileIn struct {
	file
	Components componentTexts `json:"components"`
}

// componentTexts is the "components" array of a file: each element's text, a slice of
// data when encoding/json hands UnmarshalJSON a slice of the document it was given (as
// json.Unmarshal does), a copy otherwise.
type componentTexts struct {
	data  []byte
	items []json.RawMessage
}

// errNotArray makes readFile parse the document again as file, for the error
// encoding/json gives.
var errNotArray = errors.New("components: not an array")

func (c *componentTexts) UnmarshalJSON(b []byte) error {
	if !within(c.data, b) {
		b = bytes.Clone(b) // Unmarshaler: keep no slice of a buffer not ours
	}
	items, ok := splitArray(b)
	if !ok {
		return errNotArray
	}
	c.items = items
	return nil
}

// within reports whether b lies in data (the same memory).
func within(data, b []byte) bool {
	if len(b) == 0 || len(data) == 0 {
		return false
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	at := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return at >= start && at-start <= uintptr(len(data)-len(b))
}

// splitArray returns the elements of the JSON array b (valid JSON: encoding/json has
// checked it) as slices of b, as a []json.RawMessage would hold them, nil for null; false
// if b is not an array or null.
func splitArray(b []byte) ([]json.RawMessage, bool) {
	b = bytes.Trim(b, " \t\r\n")
	if string(b) == "null" {
		return nil, true
	}
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' {
		return nil, false
	}
	items := []json.RawMessage{}
	i := space(b, 1)
	if b[i] == ']' {
		return items, i == len(b)-1
	}
	for {
		end, ok := valueEnd(b, i)
		if !ok {
			return nil, false
		}
		items = append(items, b[i:end:end])
		i = space(b, end)
		if i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case ']':
			return items, i == len(b)-1
		case ',':
			i = space(b, i+1)
		default:
			return nil, false
		}
	}
}

// space returns the index of the first byte from i on that is not JSON white space.
func space(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// valueEnd returns the index after the JSON value starting at b[i].
func valueEnd(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	depth := 0
	for j := i; j < len(b); j++ {
		switch c := b[j]; c {
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 { // the end of a number, true, false or null
				return j, j > i
			}
			if depth--; depth == 0 {
				return j + 1, true
			}
		case '"':
			k := j + 1
			for k < len(b) && b[k] != '"' {
				if b[k] == '\\' {
					k++
				}
				k++
			}
			if k >= len(b) {
				return 0, false
			}
			if j = k; depth == 0 {
				return j + 1, true
			}
		case ',', ' ', '\t', '\r', '\n':
			if depth == 0 {
				return j, j > i
			}
		}
	}
	return 0, false
}
