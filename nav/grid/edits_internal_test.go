package grid

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIncrementalMovesEqualRebuild edits random cells of a random grid
// between queries and checks that the search's incrementally updated moves
// (and uniformity) equal those of a search built from scratch.
func TestIncrementalMovesEqualRebuild(t *testing.T) {
	rng := newRand(11)
	g := New(37, 23)
	for i := 0; i < 37*23/4; i++ {
		g.SetCost(Cell{int32(rng.Intn(37)), int32(rng.Intn(23))}, Blocked)
	}
	s := NewSearch(g)
	buf := make([]Cell, 0, 64)
	open := func() Cell {
		for {
			c := Cell{int32(rng.Intn(37)), int32(rng.Intn(23))}
			if g.Passable(c) {
				return c
			}
		}
	}
	for round := 0; round < 200; round++ {
		for k := rng.Intn(4); k >= 0; k-- { // a door of up to four cells opens or closes
			c := Cell{int32(rng.Intn(37)), int32(rng.Intn(23))}
			if rng.Intn(2) == 0 {
				g.SetCost(c, Blocked)
			} else {
				g.SetCost(c, 1)
			}
		}
		_, _, _ = s.Path(open(), open(), buf)
		s.sync() // Path may have returned before syncing (a blocked end)
		s.syncMoves()
		fresh := NewSearch(g)
		fresh.syncMoves()
		require.Equal(t, fresh.moves, s.moves, "round %d", round)
		require.Equal(t, fresh.isUniform, s.isUniform)
		require.Equal(t, fresh.uniform, s.uniform)
	}
	// a cost other than the uniform one makes the grid non-uniform
	g.SetCost(open(), 3)
	_, _, _ = s.Path(open(), open(), buf)
	assert.False(t, s.isUniform)
}

// TestEditsSince checks the edit log: exact rectangles and cells since a
// version, and the whole grid once the log forgot.
func TestEditsSince(t *testing.T) {
	g := New(100, 50)
	v0 := g.Version()
	r, exact := g.EditedSince(v0)
	assert.True(t, r.Empty())
	assert.True(t, exact)
	g.SetCost(Cell{10, 20}, Blocked)
	v1 := g.Version()
	g.SetCost(Cell{12, 5}, 2)
	g.SetCost(Cell{12, 5}, 2) // no change: not logged
	r, exact = g.EditedSince(v0)
	assert.Equal(t, Rect{Cell{10, 5}, Cell{12, 20}}, r)
	assert.True(t, exact)
	r, _ = g.EditedSince(v1)
	assert.Equal(t, Rect{Cell{12, 5}, Cell{12, 5}}, r)
	cells, ok := g.EditsSince(v0, nil)
	assert.True(t, ok)
	assert.Equal(t, []Cell{{12, 5}, {10, 20}}, cells)
	for i := 0; i < MaxEditLog+10; i++ {
		g.SetCost(Cell{int32(i % 100), 0}, float32(2+(i/100)%2))
	}
	r, exact = g.EditedSince(v1)
	assert.False(t, exact)
	assert.Equal(t, Rect{Cell{0, 0}, Cell{99, 49}}, r)
	_, ok = g.EditsSince(v1, nil)
	assert.False(t, ok)
	r, exact = g.EditedSince(g.Version() - 1)
	assert.True(t, exact)
	assert.Equal(t, 1, int(r.Max.X-r.Min.X+1))
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { g.EditedSince(v1 + 600) }))
}

// TestPatchedComponentsEqualRelabel opens and closes random cells of a
// random grid and checks after each edit that the labels (patched when
// SetCost can) equal a full labelling.
func TestPatchedComponentsEqualRelabel(t *testing.T) {
	rng := newRand(5)
	g := New(31, 19)
	for i := 0; i < 31*19/3; i++ {
		g.SetCost(Cell{int32(rng.Intn(31)), int32(rng.Intn(19))}, Blocked)
	}
	patched := 0
	for round := 0; round < 3000; round++ {
		g.Prepare() // labels current
		c := Cell{int32(rng.Intn(31)), int32(rng.Intn(19))}
		if g.Passable(c) {
			g.SetCost(c, Blocked)
		} else {
			g.SetCost(c, 1)
		}
		if g.compVersion == g.topoVersion {
			patched++
		}
		got := g.labels()
		if g.compVersion != g.topoVersion {
			g.labelComponents()
			got = g.labels()
		}
		g.labelComponents()
		require.Equal(t, g.labels(), got, "round %d edit %v", round, c)
	}
	assert.Greater(t, patched, 1000, "most edits are patched")
}

// TestIncrementalJPSEqualsRebuild checks that JPS's mirror updated after a
// few edits (updateBits) equals a fresh search's full rebuild: bitsets,
// stop bits, jump bits and diagonal runs, over random doors opening and
// closing; and the paths stay optimal (equal to A*'s cost).
func TestIncrementalJPSEqualsRebuild(t *testing.T) {
	rng := newRand(12)
	const w, h = 71, 45 // rows of more than one word
	g := New(w, h)
	for i := 0; i < w*h/4; i++ {
		g.SetCost(Cell{int32(rng.Intn(w)), int32(rng.Intn(h))}, Blocked)
	}
	opt := Options{JumpPoints: true}
	s := NewSearchOptions(g, opt)
	astar := NewSearch(g)
	buf := make([]Cell, 0, 64)
	open := func() Cell {
		for {
			c := Cell{int32(rng.Intn(w)), int32(rng.Intn(h))}
			if g.Passable(c) {
				return c
			}
		}
	}
	for round := 0; round < 150; round++ {
		for k := rng.Intn(4); k >= 0; k-- {
			c := Cell{int32(rng.Intn(w)), int32(rng.Intn(h))}
			if rng.Intn(2) == 0 {
				g.SetCost(c, Blocked)
			} else {
				g.SetCost(c, 1)
			}
		}
		a, b := open(), open()
		_, cost, err := s.Path(a, b, buf)
		_, want, errA := astar.Path(a, b, buf)
		require.Equal(t, errA, err, "round %d", round)
		require.InDelta(t, want, cost, 1e-6*(1+want), "round %d", round)
		s.sync()
		s.syncMoves()
		s.syncBits()
		fresh := NewSearchOptions(g, opt)
		fresh.sync()
		fresh.syncMoves()
		fresh.syncBits()
		require.Equal(t, fresh.moves, s.moves, "round %d", round)
		require.Equal(t, fresh.rows.w, s.rows.w, "round %d: rows", round)
		require.Equal(t, fresh.cols.w, s.cols.w, "round %d: cols", round)
		require.Equal(t, fresh.stopE.w, s.stopE.w, "round %d: stopE", round)
		require.Equal(t, fresh.stopW.w, s.stopW.w, "round %d: stopW", round)
		require.Equal(t, fresh.stopS.w, s.stopS.w, "round %d: stopS", round)
		require.Equal(t, fresh.stopN.w, s.stopN.w, "round %d: stopN", round)
		require.Equal(t, fresh.jcell, s.jcell, "round %d: jump bits", round)
		require.Equal(t, fresh.diag, s.diag, "round %d: diagonal runs", round)
	}
}

// TestJPSRebuildMatchesPerCell checks the full rebuild of the JPS mirror
// (word-level jump bits, cell bits and diagonal runs, see syncBits) against
// the per-line and per-cell recomputations the incremental upkeep uses, on
// random grids with rows of one and of several words.
func TestJPSRebuildMatchesPerCell(t *testing.T) {
	rng := newRand(13)
	for _, sz := range [][2]int{{7, 5}, {62, 3}, {63, 9}, {64, 64}, {130, 41}} {
		for _, density := range []int{2, 4, 10} {
			w, h := sz[0], sz[1]
			g := New(w, h)
			for i := 0; i < w*h/density; i++ {
				g.SetCost(Cell{int32(rng.Intn(w)), int32(rng.Intn(h))}, Blocked)
			}
			s := NewSearchOptions(g, Options{JumpPoints: true})
			s.sync()
			s.syncMoves()
			s.syncBits()
			jcell := append([]uint16(nil), s.jcell...)
			diag := append([]uint16(nil), s.diag...)
			for y := 1; y < s.ph-1; y++ {
				s.jumpsOfRow(y)
			}
			for x := 1; x < s.pw-1; x++ {
				s.jumpsOfCol(x)
			}
			for y := int32(1); y < int32(s.ph)-1; y++ {
				for x := int32(1); x < int32(s.pw)-1; x++ {
					s.cellBits(x, y)
				}
			}
			require.Equal(t, s.jcell, jcell, "%dx%d 1/%d blocked: jump and cell bits", w, h, density)
			clear(s.diag)
			for y := int32(0); y < int32(s.ph); y++ {
				for x := int32(0); x < int32(s.pw); x++ {
					s.diagFrom(x, y)
				}
			}
			// diagFrom only walks on while a run changes: repeat to a fixed point
			for changed := true; changed; {
				changed = false
				for i := range s.diag {
					k := int32(i & 3)
					v := s.diagValue(int32(i/4), k, 2*(k&1)-1, 2*(k>>1)-1)
					if v != s.diag[i] {
						s.diag[i], changed = v, true
					}
				}
			}
			require.Equal(t, s.diag, diag, "%dx%d 1/%d blocked: diagonal runs", w, h, density)
		}
	}
}
