package systems

import (
	"testing"
	"time"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// wallWorld returns a 32×32 world with a wall at x = 16 open only at the
// bottom two rows, and n agents at (2.5, 2.5+i) wanting a path to (30, 2).
func wallWorld(t *testing.T, n int) (*arche.World, *grid.Grid, generic.Map2[components.Path, components.Position], []arche.Entity) {
	t.Helper()
	w, g := newWorld(32, 32)
	for y := int32(0); y < 30; y++ {
		g.SetCost(grid.Cell{X: 16, Y: y}, grid.Blocked)
	}
	m := generic.NewMap2[components.Path, components.Position](w)
	var es []arche.Entity
	for i := range n {
		e := m.New()
		p, pos := m.Get(e)
		pos.Vec = r2.Vec{X: 2.5, Y: 2.5 + float64(i)}
		p.Want, p.Goal = true, grid.Cell{X: 30, Y: 2}
		es = append(es, e)
	}
	return w, g, m, es
}

func TestPathQueueBudgetDeadAndReplacedRequests(t *testing.T) {
	w, g, m, es := wallWorld(t, 10)
	pq := &PathQueue{Budget: 150}
	pq.Initialize(w)

	frames := 0
	for pq.TotalSearches < 10 {
		pq.Update(w)
		frames++
		// a unit of budget per expansion, per request looked at and per search
		assert.LessOrEqual(t, pq.Expansions, pq.Budget)
		require.Less(t, frames, 100)
		if frames == 1 {
			p, _ := m.Get(es[0])
			require.Equal(t, components.PathPending, p.State, "one search takes more than a frame's budget")
			assert.Equal(t, 10, pq.Waiting)
		}
	}
	assert.Greater(t, frames, 3, "searches are sliced over frames")
	p, _ := m.Get(es[0])
	require.Equal(t, components.PathReady, p.State)
	assert.Equal(t, grid.Cell{X: 2, Y: 2}, p.Waypoints[0])
	assert.Equal(t, grid.Cell{X: 30, Y: 2}, p.Waypoints[len(p.Waypoints)-1])
	assert.Equal(t, 1, p.Next)
	assert.Equal(t, int64(10), pq.TotalServed)
	assert.Zero(t, pq.Waiting)

	// new requests; es[3] dies before it is served, es[4] replaces its
	// request with another goal, es[5] gives up (state reset by its owner)
	for _, e := range es {
		p, _ := m.Get(e)
		p.Want = true
	}
	pq.Update(w)
	w.RemoveEntity(es[3])
	p4, _ := m.Get(es[4])
	p4.Want, p4.Goal = true, grid.Cell{X: 5, Y: 20}
	p5, _ := m.Get(es[5])
	p5.State = components.PathNone
	for range 100 {
		pq.Update(w)
	}
	assert.Zero(t, pq.Waiting)
	assert.Equal(t, int64(10+8), pq.TotalServed)
	assert.Equal(t, int64(3), pq.TotalDropped, "dead, replaced and abandoned requests are dropped")
	assert.Equal(t, [3]int64{1, 1, 1}, [3]int64{pq.TotalOrphaned, pq.TotalReplaced, pq.TotalCancelled}, "one of each")
	require.Equal(t, components.PathReady, p4.State)
	assert.Equal(t, grid.Cell{X: 5, Y: 20}, p4.Waypoints[len(p4.Waypoints)-1], "the newer request replaced the older")
	assert.Equal(t, components.PathNone, p5.State, "a dropped result is not written")

	// an unreachable goal is a result, not a panic
	g.SetCost(grid.Cell{X: 16, Y: 30}, grid.Blocked)
	g.SetCost(grid.Cell{X: 16, Y: 31}, grid.Blocked)
	p, _ = m.Get(es[0])
	p.Want, p.Goal = true, grid.Cell{X: 30, Y: 2}
	pq.Update(w)
	assert.Equal(t, components.PathUnreachable, p.State)
	assert.Empty(t, p.Waypoints)
}

func TestPathQueueDeduplicatesEqualRequests(t *testing.T) {
	w, _, m, _ := wallWorld(t, 0)
	var es []arche.Entity
	for i := range 20 {
		e := m.New()
		p, pos := m.Get(e)
		pos.Vec = r2.Vec{X: 2.1 + float64(i)*0.04, Y: 2.5} // all in cell (2, 2)
		p.Want, p.Goal = true, grid.Cell{X: 30, Y: 2}
		es = append(es, e)
	}
	pq := &PathQueue{Budget: 1 << 20}
	pq.Initialize(w)
	pq.Update(w)
	assert.Equal(t, 1, pq.Searches)
	assert.Equal(t, 20, pq.Served)
	p0, _ := m.Get(es[0])
	for _, e := range es[1:] {
		p, _ := m.Get(e)
		assert.Equal(t, p0.Waypoints, p.Waypoints)
	}
}

func TestPathQueuePriorityAndAge(t *testing.T) {
	w, _, m, es := wallWorld(t, 4)
	p2, _ := m.Get(es[2])
	p2.Priority = 5
	pq := &PathQueue{Budget: 1} // one unit per frame: a search never finishes in the same frame it starts
	pq.Initialize(w)
	var order []int
	for range 20000 {
		pq.Update(w)
		for i, e := range es {
			p, _ := m.Get(e)
			if p.State == components.PathReady && !contains(order, i) {
				order = append(order, i)
			}
		}
		if len(order) == 4 {
			break
		}
	}
	assert.Equal(t, []int{2, 0, 1, 3}, order)
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestPathQueueGoalChangedWhilePendingIsRefiled(t *testing.T) {
	w, _, m, es := wallWorld(t, 1)
	pq := &PathQueue{Budget: 10}
	pq.Initialize(w)
	pq.Update(w)
	p, _ := m.Get(es[0])
	require.Equal(t, components.PathPending, p.State)
	p.Goal = grid.Cell{X: 3, Y: 10} // steering moves a pending goal without Want
	for range 100 {
		pq.Update(w)
	}
	require.Equal(t, components.PathReady, p.State)
	assert.Equal(t, grid.Cell{X: 3, Y: 10}, p.Waypoints[len(p.Waypoints)-1])
	assert.Zero(t, pq.TotalDropped)
}

func TestPathQueueSmooth(t *testing.T) {
	w, g, m, es := wallWorld(t, 1)
	pq := &PathQueue{Smooth: true}
	pq.Initialize(w)
	pq.Update(w)
	p, _ := m.Get(es[0])
	require.Equal(t, components.PathReady, p.State)
	assert.Less(t, len(p.Waypoints), 6, "around the wall's end: a few any-angle waypoints")
	for i := 1; i < len(p.Waypoints); i++ {
		assert.True(t, g.LineOfSight(g.Center(p.Waypoints[i-1]), g.Center(p.Waypoints[i])))
	}
}

func TestPathQueueZeroAllocsSteadyState(t *testing.T) {
	w, _, m, es := wallWorld(t, 30)
	pq := &PathQueue{Budget: 1 << 20}
	pq.Initialize(w)
	pq.Update(w)
	allocs := testing.AllocsPerRun(20, func() {
		for _, e := range es {
			p, _ := m.Get(e)
			p.Want = true
		}
		pq.Update(w)
	})
	assert.Zero(t, allocs)
}

// BenchmarkPathQueue10k files 10,000 simultaneous requests (random starts
// and 50 goals on a 256×256 map with scattered walls) and runs frames with a
// budget of 20,000 expansions until all are served. It reports the frames
// needed and the worst frame's time.
func BenchmarkPathQueue10k(b *testing.B) {
	const n, size = 10000, 256
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		world := arche.NewWorld()
		g := grid.New(size, size)
		x := uint64(12345)
		rnd := func(k int) int {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			return int(x % uint64(k))
		}
		for c := 0; c < size*size/5; c++ {
			g.SetCost(grid.Cell{X: int32(rnd(size)), Y: int32(rnd(size))}, grid.Blocked)
		}
		arche.AddResource(&world, g)
		m := generic.NewMap2[components.Path, components.Position](&world)
		var goals []grid.Cell
		for len(goals) < 50 {
			c := grid.Cell{X: int32(rnd(size)), Y: int32(rnd(size))}
			if g.Passable(c) {
				goals = append(goals, c)
			}
		}
		for k := 0; k < n; k++ {
			e := m.New()
			p, pos := m.Get(e)
			var c grid.Cell
			for {
				c = grid.Cell{X: int32(rnd(size)), Y: int32(rnd(size))}
				if g.Passable(c) {
					break
				}
			}
			pos.Vec = g.Center(c)
			p.Want, p.Goal = true, goals[k%len(goals)]
		}
		pq := &PathQueue{Budget: 20000}
		pq.Initialize(&world)
		b.StartTimer()
		frames := 0
		var worst time.Duration
		for frames == 0 || pq.Waiting > 0 {
			t0 := time.Now()
			pq.Update(&world)
			worst = max(worst, time.Since(t0))
			frames++
		}
		b.ReportMetric(float64(frames), "frames")
		b.ReportMetric(float64(worst.Microseconds())/1000, "worst-frame-ms")
		b.ReportMetric(float64(pq.TotalExpansions)/float64(n), "expansions/request")
		b.ReportMetric(float64(pq.TotalSearches), "searches")
	}
}
