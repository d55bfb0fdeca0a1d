package grid

import "testing"

// polish20: the wide tables are bounded by the clearances the cells have. On an
// open 64² grid the largest clearance is 32 (⌈64/2⌉), so asking the centre for
// every clearance 2..255 builds 31 tables of 4 bytes a cell, and no more.
// PrepareWide labels a clearance some cell has whatever the cell it is given
// (PathQueue's Overlap labels its clearances on the calling goroutine with it:
// ComponentWide(Cell{}, c) built nothing since review19, so the helper built
// them beside the callers), and nothing for a clearance no cell has.
func TestWideTablesBoundedByTheLargestClearance(t *testing.T) {
	g := New(64, 64)
	if m := g.maxClearance(); m != 32 {
		t.Fatalf("largest clearance %d, want 32", m)
	}
	for c := 2; c <= 255; c++ {
		g.ComponentWide(Cell{X: 31, Y: 31}, uint8(c))
	}
	if len(g.wide) != 31 {
		t.Fatalf("%d tables, want 31 (clearances 2..32)", len(g.wide))
	}
	for _, w := range g.wide {
		if len(w.comp) != 64*64 {
			t.Fatalf("clearance %d: %d labels, want one a cell", w.clear, len(w.comp))
		}
	}

	g = New(64, 64)
	for c := 2; c <= 255; c++ {
		g.PrepareWide(uint8(c))
	}
	if len(g.wide) != 31 {
		t.Fatalf("PrepareWide: %d tables, want 31", len(g.wide))
	}
	g.SetCost(Cell{X: 31, Y: 31}, Blocked) // the centre walled: the largest clearance drops to 16
	if m := g.maxClearance(); m != 16 {
		t.Fatalf("largest clearance after the edit %d, want 16", m)
	}
	g = New(64, 64)
	g.PrepareWide(33)
	g.PrepareWide(1)
	if len(g.wide) != 0 {
		t.Fatalf("%d tables for clearances no cell has (or 1)", len(g.wide))
	}
	g.PrepareWide(5)
	if len(g.wide) != 1 || g.wide[0].clear != 5 || g.wide[0].version != g.topoVersion {
		t.Fatalf("PrepareWide(5): tables %+v", g.wide)
	}
	if n := testing.AllocsPerRun(100, func() { g.PrepareWide(5) }); n != 0 {
		t.Fatalf("PrepareWide of labels up to date allocates %v times", n)
	}
}
