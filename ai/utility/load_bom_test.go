package utility_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/archai-go/archai/ai/utility"
)

// A reasoner file saved with a UTF-8 byte order mark (Windows Notepad) loads as without
// it: RFC 8259 lets a JSON reader ignore the mark, and the loader refused the file
// ("f.json:1:1: invalid character 'ï' looking for beginning of value"). Lines and
// columns are counted after the mark; a mark alone is no document.
func TestLoadJSONSkipsByteOrderMark(t *testing.T) {
	reg, _, _ := loadSetup(t)
	if err := reg.RegisterAct("Idle", func(any) {}); err != nil {
		t.Fatal(err)
	}
	good := fmt.Appendf(nil, soldierJSON, `{}`)
	if _, err := reg.LoadJSON("f.json", append([]byte("\uFEFF"), good...)); err != nil {
		t.Fatalf("with a byte order mark: %v", err)
	}
	_, err := reg.LoadJSON("g.json", []byte("\uFEFF"+`{"name": "g", "nope": 1}`))
	if !errors.Is(err, utility.ErrSyntax) || err.Error() != `utility: g.json:1:15: nope: unknown field "nope"` {
		t.Fatalf("unknown field after a mark: %v", err)
	}
	_, err = reg.LoadJSON("h.json", []byte("\uFEFF"))
	if !errors.Is(err, utility.ErrSyntax) || err.Error() != "utility: h.json:1:1: no JSON document" {
		t.Fatalf("a mark alone: %v", err)
	}
}
