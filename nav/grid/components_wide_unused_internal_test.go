package grid

import "testing"

// review19: ComponentWide for a clearance no cell has built a 4-byte-per-cell
// table of -1 (64 MB on 4096²) for every such clearance asked for. It builds
// nothing now, and still labels the clearances cells have.
func TestComponentWideBuildsNoTableForAClearanceNoCellHas(t *testing.T) {
	g := New(64, 64)
	for x := int32(0); x < 64; x++ {
		g.SetCost(Cell{X: x, Y: 32}, Blocked)
	}
	for c := 2; c <= 255; c++ {
		if c > int(g.Clearance(Cell{X: 10, Y: 10})) {
			if got := g.ComponentWide(Cell{X: 10, Y: 10}, uint8(c)); got != -1 {
				t.Fatalf("clearance %d: label %d, want -1", c, got)
			}
		}
	}
	if len(g.wide) != 0 {
		t.Fatalf("%d tables built for clearances no cell has", len(g.wide))
	}
	if got := g.ComponentWide(Cell{X: 10, Y: 10}, 2); got < 0 {
		t.Fatalf("clearance 2 at an open cell: label %d", got)
	}
	if len(g.wide) != 1 {
		t.Fatalf("%d tables after one clearance a cell has, want 1", len(g.wide))
	}
	if g.ComponentWide(Cell{X: 10, Y: 10}, 2) == g.ComponentWide(Cell{X: 10, Y: 50}, 2) {
		t.Fatal("the two sides of the wall share a component")
	}
}
