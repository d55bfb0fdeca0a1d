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
// optimal on average and 15 % at worst over the scenario's queries (60
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
	most := 60 // queries per map, spread over the scenario's length buckets
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
