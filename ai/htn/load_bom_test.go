package htn

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// A domain file saved with a UTF-8 byte order mark (Windows Notepad) loads as without
// it: RFC 8259 lets a JSON reader ignore the mark, and the loader refused the file
// ("invalid character 'ï' looking for beginning of value"). Positions are counted after
// the mark.
func TestLoadJSONSkipsByteOrderMark(t *testing.T) {
	good, err := os.ReadFile("testdata/soldier.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fuzzRegistry().LoadJSON("soldier.json", append([]byte("\uFEFF"), good...)); err != nil {
		t.Fatalf("with a byte order mark: %v", err)
	}
	_, err = fuzzRegistry().LoadJSON("bad.json", []byte("\uFEFF"+`{"name": "x", "nope": 1}`))
	if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), `bad.json:1:15: unknown field "nope"`) {
		t.Fatalf("unknown field after a mark: %v", err)
	}
}

// An empty domain file said "htn: f.json: EOF", a truncated one "unexpected EOF",
// without a line.
func TestLoadJSONEmptyAndTruncated(t *testing.T) {
	for _, data := range []string{"", "  \r\n", "\uFEFF"} {
		_, err := fuzzRegistry().LoadJSON("f.json", []byte(data))
		if !errors.Is(err, ErrSyntax) || err.Error() != "htn: f.json:1: no JSON document" {
			t.Errorf("%q: %v", data, err)
		}
	}
	_, err := fuzzRegistry().LoadJSON("f.json", []byte("{\"name\": \"x\",\n\"facts\": [\"a\""))
	if !errors.Is(err, ErrSyntax) || err.Error() != "htn: f.json:2: the document ends early (truncated?)" {
		t.Errorf("truncated: %v", err)
	}
}
