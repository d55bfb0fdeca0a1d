package flowfield

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// walkSector follows f.Next from start until the goal, checking every step
// is a legal move (passable, 8-connected, no corner cutting), and returns
// the walk's cost (orthogonal steps cost the entered cell's cost, diagonal
// ones √2 times it) and whether it reached the goal within the step limit.
// Like an agent whose sector is requested, it builds a sector it is in once
// it has made buildAfter steps there (never when buildAfter < 0).
func walkSector(t testing.TB, f *SectorField, start grid.Cell, buildAfter int) (float64, bool) {
	t.Helper()
	s := f.Sectors()
	g := s.Grid()
	c := start
	cost := 0.0
	inSector, sec := 0, -1
	for steps := 0; steps < g.Width()*g.Height(); steps++ {
		if i := s.SectorOf(c); i != sec {
			sec, inSector = i, 0
		}
		if buildAfter >= 0 && inSector >= buildAfter && !f.Built(sec) {
			f.Request(c)
			f.Update(math.MaxInt)
		}
		inSector++
		n, ok := f.Next(c)
		if !ok {
			return cost, false
		}
		if n == c {
			return cost, c == f.Goal()
		}
		dx, dy := n.X-c.X, n.Y-c.Y
		if dx < -1 || dx > 1 || dy < -1 || dy > 1 || !g.Passable(n) {
			t.Fatalf("illegal step %v -> %v", c, n)
		}
		w := float64(g.Cost(n))
		if dx != 0 && dy != 0 {
			if !g.Passable(grid.Cell{X: c.X + dx, Y: c.Y}) || !g.Passable(grid.Cell{X: c.X, Y: c.Y + dy}) {
				t.Fatalf("corner cut %v -> %v", c, n)
			}
			w *= math.Sqrt2
		}
		cost += w
		c = n
	}
	return cost, false
}

// routeStats measures walks through sector fields against the optimal
// costs of queries: the mean and worst ratio of walk cost to optimal, over
// the queries with a path. With built true, BuildRoute builds the route's
// sectors first; the walk builds the sectors it enters after buildAfter
// steps in them (see walkSector).
type routeStats struct {
	n           int
	sum, worst  float64
	worstQuery  grid.Query
	unreachable int
}

func (r *routeStats) add(ratio float64, q grid.Query) {
	r.n++
	r.sum += ratio
	if ratio > r.worst {
		r.worst, r.worstQuery = ratio, q
	}
}

func (r *routeStats) mean() float64 { return r.sum / float64(max(r.n, 1)) }

func measureRoutes(t *testing.T, s *Sectors, qs []grid.Query, built bool, buildAfter int) routeStats {
	t.Helper()
	f := NewSectorField(s)
	var st routeStats
	for _, q := range qs {
		if q.Optimal <= 0 {
			continue
		}
		f.SetGoal(q.Goal)
		if built {
			f.BuildRoute(q.Start)
		}
		cost, ok := walkSector(t, f, q.Start, buildAfter)
		if !ok {
			t.Fatalf("query %v -> %v (optimal %.3f): the walk did not reach the goal", q.Start, q.Goal, q.Optimal)
		}
		st.add(cost/q.Optimal, q)
	}
	return st
}

// TestSectorRoutesNearOptimal: on every shared MovingAI map, walks along
// sector fields (the route's sectors built) cost at most 5 % more than the
// optimal on average and 15 % at worst over the scenario's queries (30
// spread over the file; all with ARCHAI_LONG); a walk that leaves the
// route's sectors builds the sector it enters, as an agent's request does.
// Walks that start with no sector built but the goal's, and build a sector
// only after 2 sector sides of steps in it (the directions along the portal
// route in the meantime), reach the goal too.
func TestSectorRoutesNearOptimal(t *testing.T) {
	maps, _ := filepath.Glob(filepath.Join(mapsDir, "*.map"))
	if len(maps) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI: the MovingAI maps are missing at %s", mapsDir)
		}
		t.Skip("maps absent")
	}
	most := 30 // queries per map, spread over the scenario's length buckets
	if os.Getenv("ARCHAI_LONG") != "" {
		most = math.MaxInt
	}
	for _, path := range maps {
		g, err := grid.LoadMap(path)
		require.NoError(t, err)
		all, err := grid.LoadScenario(path + ".scen")
		require.NoError(t, err)
		var qs []grid.Query
		for i := 0; i < len(all); i += max(1, len(all)/most) {
			qs = append(qs, all[i])
		}
		s, err := NewSectors(g, 0)
		require.NoError(t, err)
		st := measureRoutes(t, s, qs, true, 0)
		fb := measureRoutes(t, s, qs, false, 2*s.Size())
		t.Logf("%s: %d queries, %d nodes; built routes: mean %.4f worst %.4f (%v->%v); unbuilt: mean %.4f worst %.4f",
			filepath.Base(path), st.n, s.Nodes(), st.mean(), st.worst, st.worstQuery.Start, st.worstQuery.Goal, fb.mean(), fb.worst)
		require.LessOrEqual(t, st.mean(), 1.05, filepath.Base(path))
		require.LessOrEqual(t, st.worst, 1.15, filepath.Base(path))
		require.GreaterOrEqual(t, st.worst, 1-1e-4, "no walk is shorter than the optimal")
	}
}

// buildAll builds every sector of f.
func buildAll(f *SectorField) {
	s := f.Sectors()
	across, down := s.Count()
	for i := 0; i < across*down; i++ {
		f.Request(s.Center(i))
	}
	f.Update(math.MaxInt)
}

// TestSectorEditRebuildsOnlyWhatDependsOnIt: after cost edits in a sector
// far from the goal, Update rebuilds that sector and sectors seeded from
// it, never the sectors between it and the goal; walks stay legal and
// within the bound of optimal, and a wall closing the way makes them go
// around it.
func TestSectorEditRebuildsOnlyWhatDependsOnIt(t *testing.T) {
	g := grid.New(128, 128)
	s, err := NewSectors(g, 16)
	require.NoError(t, err)
	goal := grid.Cell{X: 120, Y: 64}
	f := NewSectorField(s)
	f.SetGoal(goal)
	buildAll(f)

	for y := int32(20); y < 28; y++ { // a wall in the sector column x 0..15
		g.SetCost(grid.Cell{X: 8, Y: y}, grid.Blocked)
	}
	f.Update(math.MaxInt)
	require.NotEmpty(t, f.LastBuilt())
	for _, i := range f.LastBuilt() {
		require.Less(t, s.Center(int(i)).X, int32(32), "sector %d rebuilt, beyond the edit's reach", i)
	}
	across, down := s.Count()
	for i := 0; i < across*down; i++ {
		require.True(t, f.Built(i), "sector %d dropped without a rebuild", i)
	}
	start := grid.Cell{X: 2, Y: 24}
	_, opt, err := grid.NewSearch(g).Path(start, goal, nil)
	require.NoError(t, err)
	cost, ok := walkSector(t, f, start, 0)
	require.True(t, ok)
	require.InDelta(t, opt, cost, 0.05*opt)

	// a door closes: a wall across the map at x = 64 but for a gap at the top
	for y := int32(8); y < 128; y++ {
		g.SetCost(grid.Cell{X: 64, Y: y}, grid.Blocked)
	}
	f.Update(math.MaxInt)
	_, opt, err = grid.NewSearch(g).Path(start, goal, nil)
	require.NoError(t, err)
	cost, ok = walkSector(t, f, start, 0)
	require.True(t, ok, "the walk goes around the closed door")
	require.GreaterOrEqual(t, cost, opt-1e-3)
	require.LessOrEqual(t, cost, 1.15*opt)
}

// TestSectorBadInputs: sector sides outside 4..256 are ErrSectorSize;
// cells outside the grid and a blocked goal give no direction, never a
// panic.
func TestSectorBadInputs(t *testing.T) {
	g := grid.New(40, 30)
	for _, size := range []int{-1, 1, 3, 257} {
		_, err := NewSectors(g, size)
		require.ErrorIs(t, err, ErrSectorSize, "size %d", size)
	}
	s, err := NewSectors(g, 8)
	require.NoError(t, err)
	f := NewSectorField(s)
	_, ok := f.Next(grid.Cell{X: 3, Y: 3})
	require.False(t, ok, "no goal yet")
	g.SetCost(grid.Cell{X: 5, Y: 5}, grid.Blocked)
	for _, goal := range []grid.Cell{{X: 5, Y: 5}, {X: -1, Y: 0}, {X: 40, Y: 3}} {
		f.SetGoal(goal)
		_, ok := f.Next(grid.Cell{X: 3, Y: 3})
		require.False(t, ok, "goal %v", goal)
		require.True(t, math.IsInf(f.Integration(grid.Cell{X: 3, Y: 3}), 1))
	}
	f.SetGoal(grid.Cell{X: 30, Y: 20})
	for _, c := range []grid.Cell{{X: -1, Y: 0}, {X: 0, Y: 30}, {X: math.MaxInt32, Y: math.MinInt32}, {X: 5, Y: 5}} {
		_, ok := f.Next(c)
		require.False(t, ok, "cell %v", c)
	}
	require.Zero(t, f.Update(0), "a budget of 0 builds nothing")
	require.Zero(t, f.BuildRoute(grid.Cell{X: -5, Y: 2}))
}

// TestSectorReadsAllocateNothing: Next, Integration and Sample allocate
// nothing; neither does SetGoal once the field's buffers have grown.
func TestSectorReadsAllocateNothing(t *testing.T) {
	g := townGrid(256, 3)
	s, err := NewSectors(g, 32)
	require.NoError(t, err)
	f := NewSectorField(s)
	goals := []grid.Cell{{X: 128, Y: 128}, {X: 40, Y: 200}}
	for _, c := range goals {
		g.SetCost(c, 1)
	}
	f.SetGoal(goals[0])
	f.BuildRoute(grid.Cell{X: 3, Y: 3})
	p := g.Center(grid.Cell{X: 100, Y: 30})
	require.Zero(t, testing.AllocsPerRun(50, func() {
		c := g.CellAt(p)
		f.Next(c)
		f.Integration(c)
		f.Sample(p)
	}))
	f.SetGoal(goals[1])
	k := 0
	require.Zero(t, testing.AllocsPerRun(10, func() {
		f.SetGoal(goals[k%2])
		k++
	}))
}

// TestSectorFieldsSharingSectorsAfterAnEdit: two fields over one Sectors;
// after a grid edit refreshed by one of them, the other answers no path
// (never a panic on renumbered portals) until its own Update.
func TestSectorFieldsSharingSectorsAfterAnEdit(t *testing.T) {
	g := grid.New(64, 64)
	s, err := NewSectors(g, 8)
	require.NoError(t, err)
	a, b := NewSectorField(s), NewSectorField(s)
	a.SetGoal(grid.Cell{X: 60, Y: 60})
	b.SetGoal(grid.Cell{X: 2, Y: 60})
	c := grid.Cell{X: 30, Y: 3}
	_, ok := b.Next(c)
	require.True(t, ok)
	for y := int32(0); y < 40; y++ { // portals change along x = 31/32 and 39/40
		g.SetCost(grid.Cell{X: 32, Y: y}, grid.Blocked)
	}
	a.Update(math.MaxInt)
	_, ok = b.Next(c)
	require.False(t, ok, "b has not caught up")
	b.Update(math.MaxInt)
	cost, ok := walkSector(t, b, c, 0)
	require.True(t, ok)
	require.Greater(t, cost, 28.0)
}
