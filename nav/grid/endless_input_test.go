package grid_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
)

// errReadTooFar is what endless returns once a reader has read more than it needs.
var errReadTooFar = errors.New("read 64 MiB of an endless line")

// endless is a head followed by fill forever (a device or a pipe: -map /dev/zero),
// failing the read past 64 MiB so that a reader that would hang fails the test instead.
type endless struct {
	head string
	fill byte
	n    int
}

func (e *endless) Read(p []byte) (int, error) {
	if e.n > 64<<20 {
		return 0, errReadTooFar
	}
	k := 0
	for ; k < len(p) && len(e.head) > 0; k++ {
		p[k], e.head = e.head[0], e.head[1:]
	}
	for ; k < len(p); k++ {
		p[k] = e.fill
	}
	e.n += k
	return k, nil
}

// A line that never ends (a device such as /dev/zero, a pipe) is an error once it is
// longer than any line the reader takes (a header line, a map row past its width, a
// scenario line): the readers used to read it to its end, forever (-map /dev/zero hung).
func TestReadersStopAtALineThatNeverEnds(t *testing.T) {
	const head = "type octile\nheight 2\nwidth 4\nmap\n"
	for _, tc := range []struct {
		name, head string
		fill       byte
		scen       bool
		want       string
	}{
		{"zeros", "", 0, false, "grid: e.map line 1: header line longer than 4096 bytes"},
		{"header", "type octile\nheight ", '7', false, "grid: e.map line 2: header line longer than 4096 bytes"},
		{"row", head, '.', false, "grid: e.map line 5: row 0 has more than 1048580 tiles, want width 4"},
		{"second row", head + "....\n", '@', false, "grid: e.map line 6: row 1 has more than 1048580 tiles, want width 4"},
		{"after the map", head + "....\n....\n", ' ', false, "grid: e.map line 7: unexpected data after 2 map rows"},
		{"scenario version", "", 0, true, "grid: e.scen line 1: want \"version 1\", got"},
		{"scenario query", "version 1\n0\tm.map\t4\t", '4', true, "grid: e.scen line 2: line longer than 65536 bytes"},
	} {
		var err error
		if tc.scen {
			_, err = grid.ReadScenario(&endless{head: tc.head, fill: tc.fill}, "e.scen")
		} else {
			_, err = grid.ReadMap(&endless{head: tc.head, fill: tc.fill}, "e.map")
		}
		if assert.Error(t, err, tc.name) {
			assert.NotErrorIs(t, err, errReadTooFar, tc.name)
			assert.True(t, strings.HasPrefix(err.Error(), tc.want), "%s: %v", tc.name, err)
		}
	}
	var _ io.Reader = &endless{}
}
