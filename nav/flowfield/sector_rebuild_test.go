package flowfield

import (
	"testing"

	"github.com/archai-go/archai/nav/grid"
)

// TestSectorsRefreshAllocatesNothing: a grid edit (a door closing and
// opening, a wall cell added on a portal, so that the portals and the
// searched sectors change) rebuilds the sector layer without allocating once
// its scratch has grown; before, each rebuild allocated a slice of nodes
// per sector, the renumbered nodes, the sectors' list, a channel and a
// solver per worker. The graph after the edits equals a fresh one's.
func TestSectorsRefreshAllocatesNothing(t *testing.T) {
	g, err := grid.GenerateTown(256, 7)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSectors(g, 32)
	if err != nil {
		t.Fatal(err)
	}
	// an open cell inside a sector, and one on a portal (the column x = 31
	// borders the sectors at x = 32)
	var inner, onEdge grid.Cell
	for y := int32(40); y < 200 && (inner == grid.Cell{} || onEdge == grid.Cell{}); y++ {
		if c := (grid.Cell{X: 40, Y: y}); inner == (grid.Cell{}) && g.Passable(c) {
			inner = c
		}
		if c := (grid.Cell{X: 31, Y: y}); onEdge == (grid.Cell{}) && g.Passable(c) && g.Passable(grid.Cell{X: 32, Y: y}) {
			onEdge = c
		}
	}
	if inner == (grid.Cell{}) || onEdge == (grid.Cell{}) {
		t.Fatal("no open cells to edit")
	}
	rebuilt := 0
	edit := func() {
		for _, c := range []grid.Cell{inner, onEdge} {
			g.SetCost(c, grid.Blocked)
			rebuilt += s.Refresh()
			g.SetCost(c, 1)
			rebuilt += s.Refresh()
		}
	}
	edit() // grows the scratch
	rebuilt = 0
	if allocs := testing.AllocsPerRun(5, edit); allocs != 0 {
		t.Fatalf("a door closing and opening allocated %v times", allocs)
	}
	if rebuilt == 0 {
		t.Fatal("the edits rebuilt no sector")
	}
	g.SetCost(onEdge, grid.Blocked)
	s.Refresh()
	fresh, err := NewSectors(g, 32)
	if err != nil {
		t.Fatal(err)
	}
	requireSameGraph(t, s, fresh, "after the edits")
}
