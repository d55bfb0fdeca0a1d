package grid

import (
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// lmCheckConsistent fails unless the landmark distances of s are a
// consistent heuristic on g as it is now: along every allowed move the
// distances of a landmark differ by at most the move's cost, and a landmark
// reaches both ends of a move or neither (an opened cell the distances
// missed fails here).
func lmCheckConsistent(t *testing.T, s *Search, msg string) {
	t.Helper()
	require.True(t, s.lmOn, msg)
	pw := int32(s.pw)
	for i := int32(0); i < int32(len(s.moves)); i++ {
		for m := s.moves[i]; m != 0; m &= m - 1 {
			d := 0
			for m>>uint(d)&1 == 0 {
				d++
			}
			c := int64(costStraight)
			if d >= 4 {
				c = costDiag
			}
			j := i + moveDY[d]*pw + moveDX[d]
			for k := range lmCount {
				a, b := s.lm[int(i)*lmCount+k], s.lm[int(j)*lmCount+k]
				if (a == lmInf) != (b == lmInf) {
					t.Fatalf("%s: landmark %d reaches one end of move %d→%d only", msg, k, i, j)
				}
				if a != lmInf && max(int64(a)-int64(b), int64(b)-int64(a)) > c {
					t.Fatalf("%s: landmark %d, move %d→%d: %d and %d", msg, k, i, j, a, b)
				}
			}
		}
	}
}

// lmFresh returns landmark k's distances recomputed from scratch on the
// grid as it is now, from the same landmark cell.
func lmFresh(s *Search, k int) []uint32 {
	src := int32(-1)
	for i := range len(s.moves) {
		if s.lm[i*lmCount+k] == 0 {
			src = int32(i)
		}
	}
	keep := append([]uint32(nil), s.lm...)
	for i := range len(s.moves) {
		s.lm[i*lmCount+k] = lmInf
	}
	s.lmFrom(src, k)
	out := make([]uint32, len(s.moves))
	for i := range out {
		out[i] = s.lm[i*lmCount+k]
	}
	copy(s.lm, keep)
	return out
}

// Landmark distances after edits: cells opened lower them exactly as a
// recomputation would (repairLandmarks), cells blocked leave them a
// consistent heuristic, and jump point search stays exact throughout: 6 random
// grids, 12 with ARCHAI_LONG=1.
func TestLandmarksRepairAfterEdits(t *testing.T) {
	rng := newRand(1307)
	trials := 6
	if os.Getenv("ARCHAI_LONG") != "" {
		trials = 12
	}
	for trial := 0; trial < trials; trial++ {
		w, h := 8+rng.Intn(70), 8+rng.Intn(70)
		g := r4Grid(rng, w, h, 10+rng.Intn(30), 1)
		s := NewSearchOptions(g, Options{JumpPoints: true})
		require.True(t, s.lmOn)
		lmCheckConsistent(t, s, "built")
		blocked := false
		for round := 0; round < 15; round++ {
			opening := rng.Intn(2) == 0
			for range 1 + rng.Intn(6) {
				c := r4Cell(rng, g)
				if opening {
					g.SetCost(c, 1)
				} else {
					g.SetCost(c, Blocked)
					blocked = true
				}
			}
			r4CheckRandom(t, rng, g, s, 4, "landmark edits")
			s.sync() // a query that failed early (a blocked end) did not
			s.syncMoves()
			s.syncLandmarks()
			lmCheckConsistent(t, s, "after edits")
			if !blocked { // only openings since the build: exact distances
				for k := range lmCount {
					fresh := lmFresh(s, k)
					for i := range fresh {
						if fresh[i] != s.lm[i*lmCount+k] {
							t.Fatalf("trial %d round %d landmark %d cell %d: %d, recomputed %d", trial, round, k, i, s.lm[i*lmCount+k], fresh[i])
						}
					}
				}
			}
		}
	}
}

// The landmarks must do their work: on a scattered-obstacle map jump point
// search with them expands well under the jump points it expands without
// them, for the same costs.
func TestLandmarksCutExpansions(t *testing.T) {
	rng := newRand(77)
	g := r4Grid(rng, 160, 160, 25, 1)
	with := NewSearchOptions(g, Options{JumpPoints: true})
	without := NewSearchOptions(g, Options{JumpPoints: true})
	require.True(t, with.lmOn)
	without.lmOn = false // the octile heuristic alone
	ew, eo, n := 0, 0, 0
	for n < 60 {
		a, b := r4Cell(rng, g), r4Cell(rng, g)
		if !g.Passable(a) || !g.Passable(b) || !g.Connected(a, b) {
			continue
		}
		_, cw, err := with.Path(a, b, nil)
		require.NoError(t, err)
		_, co, err := without.Path(a, b, nil)
		require.NoError(t, err)
		require.InDelta(t, co, cw, 1e-9*math.Max(1, co), "%v→%v", a, b)
		ew += with.Expanded()
		eo += without.Expanded()
		n++
	}
	require.Less(t, float64(ew), 0.75*float64(eo), "expansions with landmarks %d, without %d", ew, eo)
}

// Grids above lmMaxCells cells get no landmarks; jump point search runs
// with the octile heuristic alone.
func TestLandmarksNoneOnLargeGrids(t *testing.T) {
	g := New(1025, 1024)
	for x := int32(1); x < 1000; x += 7 {
		g.SetCost(Cell{x, 500}, Blocked)
	}
	s := NewSearchOptions(g, Options{JumpPoints: true})
	require.False(t, s.lmOn)
	require.Nil(t, s.lm)
	_, cost, err := s.Path(Cell{0, 0}, Cell{1000, 1000}, nil)
	require.NoError(t, err)
	require.InDelta(t, 1000*math.Sqrt2, cost, 1e-6)
}

// A door opened and closed between queries: the landmarks' repair
// allocates nothing once its buffers have grown.
func TestLandmarksRepairAllocatesNothing(t *testing.T) {
	rng := newRand(5)
	g := r4Grid(rng, 96, 96, 20, 1)
	door := Cell{48, 48}
	for y := int32(0); y < 96; y++ {
		g.SetCost(Cell{48, y}, Blocked)
	}
	a, b := Cell{10, 10}, Cell{90, 90}
	g.SetCost(a, 1)
	g.SetCost(b, 1)
	s := NewSearchOptions(g, Options{JumpPoints: true})
	buf := make([]Cell, 0, 1024)
	open := true
	toggle := func() {
		if open {
			g.SetCost(door, 1)
		} else {
			g.SetCost(door, Blocked)
		}
		open = !open
		buf, _, _ = s.Path(a, b, buf)
	}
	for range 4 {
		toggle()
	}
	require.Zero(t, testing.AllocsPerRun(50, toggle))
}

// On random512-25-0 (shared maps) the landmarks cut jump point search's
// expansions from 3,910 a query to about 1,530, every query exact.
func TestLandmarksRandom512Expansions(t *testing.T) {
	g, qs := loadBench(t, "random512-25-0.map")
	s := NewSearchOptions(g, Options{JumpPoints: true})
	exp, n := 0, 0
	for i, q := range qs {
		if i%4 != 0 || !g.Connected(q.Start, q.Goal) {
			continue
		}
		_, cost, err := s.Path(q.Start, q.Goal, nil)
		require.NoError(t, err)
		require.InDelta(t, q.Optimal, cost, 1e-4*math.Max(1, q.Optimal), "query %d", i)
		exp += s.Expanded()
		n++
	}
	require.Positive(t, n)
	require.Less(t, exp, 2200*n, "%.0f expansions a query", float64(exp)/float64(n))
}
