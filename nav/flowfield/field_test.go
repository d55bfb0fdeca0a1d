package flowfield

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

const mapsDir = "../../../shared/maps"

func randomGrid(rng *rand.Rand, w, h, blockedPct int, weighted bool) *grid.Grid {
	g := grid.New(w, h)
	for y := int32(0); y < int32(h); y++ {
		for x := int32(0); x < int32(w); x++ {
			r := rng.IntN(100)
			switch {
			case r < blockedPct:
				g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
			case weighted && r < blockedPct+25:
				g.SetCost(grid.Cell{X: x, Y: y}, 0.5+float32(rng.IntN(16))/2)
			}
		}
	}
	return g
}

// checkLeadsToGoal follows the direction field from every cell: a reachable
// cell must reach a goal in fewer steps than there are cells, through
// passable cells, with legal moves (no corner cutting) and a strictly
// falling integration value; an unreachable one must have no direction.
func checkLeadsToGoal(t *testing.T, f *Field, g *grid.Grid) (reachable int) {
	t.Helper()
	n := g.Width() * g.Height()
	verified := make([]bool, n) // cells already known to lead to a goal
	for y := int32(0); y < int32(g.Height()); y++ {
		for x := int32(0); x < int32(g.Width()); x++ {
			c := grid.Cell{X: x, Y: y}
			if math.IsInf(f.Integration(c), 1) {
				_, ok := f.Next(c)
				if ok {
					t.Fatalf("cell %v unreachable but has a direction", c)
				}
				continue
			}
			reachable++
			cur := c
			for steps := 0; ; steps++ {
				if steps > n {
					t.Fatalf("cycle from %v", c)
				}
				nx, ok := f.Next(cur)
				if !ok {
					t.Fatalf("path from %v breaks at %v", c, cur)
				}
				if nx == cur || verified[int(cur.Y)*g.Width()+int(cur.X)] {
					break // a goal, or a cell already followed to one
				}
				if !g.Passable(nx) {
					t.Fatalf("path from %v enters blocked %v", c, nx)
				}
				dx, dy := nx.X-cur.X, nx.Y-cur.Y
				if dx != 0 && dy != 0 && (!g.Passable(grid.Cell{X: cur.X + dx, Y: cur.Y}) || !g.Passable(grid.Cell{X: cur.X, Y: cur.Y + dy})) {
					t.Fatalf("path from %v cuts a corner at %v->%v", c, cur, nx)
				}
				if !(f.Integration(nx) < f.Integration(cur)) {
					t.Fatalf("integration does not fall at %v->%v", cur, nx)
				}
				cur = nx
			}
			verified[int(c.Y)*g.Width()+int(c.X)] = true
		}
	}
	return reachable
}

func TestFieldLeadsEveryReachableCellToGoal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 30; trial++ {
		g := randomGrid(rng, 40, 30, 10+trial, trial%2 == 1)
		goal := grid.Cell{X: int32(rng.IntN(40)), Y: int32(rng.IntN(30))}
		g.SetCost(goal, 1)
		f := New(g)
		f.Build(goal)
		reach := checkLeadsToGoal(t, f, g)
		// reachable cells are exactly the goal's component, and the
		// integration field equals the A* cost to the goal
		s := grid.NewSearch(g)
		count := 0
		for y := int32(0); y < 30; y++ {
			for x := int32(0); x < 40; x++ {
				c := grid.Cell{X: x, Y: y}
				if !g.Connected(c, goal) {
					continue
				}
				count++
				if (x+y)%7 == 0 {
					_, cost, err := s.Path(c, goal, nil)
					require.NoError(t, err)
					require.InDelta(t, cost, f.Integration(c), 1e-4*math.Max(1, cost), "trial %d cell %v", trial, c)
				}
			}
		}
		require.Equal(t, count, reach, "trial %d", trial)
	}
}

func TestFieldMultipleGoalsAndSpreadBuild(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := randomGrid(rng, 64, 64, 20, true)
	goals := []grid.Cell{{X: 1, Y: 1}, {X: 60, Y: 5}, {X: 30, Y: 62}}
	for _, c := range goals {
		g.SetCost(c, 1)
	}
	whole := New(g)
	whole.Build(goals...)
	sliced := New(g)
	sliced.Start(goals...)
	frames := 0
	for !sliced.Step(500) {
		frames++
		require.LessOrEqual(t, sliced.Settled(), 500*frames)
	}
	assert.Equal(t, whole.d, sliced.d)
	assert.Equal(t, whole.dirs, sliced.dirs)
	assert.Greater(t, frames, 3)
	checkLeadsToGoal(t, whole, g)
	// every goal is a goal, and each cell's value is the minimum over the goals
	s := grid.NewSearch(g)
	for _, c := range goals {
		n, ok := whole.Next(c)
		assert.True(t, ok)
		assert.Equal(t, c, n)
	}
	for i := 0; i < 50; i++ {
		c := grid.Cell{X: int32(rng.IntN(64)), Y: int32(rng.IntN(64))}
		best := math.Inf(1)
		for _, gl := range goals {
			if _, cost, err := s.Path(c, gl, nil); err == nil {
				best = min(best, cost)
			}
		}
		assert.InDelta(t, best, whole.Integration(c), 1e-4*math.Max(1, best))
	}
}

// walk moves a point along Sample with a fixed step and reports whether it
// reached the goal within maxSteps, failing on a blocked cell or a reversal.
func walk(t *testing.T, f *Field, g *grid.Grid, p r2.Vec, goal grid.Cell, maxSteps int) bool {
	t.Helper()
	const step = 0.1
	var prev r2.Vec
	for i := 0; i < maxSteps; i++ {
		d, ok := f.Sample(p)
		require.True(t, ok, "no path at %v", p)
		if d == (r2.Vec{}) {
			return g.CellAt(p) == goal
		}
		if i > 0 && r2.Dot(d, prev) < -0.5 {
			t.Fatalf("direction reverses at %v: %v then %v", p, prev, d)
		}
		prev = d
		p = r2.Add(p, r2.Scale(step, d))
		if !g.Passable(g.CellAt(p)) {
			t.Fatalf("walked into blocked cell %v at %v", g.CellAt(p), p)
		}
	}
	return false
}

func TestFieldSampleReachesGoalSmoothly(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 10; trial++ {
		g := randomGrid(rng, 40, 40, 25, false)
		goal := grid.Cell{X: 20, Y: 20}
		g.SetCost(goal, 1)
		f := New(g)
		f.Build(goal)
		for a := 0; a < 30; a++ {
			p := r2.Vec{X: rng.Float64() * 40, Y: rng.Float64() * 40}
			if !g.Connected(g.CellAt(p), goal) {
				continue
			}
			limit := int(f.Integration(g.CellAt(p))*10*1.5) + 50
			require.True(t, walk(t, f, g, p, goal, limit), "trial %d from %v", trial, p)
		}
	}
}

func TestFieldLineOfSightShortcut(t *testing.T) {
	g := grid.New(20, 20)
	f := New(g)
	f.Build(grid.Cell{X: 15, Y: 2})
	p := r2.Vec{X: 2.5, Y: 12.5}
	d, ok := f.Sample(p)
	require.True(t, ok)
	want := r2.Unit(r2.Sub(r2.Vec{X: 15.5, Y: 2.5}, p))
	assert.InDelta(t, want.X, d.X, 1e-12)
	assert.InDelta(t, want.Y, d.Y, 1e-12)
}

func TestFieldUnreachableAndBlockedGoal(t *testing.T) {
	g := grid.New(10, 10)
	for y := int32(0); y < 10; y++ {
		g.SetCost(grid.Cell{X: 5, Y: y}, grid.Blocked)
	}
	f := New(g)
	f.Build(grid.Cell{X: 8, Y: 8})
	_, ok := f.Sample(r2.Vec{X: 1.5, Y: 1.5})
	assert.False(t, ok)
	assert.True(t, math.IsInf(f.Integration(grid.Cell{X: 1, Y: 1}), 1))
	f.Build(grid.Cell{X: 5, Y: 5}) // blocked goal: nothing reachable
	assert.True(t, f.Done())
	assert.True(t, math.IsInf(f.Integration(grid.Cell{X: 8, Y: 8}), 1))
}

func TestFieldOnBenchmarkMap(t *testing.T) {
	if _, err := os.Stat(mapsDir); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI: the MovingAI maps are missing at %s", mapsDir)
		}
		t.Skip("maps absent")
	}
	g, err := grid.LoadMap(filepath.Join(mapsDir, "maze512-4-0.map"))
	require.NoError(t, err)
	qs, err := grid.LoadScenario(filepath.Join(mapsDir, "maze512-4-0.map.scen"))
	require.NoError(t, err)
	goal := qs[len(qs)-1].Goal
	f := New(g)
	f.Build(goal)
	checkLeadsToGoal(t, f, g)
	for _, q := range qs {
		if q.Goal == goal {
			assert.InDelta(t, q.Optimal, f.Integration(q.Start), 1e-4*q.Optimal)
		}
	}
}

func TestCacheSharesEvictsAndInvalidates(t *testing.T) {
	g := grid.New(30, 30)
	c := NewCache(g, 2)
	a := c.Get(grid.Cell{X: 1, Y: 1})
	assert.Same(t, a, c.Get(grid.Cell{X: 1, Y: 1}), "one field per goal")
	assert.Equal(t, 1, c.Hits)
	b := c.Get(grid.Cell{X: 20, Y: 20})
	c.Get(grid.Cell{X: 1, Y: 1})        // a is now the most recent
	c3 := c.Get(grid.Cell{X: 5, Y: 25}) // evicts b, reusing its buffers
	assert.Same(t, b, c3)
	assert.Equal(t, 1, c.Evictions)
	assert.Equal(t, 2, c.Len())
	assert.Equal(t, 0.0, c3.Integration(grid.Cell{X: 5, Y: 25}))

	// a grid change makes fields stale; the next request starts a rebuild in
	// a second buffer and keeps serving the old field until it is complete
	for y := int32(0); y < 29; y++ {
		g.SetCost(grid.Cell{X: 10, Y: y}, grid.Blocked)
	}
	assert.True(t, a.Stale())
	before := a.Integration(grid.Cell{X: 20, Y: 1})
	f, ready := c.Request(grid.Cell{X: 1, Y: 1})
	assert.False(t, ready)
	assert.Same(t, a, f, "the old field still answers")
	c.Update(100)
	f, _ = c.Request(grid.Cell{X: 1, Y: 1})
	assert.Same(t, a, f, "until the rebuild is complete")
	assert.Equal(t, before, f.Integration(grid.Cell{X: 20, Y: 1}), "from the old costs")
	for c.Update(100) > 0 {
	}
	f, ready = c.Request(grid.Cell{X: 1, Y: 1})
	assert.True(t, ready)
	assert.NotSame(t, a, f, "the rebuilt field is swapped in")
	assert.Greater(t, f.Integration(grid.Cell{X: 20, Y: 1}), before+20, "the wall forces a detour")
	assert.Equal(t, 1, c.Rebuilds)
	checkLeadsToGoal(t, f, g)
	assert.Same(t, f, c.Get(grid.Cell{X: 1, Y: 1}))
}

func TestCacheUpdateRespectsBudget(t *testing.T) {
	g := grid.New(100, 100)
	c := NewCache(g, 4)
	c.Request(grid.Cell{X: 1, Y: 1})
	c.Request(grid.Cell{X: 90, Y: 90})
	frames := 0
	for {
		n := c.Update(1000)
		require.LessOrEqual(t, n, 1000)
		if n == 0 {
			break
		}
		frames++
	}
	assert.Equal(t, 20, frames, "two fields of 10,000 cells at 1,000 a frame")
}
