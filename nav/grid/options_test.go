package grid

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomGrid returns a w×h grid with about blockedPct % blocked cells and,
// when weighted, some cells of cost 0.5..8.
func randomGrid(rng testRand, w, h, blockedPct int, weighted bool) *Grid {
	g := New(w, h)
	for y := int32(0); y < int32(h); y++ {
		for x := int32(0); x < int32(w); x++ {
			r := rng.Intn(100)
			switch {
			case r < blockedPct:
				g.SetCost(Cell{x, y}, Blocked)
			case weighted && r < blockedPct+25:
				g.SetCost(Cell{x, y}, 0.5+float32(rng.Intn(16))/2)
			}
		}
	}
	return g
}

func TestJumpPointsMatchAStarRandom(t *testing.T) {
	rng := newRand(11)
	for trial := 0; trial < 60; trial++ {
		g := randomGrid(rng, 40, 30, 10+trial%30, false)
		if trial%3 == 0 { // uniform but not 1: costs are scaled
			for i := range g.cost {
				if !isBlocked(g.cost[i]) {
					g.cost[i] = 2.5
				}
			}
			g.version++
			g.minCostDirty = true
		}
		a := NewSearch(g)
		j := NewSearchOptions(g, Options{JumpPoints: true})
		for q := 0; q < 40; q++ {
			s := Cell{int32(rng.Intn(40)), int32(rng.Intn(30))}
			e := Cell{int32(rng.Intn(40)), int32(rng.Intn(30))}
			_, want, errA := a.Path(s, e, nil)
			path, got, errJ := j.Path(s, e, nil)
			require.Equal(t, errA, errJ, "trial %d %v->%v", trial, s, e)
			if errA != nil {
				continue
			}
			require.InDelta(t, want, got, 1e-9, "trial %d %v->%v", trial, s, e)
			require.InDelta(t, checkPath(t, g, path, s, e), got, 1e-9)
		}
	}
}

func TestJumpPointsNeedUniformGrid(t *testing.T) {
	g := New(5, 5)
	g.SetCost(Cell{2, 2}, 3)
	s := NewSearchOptions(g, Options{JumpPoints: true})
	_, _, err := s.Path(Cell{0, 0}, Cell{4, 4}, nil)
	assert.ErrorIs(t, err, ErrNotUniform)
	g.SetCost(Cell{2, 2}, 1)
	_, cost, err := s.Path(Cell{0, 0}, Cell{4, 4}, nil)
	require.NoError(t, err)
	assert.InDelta(t, 4*math.Sqrt2, cost, 1e-12)
}

func TestJumpPointsExpandFewerOnOpenGrid(t *testing.T) {
	g := New(200, 200)
	for y := int32(20); y < 180; y++ {
		g.SetCost(Cell{100, y}, Blocked)
	}
	a := NewSearch(g)
	j := NewSearchOptions(g, Options{JumpPoints: true})
	_, ca, err := a.Path(Cell{10, 100}, Cell{190, 101}, nil)
	require.NoError(t, err)
	_, cj, err := j.Path(Cell{10, 100}, Cell{190, 101}, nil)
	require.NoError(t, err)
	assert.InDelta(t, ca, cj, 1e-9)
	assert.Less(t, j.Expanded()*20, a.Expanded(), "JPS %d, A* %d expansions", j.Expanded(), a.Expanded())
}

// dijkstra4 is an O(n²) 4-connected reference.
func dijkstra4(g *Grid, start, goal Cell) float64 {
	w := g.Width()
	n := w * g.Height()
	dist := make([]float64, n)
	done := make([]bool, n)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	dist[int(start.Y)*w+int(start.X)] = 0
	for {
		best := -1
		for i := range dist {
			if !done[i] && !math.IsInf(dist[i], 1) && (best < 0 || dist[i] < dist[best]) {
				best = i
			}
		}
		if best < 0 {
			return math.Inf(1)
		}
		done[best] = true
		c := Cell{int32(best % w), int32(best / w)}
		if c == goal {
			return dist[best]
		}
		for _, d := range [4]Cell{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nb := Cell{c.X + d.X, c.Y + d.Y}
			if g.Passable(nb) {
				i := int(nb.Y)*w + int(nb.X)
				dist[i] = min(dist[i], dist[best]+float64(g.Cost(nb)))
			}
		}
	}
}

func TestSearchMoves4AndHeuristics(t *testing.T) {
	rng := newRand(3)
	for trial := 0; trial < 30; trial++ {
		g := randomGrid(rng, 14, 10, 25, trial%2 == 0)
		for _, h := range []Heuristic{AutoHeuristic, ManhattanHeuristic, OctileHeuristic, EuclideanHeuristic, ZeroHeuristic} {
			s4 := NewSearchOptions(g, Options{Moves: Moves4, Heuristic: h})
			s8 := NewSearchOptions(g, Options{Heuristic: h})
			for q := 0; q < 8; q++ {
				a := Cell{int32(rng.Intn(14)), int32(rng.Intn(10))}
				b := Cell{int32(rng.Intn(14)), int32(rng.Intn(10))}
				if !g.Passable(a) || !g.Passable(b) || !g.Connected(a, b) {
					continue
				}
				path, cost, err := s4.Path(a, b, nil)
				require.NoError(t, err)
				require.InDelta(t, dijkstra4(g, a, b), cost, 1e-9, "trial %d h %d", trial, h)
				for i := 1; i < len(path); i++ {
					d := Manhattan(path[i-1], path[i])
					require.Equal(t, 1.0, d, "4-connected paths make orthogonal steps")
				}
				if h == ManhattanHeuristic {
					continue // inadmissible with 8-connected moves
				}
				_, cost, err = s8.Path(a, b, nil)
				require.NoError(t, err)
				require.InDelta(t, dijkstra(g, a, b), cost, 1e-9, "trial %d h %d", trial, h)
			}
		}
	}
}

// TestSearchInconsistentHeuristic uses a heuristic that is admissible (the
// exact remaining cost on some cells, 0 on the others) but not consistent:
// neighbouring cells' estimates differ by more than the step between them,
// so nodes are expanded before their best cost is known and must be
// reopened. The costs must still be optimal.
func TestSearchInconsistentHeuristic(t *testing.T) {
	rng := newRand(5)
	reopened := 0
	for trial := 0; trial < 40; trial++ {
		g := randomGrid(rng, 9, 7, 15, true)
		goal := Cell{int32(rng.Intn(9)), int32(rng.Intn(7))}
		if !g.Passable(goal) {
			continue
		}
		exact := map[Cell]float64{}
		for y := int32(0); y < 7; y++ {
			for x := int32(0); x < 9; x++ {
				if c := (Cell{x, y}); g.Passable(c) {
					exact[c] = dijkstra(g, c, goal)
				}
			}
		}
		keep := map[Cell]bool{}
		for c := range exact {
			keep[c] = rng.Intn(2) == 0
		}
		h := func(c, gl Cell) float64 {
			if keep[c] && !math.IsInf(exact[c], 1) {
				return exact[c]
			}
			return 0
		}
		s := NewSearchOptions(g, Options{HeuristicFunc: h})
		for q := 0; q < 10; q++ {
			a := Cell{int32(rng.Intn(9)), int32(rng.Intn(7))}
			if !g.Passable(a) || !g.Connected(a, goal) {
				continue
			}
			path, cost, err := s.Path(a, goal, nil)
			require.NoError(t, err)
			require.InDelta(t, exact[a], cost, 1e-9, "trial %d %v->%v", trial, a, goal)
			require.InDelta(t, checkPath(t, g, path, a, goal), cost, 1e-9)
			reopened += s.Reopened()
		}
	}
	assert.Positive(t, reopened, "the test must exercise reopening")
}

func TestSearchWeighted(t *testing.T) {
	g, qs := loadBench(t, "random512-25-0.map")
	exact := NewSearch(g)
	wa := NewSearchOptions(g, Options{Weight: 1.5})
	sumE, sumW := 0, 0
	for i, q := range qs {
		if i%20 != 0 || q.Optimal == 0 {
			continue
		}
		_, c, err := wa.Path(q.Start, q.Goal, nil)
		require.NoError(t, err)
		require.LessOrEqual(t, c, 1.5*q.Optimal+1e-6)
		require.GreaterOrEqual(t, c, q.Optimal-1e-6)
		_, _, err = exact.Path(q.Start, q.Goal, nil)
		require.NoError(t, err)
		sumE += exact.Expanded()
		sumW += wa.Expanded()
	}
	assert.Less(t, sumW, sumE)
	t.Logf("expansions: exact %d, weighted 1.5 %d", sumE, sumW)
}

func TestSearchSlicedEqualsWhole(t *testing.T) {
	g, qs := loadBench(t, "random512-25-0.map")
	for _, jps := range []bool{false, true} {
		whole := NewSearchOptions(g, Options{JumpPoints: jps})
		sliced := NewSearchOptions(g, Options{JumpPoints: jps})
		for i, q := range qs {
			if i%25 != 0 {
				continue
			}
			wp, wc, werr := whole.Path(q.Start, q.Goal, nil)
			err := sliced.Start(q.Start, q.Goal)
			if err != nil {
				require.Equal(t, werr, err)
				continue
			}
			steps, total := 0, 0
			for {
				n, done := sliced.Step(100)
				require.LessOrEqual(t, n, 100)
				total += n
				steps++
				if done {
					break
				}
				_, _, perr := sliced.Result(nil)
				require.ErrorIs(t, perr, ErrPending)
			}
			sp, sc, serr := sliced.Result(nil)
			require.NoError(t, serr)
			assert.Equal(t, wc, sc)
			assert.Equal(t, wp, sp)
			assert.Equal(t, whole.Expanded(), total)
			assert.Equal(t, (total+99)/100, steps)
		}
	}
}

func TestSearchSlicedRestartsOnGridChange(t *testing.T) {
	g := New(50, 50)
	s := NewSearch(g)
	require.NoError(t, s.Start(Cell{0, 0}, Cell{49, 49}))
	_, done := s.Step(5)
	require.False(t, done)
	for y := int32(0); y < 50; y++ {
		g.SetCost(Cell{25, y}, Blocked)
	}
	_, done = s.Step(1 << 30)
	require.True(t, done)
	_, _, err := s.Result(nil)
	assert.ErrorIs(t, err, ErrUnreachable)
}

func TestJumpPointsZeroAllocs(t *testing.T) {
	g, qs := loadBench(t, "arena.map")
	s := NewSearchOptions(g, Options{JumpPoints: true})
	buf := make([]Cell, 0, 1024)
	for _, q := range qs {
		buf, _, _ = s.Path(q.Start, q.Goal, buf)
	}
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		q := qs[i%len(qs)]
		i++
		buf, _, _ = s.Path(q.Start, q.Goal, buf)
	})
	assert.Zero(t, allocs)
}
