package flowfield

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/internal/gridtest"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// requireWideExact checks f against gridtest.To: the same reachable cells,
// the same values (to float32 rounding), and every direction a legal move of
// the rule that descends by its cost.
func requireWideExact(t *testing.T, f *Field, g *grid.Grid, goals ...grid.Cell) {
	t.Helper()
	clr := f.Clearance()
	want := gridtest.To(g, clr, goals...)
	for y := int32(0); y < int32(g.Height()); y++ {
		for x := int32(0); x < int32(g.Width()); x++ {
			c := grid.Cell{X: x, Y: y}
			got, w := f.Integration(c), want[int(y)*g.Width()+int(x)]
			if math.IsInf(w, 1) {
				require.True(t, math.IsInf(got, 1), "cell %v: got %v, want unreachable", c, got)
				continue
			}
			require.InDelta(t, w, got, 1e-4*(1+w), "cell %v", c)
			n, ok := f.Next(c)
			require.True(t, ok, "cell %v", c)
			if n == c {
				continue
			}
			isGoal := false
			for _, gl := range goals {
				isGoal = isGoal || gl == n
			}
			require.True(t, isGoal || g.Clearance(n) >= clr, "cell %v steps into %v of clearance %d < %d", c, n, g.Clearance(n), clr)
			if n.X != c.X && n.Y != c.Y {
				require.GreaterOrEqual(t, g.Clearance(grid.Cell{X: n.X, Y: c.Y}), clr, "diagonal %v→%v cuts a corner", c, n)
				require.GreaterOrEqual(t, g.Clearance(grid.Cell{X: c.X, Y: n.Y}), clr, "diagonal %v→%v cuts a corner", c, n)
			}
		}
	}
}

func randomWalls(r *rand.Rand, w, h int, density float64, costs []float32) *grid.Grid {
	g := grid.New(w, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := grid.Cell{X: int32(x), Y: int32(y)}
			if r.Float64() < density {
				g.SetCost(c, grid.Blocked)
			} else if len(costs) > 0 {
				g.SetCost(c, costs[r.IntN(len(costs))])
			}
		}
	}
	return g
}

func TestWideFieldExactAgainstDijkstra(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 22))
	many := make([]float32, 12) // more than maxClasses: the heap build
	for i := range many {
		many[i] = 1 + float32(i)/4
	}
	for _, costs := range [][]float32{nil, {1, 3}, many} {
		for _, clr := range []uint8{1, 2, 3} {
			for trial := 0; trial < 6; trial++ {
				g := randomWalls(r, 40, 30, 0.06, costs)
				f := New(g)
				f.SetClearance(clr)
				goals := []grid.Cell{{X: int32(r.IntN(40)), Y: int32(r.IntN(30))}}
				if trial%2 == 1 {
					goals = append(goals, grid.Cell{X: int32(r.IntN(40)), Y: int32(r.IntN(30))})
				}
				f.Build(goals...)
				requireWideExact(t, f, g, goals...)
				for i := 1; clr > 1 && i <= g.Height(); i++ { // the field's own clearance transform is the grid's
					for x := 1; x <= g.Width(); x++ {
						require.Equal(t, g.Clearance(grid.Cell{X: int32(x - 1), Y: int32(i - 1)}), f.wclr[i*f.stride+x])
					}
				}
			}
		}
	}
}

// A wide field follows edits (a door closing a corridor), budgeted builds
// give the same field, and switching a buffer between clearances too.
func TestWideFieldEditsBudgetsAndReuse(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	g := randomWalls(r, 48, 48, 0.05, nil)
	goal := grid.Cell{X: 5, Y: 40}
	g.SetCost(goal, 1)
	f := New(g)
	for _, clr := range []uint8{2, 1, 3, 2} {
		f.SetClearance(clr)
		f.Start(goal)
		for !f.Step(37) {
		}
		requireWideExact(t, f, g, goal)
		for k := 0; k < 20; k++ { // edits, some opening and some closing
			c := grid.Cell{X: int32(r.IntN(48)), Y: int32(r.IntN(48))}
			if c == goal {
				continue
			}
			if g.Passable(c) {
				g.SetCost(c, grid.Blocked)
			} else {
				g.SetCost(c, 1)
			}
		}
		f.Build(goal)
		requireWideExact(t, f, g, goal)
	}
}

// A goal next to a wall is exempt; a wide agent still gets there, from a
// cell of its clearance, and an agent pushed into a narrow cell gets out.
func TestWideFieldGoalAndNarrowStartExempt(t *testing.T) {
	g := grid.New(10, 10)
	goal := grid.Cell{X: 0, Y: 5} // on the border: clearance 1
	f := New(g)
	f.SetClearance(2)
	f.Build(goal)
	requireWideExact(t, f, g, goal)
	n, ok := f.Next(grid.Cell{X: 1, Y: 5})
	require.True(t, ok)
	require.Equal(t, goal, n)
	// (9, 5), on the border (clearance 1), leaves into (8, 5), of clearance 2
	// (not diagonally: (9, 4) and (9, 6) beside those moves are too narrow)
	n, ok = f.Next(grid.Cell{X: 9, Y: 5})
	require.True(t, ok)
	require.Equal(t, grid.Cell{X: 8, Y: 5}, n)
	// (0, 0), clearance 1, has clearance-1 neighbours only along the border,
	// and (1, 1) diagonally, whose sides (1, 0) and (0, 1) are too narrow
	n, ok = f.Next(grid.Cell{X: 0, Y: 0})
	require.False(t, ok, "next %v", n)
}

// Save and restore keep a wide field's clearance: a stale wide field is built
// again on its old costs at its clearance.
func TestWideCacheKeysAndRestore(t *testing.T) {
	g := grid.New(30, 20)
	for y := int32(0); y < 20; y++ {
		if y != 10 {
			g.SetCost(grid.Cell{X: 15, Y: y}, grid.Blocked) // a wall with a 1-cell gap
		}
	}
	goal := grid.Cell{X: 25, Y: 10}
	c := NewCache(g, 4)
	point, wide := c.Get(goal), c.GetWide(goal, 2)
	require.NotSame(t, point, wide)
	require.Same(t, point, c.Get(goal))
	require.Same(t, point, c.GetWide(goal, 1), "clearance 1 is the point field")
	require.Equal(t, 2, c.Len())
	_, ok := point.Next(grid.Cell{X: 2, Y: 10})
	require.True(t, ok)
	_, ok = wide.Next(grid.Cell{X: 2, Y: 10})
	require.False(t, ok, "a 1-cell gap lets no clearance-2 agent through")
	// open a 3-cell gap: the wide field goes stale, is served, and rebuilt
	g.SetCost(grid.Cell{X: 15, Y: 3}, 1)
	g.SetCost(grid.Cell{X: 15, Y: 4}, 1)
	g.SetCost(grid.Cell{X: 15, Y: 5}, 1)
	st, err := c.State()
	require.NoError(t, err)
	c2 := NewCache(g, 4)
	require.NoError(t, c2.Restore(st))
	f, ready := c2.RequestWide(goal, 2)
	require.False(t, ready)
	_, ok = f.Next(grid.Cell{X: 2, Y: 10})
	require.False(t, ok, "the restored stale field answers from the old costs")
	f = c2.GetWide(goal, 2)
	require.Equal(t, uint8(2), f.Clearance())
	requireWideExact(t, f, g, goal)
	_, ok = f.Next(grid.Cell{X: 2, Y: 10})
	require.True(t, ok, "rebuilt through the 3-cell gap")
}

func TestWideBuildAllocatesNothingWhenWarm(t *testing.T) {
	g := randomWalls(rand.New(rand.NewPCG(1, 2)), 64, 64, 0.05, nil)
	f := New(g)
	f.SetClearance(2)
	f.Build(grid.Cell{X: 1, Y: 1})
	allocs := testing.AllocsPerRun(10, func() { f.Build(grid.Cell{X: 1, Y: 1}) })
	require.Zero(t, allocs)
	allocs = testing.AllocsPerRun(100, func() { f.Sample(g.Center(grid.Cell{X: 40, Y: 40})) })
	require.Zero(t, allocs)
}
