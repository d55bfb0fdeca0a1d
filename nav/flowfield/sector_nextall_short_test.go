package flowfield_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
)

// TestSectorNextAllShortBuffers: NextAll with next or ok shorter than cells
// (a breaker's call), or with capacity but not length, panics with a message naming the lengths, as its doc's
// Panics list says, not with a bare slice-bounds runtime error.
func TestSectorNextAllShortBuffers(t *testing.T) {
	s, err := flowfield.NewSectors(grid.New(16, 16), 8)
	if err != nil {
		t.Fatal(err)
	}
	f := flowfield.NewSectorField(s)
	f.SetGoal(grid.Cell{X: 15, Y: 15})
	cells := make([]grid.Cell, 7)
	for _, tc := range []struct {
		next, ok int
		want     string
	}{
		{1, 7, "flowfield: NextAll: next has length 1, ok 7, for 7 cells (each must be at least as long as cells)"},
		{7, 0, "flowfield: NextAll: next has length 7, ok 0, for 7 cells (each must be at least as long as cells)"},
	} {
		got := func() (msg string) {
			defer func() { msg = fmt.Sprint(recover()) }()
			f.NextAll(cells, make([]grid.Cell, tc.next), make([]bool, tc.ok))
			return ""
		}()
		if got != tc.want {
			t.Errorf("next %d, ok %d: panic %q, want %q", tc.next, tc.ok, got, tc.want)
		}
	}
	// Spare capacity is not length: before, NextAll wrote the answers past
	// len(next), where the caller's slice does not show them (lost silently).
	got := func() (msg string) {
		defer func() { msg = fmt.Sprint(recover()) }()
		f.NextAll(cells, make([]grid.Cell, 0, 7), make([]bool, 0, 7))
		return ""
	}()
	if want := "flowfield: NextAll: next has length 0, ok 0, for 7 cells (each must be at least as long as cells)"; got != want {
		t.Errorf("capacity only: panic %q, want %q", got, want)
	}
	// Long enough buffers (longer too) are fine.
	f.NextAll(cells, make([]grid.Cell, 9), make([]bool, 7))
}
