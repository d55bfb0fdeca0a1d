package scenario

import (
	"math"
	"os"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// TestSectorRoutesNearOptimalOnGeneratedMap: on the generated town map (the
// swarm's with -map-size; 1024², and 4096² with ARCHAI_LONG=1), a walk along
// sector flow fields between random open cells (the route's sectors built,
// and any sector the walk enters built on entry, as agents' requests do)
// costs at most 5 % more than grid A*'s optimal on average and 15 % at
// worst.
func TestSectorRoutesNearOptimalOnGeneratedMap(t *testing.T) {
	size, queries := 1024, 16
	if os.Getenv("ARCHAI_LONG") != "" {
		size, queries = 4096, 40
	}
	g := GenerateMap(size, 7)
	s, err := flowfield.NewSectors(g, 64)
	require.NoError(t, err)
	f := flowfield.NewSectorField(s)
	search := grid.NewSearch(g)
	rng := steer.NewRand(11)
	sum, worst := 0.0, 0.0
	for q := 0; q < queries; q++ {
		start, _ := randomOpenCell(g, &rng)
		goal, _ := randomOpenCell(g, &rng)
		a, b := g.CellAt(start), g.CellAt(goal)
		_, opt, err := search.Path(a, b, nil)
		require.NoError(t, err)
		if opt == 0 {
			continue
		}
		f.SetGoal(b)
		f.BuildRoute(a)
		cost := walk(t, f, a)
		r := cost / opt
		sum += r
		worst = math.Max(worst, r)
		require.GreaterOrEqual(t, r, 1-1e-4, "%v -> %v shorter than optimal", a, b)
	}
	t.Logf("%d² town map, %d nodes: %d queries, mean %.4f, worst %.4f of optimal", size, s.Nodes(), queries, sum/float64(queries), worst)
	require.LessOrEqual(t, sum/float64(queries), 1.05)
	require.LessOrEqual(t, worst, 1.15)
}

// walk follows f from start to its goal, building each sector on entry,
// checking the steps are legal moves, and returns the walk's cost.
func walk(t *testing.T, f *flowfield.SectorField, start grid.Cell) float64 {
	t.Helper()
	g := f.Sectors().Grid()
	c, cost := start, 0.0
	for steps := 0; steps < 8*g.Width()*g.Height(); steps++ {
		if !f.Built(f.Sectors().SectorOf(c)) {
			f.Request(c)
			f.Update(math.MaxInt)
		}
		n, ok := f.Next(c)
		require.True(t, ok, "no way on from %v", c)
		if n == c {
			require.Equal(t, f.Goal(), c)
			return cost
		}
		dx, dy := n.X-c.X, n.Y-c.Y
		require.True(t, g.Passable(n) && dx*dx <= 1 && dy*dy <= 1, "illegal step %v -> %v", c, n)
		w := float64(g.Cost(n))
		if dx != 0 && dy != 0 {
			require.True(t, g.Passable(grid.Cell{X: c.X + dx, Y: c.Y}) && g.Passable(grid.Cell{X: c.X, Y: c.Y + dy}), "corner cut %v -> %v", c, n)
			w *= math.Sqrt2
		}
		cost += w
		c = n
	}
	t.Fatalf("the walk from %v did not end", start)
	return 0
}
