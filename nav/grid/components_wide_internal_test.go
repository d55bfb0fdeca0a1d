package grid

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// reachWide is the reference for ConnectedWide: a breadth-first search with
// the wide search's moves (enter a cell of clearance ≥ c; a diagonal step
// needs both orthogonal cells beside it of clearance ≥ c; the start is
// exempt), from a, reporting whether it reaches b.
func reachWide(g *Grid, a, b Cell, c uint8) bool {
	if !g.Passable(a) || !g.Passable(b) {
		return false
	}
	if a == b {
		return true
	}
	ok := func(x, y int32) bool { return g.Clearance(Cell{x, y}) >= c }
	seen := make([]bool, g.w*g.h)
	queue := []Cell{a}
	seen[g.index(a)] = true
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for dy := int32(-1); dy <= 1; dy++ {
			for dx := int32(-1); dx <= 1; dx++ {
				n := Cell{p.X + dx, p.Y + dy}
				if (dx == 0 && dy == 0) || !ok(n.X, n.Y) || seen[g.index(n)] {
					continue
				}
				if dx != 0 && dy != 0 && (!ok(p.X+dx, p.Y) || !ok(p.X, p.Y+dy)) {
					continue
				}
				if n == b {
					return true
				}
				seen[g.index(n)] = true
				queue = append(queue, n)
			}
		}
	}
	return false
}

// TestConnectedWideMatchesSearch: on random grids (walls scattered and in
// runs, starts next to walls), ConnectedWide equals the reference search
// for clearances 1 to 4, before and after edits that open and close cells
// (the labels kept when no cell crossed a threshold, and redone when one
// did), and a Search with that Clearance answers ErrUnreachable exactly
// when it is false, without expanding a node.
func TestConnectedWideMatchesSearch(t *testing.T) {
	rng := newRand(1919)
	for _, sz := range [][3]int{{1, 1, 0}, {3, 9, 2}, {12, 12, 20}, {30, 20, 60}, {41, 37, 150}} {
		w, h := sz[0], sz[1]
		g := New(w, h)
		cell := func() Cell { return Cell{X: int32(rng.Intn(w)), Y: int32(rng.Intn(h))} }
		wall := func() {
			c := cell()
			n := 1 + rng.Intn(6)
			for k := 0; k < n && g.InBounds(c); k++ {
				g.SetCost(c, Blocked)
				if rng.Intn(2) == 0 {
					c.X++
				} else {
					c.Y++
				}
			}
		}
		for range sz[2] / 3 {
			wall()
		}
		searches := map[uint8]*Search{}
		for round := range 8 {
			for c := uint8(1); c <= 4; c++ {
				s := searches[c]
				if s == nil {
					s = NewSearchOptions(g, Options{Clearance: c})
					searches[c] = s
				}
				for range 40 {
					a, b := cell(), cell()
					want := reachWide(g, a, b, c)
					require.Equal(t, want, g.ConnectedWide(a, b, c), "%dx%d round %d clearance %d: %v to %v", w, h, round, c, a, b)
					if !g.Passable(a) || !g.Passable(b) {
						continue
					}
					_, _, err := s.Path(a, b, nil)
					if want {
						require.NoError(t, err, "%v to %v clearance %d", a, b, c)
					} else {
						require.ErrorIs(t, err, ErrUnreachable, "%v to %v clearance %d", a, b, c)
						require.Zero(t, s.Expanded(), "answered without searching")
					}
				}
			}
			switch round % 3 { // edits: close, open, or both
			case 0:
				wall()
			case 1:
				for range 3 {
					g.SetCost(cell(), 1)
				}
			default:
				wall()
				g.SetCost(cell(), 1)
			}
		}
	}
}

// TestComponentWideLabels pins the labels on a small map: two rooms joined
// by a gap one cell wide. Clearance 2 sees two components (the gap's cells
// have clearance 1), labelled in row-major order of their first cell; the
// gap's cells are -1; clearance 1 is Component; after the gap is widened
// to three cells (its middle cell then has clearance 2), one component.
func TestComponentWideLabels(t *testing.T) {
	g := New(11, 7)
	for y := range int32(7) {
		if y != 3 {
			g.SetCost(Cell{X: 5, Y: y}, Blocked)
		}
	}
	require.Equal(t, int32(0), g.ComponentWide(Cell{X: 2, Y: 3}, 2))
	require.Equal(t, int32(1), g.ComponentWide(Cell{X: 8, Y: 3}, 2))
	require.Equal(t, int32(-1), g.ComponentWide(Cell{X: 5, Y: 3}, 2), "the gap")
	require.Equal(t, int32(-1), g.ComponentWide(Cell{X: 0, Y: 3}, 2), "on the border: clearance 1")
	require.Equal(t, int32(-1), g.ComponentWide(Cell{X: 5, Y: 0}, 2), "blocked")
	require.Equal(t, int32(-1), g.ComponentWide(Cell{X: -1, Y: 0}, 2), "off the grid")
	require.Equal(t, int32(0), g.ComponentWide(Cell{X: 8, Y: 3}, 1), "clearance 1: the one component")
	require.False(t, g.ConnectedWide(Cell{X: 2, Y: 3}, Cell{X: 8, Y: 3}, 2))
	require.True(t, g.ConnectedWide(Cell{X: 2, Y: 3}, Cell{X: 8, Y: 3}, 1))
	require.True(t, g.ConnectedWide(Cell{X: 4, Y: 3}, Cell{X: 2, Y: 2}, 2), "a start beside the gap is exempt")
	require.False(t, g.ConnectedWide(Cell{X: 2, Y: 3}, Cell{X: 9, Y: 3}, 2), "goal of clearance 1")
	g.SetCost(Cell{X: 5, Y: 2}, 1)
	g.SetCost(Cell{X: 5, Y: 4}, 1)
	g.Prepare()
	require.Equal(t, int32(0), g.ComponentWide(Cell{X: 8, Y: 3}, 2))
	require.True(t, g.ConnectedWide(Cell{X: 2, Y: 3}, Cell{X: 8, Y: 3}, 2))
}

// TestWideUnreachableAcrossAFordIsO1 is newbie19's map: 1024², a river 8
// rows deep whose only crossing is a ford 2 cells wide. A search of
// clearance 2 (an agent of radius 1.2) across it answers ErrUnreachable
// without expanding a node (it expanded ~520,000, its whole side, before);
// one of clearance 1 finds the route through the ford.
func TestWideUnreachableAcrossAFordIsO1(t *testing.T) {
	const n = 1024
	g := New(n, n)
	for x := range int32(n) {
		if x == 100 || x == 101 {
			continue
		}
		for y := int32(508); y < 516; y++ {
			g.SetCost(Cell{X: x, Y: y}, Blocked)
		}
	}
	a, b := Cell{X: 480, Y: 560}, Cell{X: 512, Y: 470}
	s := NewSearchOptions(g, Options{Clearance: ClearanceFor(1.2)})
	_, _, err := s.Path(a, b, nil)
	require.ErrorIs(t, err, ErrUnreachable)
	require.Zero(t, s.Expanded())
	require.False(t, g.ConnectedWide(a, b, 2))
	require.True(t, g.ConnectedWide(a, Cell{X: 900, Y: 1000}, 2))
	p := NewSearch(g)
	_, _, err = p.Path(a, b, nil)
	require.NoError(t, err)
	// a 3-cell ford has a middle column of clearance 2, after one edit
	g.SetCost(Cell{X: 102, Y: 508}, 1)
	for y := int32(508); y < 516; y++ {
		g.SetCost(Cell{X: 102, Y: y}, 1)
	}
	require.True(t, g.ConnectedWide(a, b, 2))
	_, _, err = s.Path(a, b, nil)
	require.NoError(t, err)
}

// TestComponentWideAllocatesNothingWhenCurrent: once labelled, asking again,
// and relabelling after an edit that moves no cell across the threshold,
// allocates nothing.
func TestComponentWideAllocatesNothingWhenCurrent(t *testing.T) {
	g := New(64, 64)
	for y := range int32(40) {
		g.SetCost(Cell{X: 30, Y: y}, Blocked)
	}
	g.ComponentWide(Cell{}, 3)
	door := Cell{X: 30, Y: 5}
	allocs := testing.AllocsPerRun(20, func() {
		if g.Passable(door) {
			g.SetCost(door, Blocked)
		} else {
			g.SetCost(door, 1)
		}
		g.ConnectedWide(Cell{X: 10, Y: 50}, Cell{X: 50, Y: 50}, 3)
	})
	require.Zero(t, allocs)
}

// BenchmarkComponentWideRelabel times the labels of clearance 2 on
// newbie19's 1024² river map after an edit: "flood", a cell in the open
// toggled (cells cross the threshold: labelled again), and "kept", a cell
// of the river toggled (its neighbours' clearance stays below 2 or at 2 and
// above: one pass over the field). cpu-ms/op is the thread's CPU time.
func BenchmarkComponentWideRelabel(b *testing.B) {
	const n = 1024
	g := New(n, n)
	for x := range int32(n) {
		if x == 100 || x == 101 {
			continue
		}
		for y := int32(508); y < 516; y++ {
			g.SetCost(Cell{X: x, Y: y}, Blocked)
		}
	}
	for _, bc := range []struct {
		name string
		c    Cell
	}{{"flood", Cell{X: 300, Y: 200}}, {"kept", Cell{X: 600, Y: 511}}} {
		b.Run(bc.name, func(b *testing.B) {
			g.ComponentWide(Cell{}, 2)
			var cpu int64
			for b.Loop() {
				b.StopTimer()
				if g.Passable(bc.c) {
					g.SetCost(bc.c, Blocked)
				} else {
					g.SetCost(bc.c, 1)
				}
				g.Clearance(Cell{})
				b.StartTimer()
				c0 := threadCPU()
				g.ComponentWide(Cell{}, 2)
				cpu += int64(threadCPU() - c0)
			}
			b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op")
		})
	}
}
