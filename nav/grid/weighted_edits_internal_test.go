package grid

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWeightedMirrorPatchEqualsRebuild edits random cells of a grid of
// several costs between queries (doors opening and closing, cells changing
// cost class, bursts of many edits, the whole grid becoming uniform and
// non-uniform again) and checks, for point agents and wide ones, that the
// float search's patched copy of the costs, its uniformity and the path
// cost equal those of a search built from scratch.
func TestWeightedMirrorPatchEqualsRebuild(t *testing.T) {
	const w, h = 41, 29
	costs := []float32{1, 1, 1, 2, 3.5, Blocked, Blocked}
	for _, clearance := range []uint8{0, 2, 3} {
		rng := newRand(uint64(7 + clearance))
		g := New(w, h)
		for i := 0; i < w*h/3; i++ {
			g.SetCost(Cell{int32(rng.Intn(w)), int32(rng.Intn(h))}, costs[rng.Intn(len(costs))])
		}
		opt := Options{Clearance: clearance, HeuristicFunc: func(a, b Cell) float64 { return 0 }}
		s := NewSearchOptions(g, opt)
		cell := func() Cell { return Cell{int32(rng.Intn(w)), int32(rng.Intn(h))} }
		buf := make([]Cell, 0, 64)
		for round := 0; round < 300; round++ {
			n := rng.Intn(4)
			switch round % 50 {
			case 17: // a burst: more edits than a patch takes
				n = incrementalEdits + 10
			case 33: // the whole grid uniform, then one rough cell again
				for y := range h {
					for x := range w {
						if !isBlocked(g.Cost(Cell{int32(x), int32(y)})) {
							g.SetCost(Cell{int32(x), int32(y)}, 1)
						}
					}
				}
				n = 0
			case 34:
				g.SetCost(cell(), 3)
			}
			for ; n > 0; n-- {
				g.SetCost(cell(), costs[rng.Intn(len(costs))])
			}
			a, b := cell(), cell()
			_, got, gotErr := s.Path(a, b, buf)
			fresh := NewSearchOptions(g, opt)
			_, want, wantErr := fresh.Path(a, b, buf)
			require.Equal(t, wantErr, gotErr, "clearance %d round %d", clearance, round)
			require.InDelta(t, want, got, 1e-9, "clearance %d round %d", clearance, round)
			s.sync()
			fresh.sync()
			require.Equal(t, fresh.isUniform, s.isUniform, "clearance %d round %d", clearance, round)
			require.Equal(t, fresh.uniform, s.uniform)
			if s.pcost != nil {
				s.syncFloat()
				fresh.syncFloat()
				require.Equal(t, fresh.pcost, s.pcost, "clearance %d round %d", clearance, round)
			}
		}
	}
}

// TestCostRangeTracksEdits checks the range of passable costs SetCost keeps
// against a scan, through edits that remove the last cell of the cheapest
// and of the dearest cost, block every cell and open one again.
func TestCostRangeTracksEdits(t *testing.T) {
	scan := func(g *Grid) (float32, float32) {
		lo, hi := float32(math.Inf(1)), float32(0)
		for _, c := range g.cost {
			if !isBlocked(c) {
				lo, hi = min(lo, c), max(hi, c)
			}
		}
		return lo, hi
	}
	g := New(3, 2)
	g.MinCost() // the range known: SetCost keeps it from here
	steps := []struct {
		c    Cell
		cost float32
		lo   float32
		hi   float32
	}{
		{Cell{0, 0}, 5, 1, 5},
		{Cell{1, 0}, 0.5, 0.5, 5},
		{Cell{1, 0}, 1, 1, 5},       // the last cell of 0.5 gone
		{Cell{0, 0}, Blocked, 1, 1}, // the last cell of 5 gone
		{Cell{0, 0}, 2, 1, 2},
	}
	for i, st := range steps {
		g.SetCost(st.c, st.cost)
		lo, hi := g.costRange()
		assert.Equal(t, st.lo, lo, "step %d", i)
		assert.Equal(t, st.hi, hi, "step %d", i)
		assert.Equal(t, st.lo, g.MinCost(), "step %d", i)
	}
	for y := range int32(2) { // every cell blocked: MinCost 1, no range
		for x := range int32(3) {
			g.SetCost(Cell{x, y}, Blocked)
		}
	}
	assert.Equal(t, float32(1), g.MinCost())
	lo, hi := g.costRange()
	assert.True(t, isBlocked(lo))
	assert.Equal(t, float32(0), hi)
	g.SetCost(Cell{2, 1}, 4) // one open cell: it is the range
	lo, hi = g.costRange()
	assert.Equal(t, float32(4), lo)
	assert.Equal(t, float32(4), hi)
	assert.Equal(t, float32(4), g.MinCost())
	assert.False(t, g.minCostDirty, "one cell opening needs no scan")
	// random edits: the kept range always equals a scan
	rng := newRand(5)
	g = New(9, 7)
	g.MinCost()
	vals := []float32{1, 2, 3, 0.25, Blocked}
	for i := 0; i < 2000; i++ {
		g.SetCost(Cell{int32(rng.Intn(9)), int32(rng.Intn(7))}, vals[rng.Intn(len(vals))])
		wlo, whi := scan(g)
		lo, hi := g.costRange()
		require.Equal(t, wlo, lo, "edit %d", i)
		require.Equal(t, whi, hi, "edit %d", i)
		if i%7 == 0 {
			g.MinCost() // recompute when marked
		}
	}
}

// TestWeightedEditPatchesOnly checks that after one door edit on a grid of
// several costs, the float search's next query copies only that cell: a
// mark written into the mirror elsewhere survives.
func TestWeightedEditPatchesOnly(t *testing.T) {
	g := New(64, 64)
	g.SetCost(Cell{60, 60}, 3)
	s := NewSearch(g)
	_, _, err := s.Path(Cell{1, 1}, Cell{10, 5}, nil)
	require.NoError(t, err)
	require.False(t, s.isUniform)
	mark := (40+1)*s.pw + 40 + 1
	s.pcost[mark] = 42 // not the grid's: a full copy would overwrite it
	g.SetCost(Cell{30, 30}, Blocked)
	_, _, err = s.Path(Cell{1, 1}, Cell{10, 5}, nil)
	require.NoError(t, err)
	assert.Equal(t, float32(42), s.pcost[mark])
	assert.True(t, isBlocked(s.pcost[(30+1)*s.pw+30+1]))
	assert.False(t, g.minCostDirty)
}

// TestIncrementalWideMovesEqualRebuild: on a uniform grid, a search for
// wide agents (Clearance 2 and 3) patches its allowed moves within
// Clearance of each edit; after random door edits and bursts they equal a
// fresh search's, and a query's cost equals the fresh one's.
func TestIncrementalWideMovesEqualRebuild(t *testing.T) {
	const w, h = 47, 31
	for _, clearance := range []uint8{2, 3} {
		rng := newRand(uint64(20 + clearance))
		g := New(w, h)
		for i := 0; i < w*h/8; i++ {
			g.SetCost(Cell{int32(rng.Intn(w)), int32(rng.Intn(h))}, Blocked)
		}
		opt := Options{Clearance: clearance}
		s := NewSearchOptions(g, opt)
		cell := func() Cell { return Cell{int32(rng.Intn(w)), int32(rng.Intn(h))} }
		for round := 0; round < 200; round++ {
			n := rng.Intn(4)
			if round%40 == 21 {
				n = 60 // more than a patch takes on this small grid: a rebuild
			}
			for ; n > 0; n-- {
				if rng.Intn(2) == 0 {
					g.SetCost(cell(), Blocked)
				} else {
					g.SetCost(cell(), 1)
				}
			}
			a, b := cell(), cell()
			_, got, gotErr := s.Path(a, b, nil)
			fresh := NewSearchOptions(g, opt)
			_, want, wantErr := fresh.Path(a, b, nil)
			require.Equal(t, wantErr, gotErr, "clearance %d round %d", clearance, round)
			require.InDelta(t, want, got, 1e-9)
			s.sync()
			s.syncMoves()
			fresh.sync()
			fresh.syncMoves()
			require.Equal(t, fresh.moves, s.moves, "clearance %d round %d", clearance, round)
		}
	}
}

// TestRebuildMovesTwiceKeepsTopRowInGrid: a second full rebuild of the
// allowed moves (a wide agent's search after an edit, or any search after
// more edits than it patches) allowed no move north out of the first row;
// before the fix the rows left in its scratch from the first rebuild gave
// that row moves into the padding above the grid (dead ends, as the
// padding's own moves are none; on every height but 3k+2).
func TestRebuildMovesTwiceKeepsTopRowInGrid(t *testing.T) {
	g := New(8, 9) // 9 rows: the scratch row taken as the one above the grid last held row 8, all open
	for _, req := range []uint8{1, 2} {
		s := NewSearch(g)
		s.sync()
		s.rebuildMoves(req)
		s.rebuildMoves(req)
		for x := 1; x <= 8; x++ {
			m := s.moves[1*s.pw+x] // the first row of the grid
			assert.Zero(t, m&(moveN|moveNW|moveNE), "clearance %d, x %d: moves %08b", req, x-1, m)
		}
	}
}

// TestWeightedPatchAllocatesNothing: once warm, a door toggle and a short
// search on a grid of several costs allocate nothing.
func TestWeightedPatchAllocatesNothing(t *testing.T) {
	g := New(200, 100)
	g.SetCost(Cell{190, 90}, 3)
	s := NewSearch(g)
	buf := make([]Cell, 0, 64)
	i := 0
	run := func() {
		cost := Blocked
		if i%2 == 1 {
			cost = 1
		}
		i++
		g.SetCost(Cell{100, 50}, cost)
		buf, _, _ = s.Path(Cell{5, 5}, Cell{25, 15}, buf[:0])
	}
	run()
	run()
	assert.Zero(t, testing.AllocsPerRun(100, run))
}
