package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// doorWorld is 40×20: a wall at x = 20 with a door (cells (20, 10) and
// (20, 11)) and a far opening at the bottom (rows 17–18), and a short wall
// at x = 10 over rows 0–14. The runner goes from (12.5, 3.5) to (35.5, 3.5)
// through the door; the bystander from (5.5, 3.5) to (15.5, 3.5), around
// the short wall, never near the door.
type doorWorld struct {
	w                 *arche.World
	g                 *grid.Grid
	s                 *ecs.Scheduler
	pq                *systems.PathQueue
	runner, bystander arche.Entity
	m                 generic.Map2[components.Position, components.Path]
}

var doorCells = []grid.Cell{{X: 20, Y: 10}, {X: 20, Y: 11}}

func newDoorWorld(t *testing.T, workers int) *doorWorld {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	g := grid.New(40, 20)
	for y := int32(0); y < 20; y++ {
		if y != 10 && y != 11 && y != 17 && y != 18 {
			g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
		}
		if y < 15 {
			g.SetCost(grid.Cell{X: 10, Y: y}, grid.Blocked)
		}
	}
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{MaxSpeed: 4}})
	require.NoError(t, err)
	d := &doorWorld{w: w, g: g, pq: &systems.PathQueue{}, m: generic.NewMap2[components.Position, components.Path](w)}
	d.runner = sp.Spawn(r2.Vec{X: 12.5, Y: 3.5}, func(a *systems.Spawned) {
		*a.Intent = components.Intent{Move: true, Goal: r2.Vec{X: 35.5, Y: 3.5}}
	})
	d.bystander = sp.Spawn(r2.Vec{X: 5.5, Y: 3.5}, func(a *systems.Spawned) {
		*a.Intent = components.Intent{Move: true, Goal: r2.Vec{X: 15.5, Y: 3.5}}
	})
	d.s = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, d.pq,
		&systems.PathFollow{Workers: workers}, &systems.Steer{Workers: workers}, &systems.Movement{Workers: workers})
	d.s.Initialize(w)
	t.Cleanup(func() { d.s.Finalize(w) })
	return d
}

// crossesDoor reports whether the path's remaining waypoints step through a
// door cell.
func crossesDoor(p *components.Path) bool {
	for _, c := range p.Waypoints[max(p.Next-1, 0):] {
		for _, dc := range doorCells {
			if c == dc {
				return true
			}
		}
	}
	return false
}

// A door closing across a followed path makes exactly its agents repath, in
// the same frame, around it; nobody walks through the closed door, and the
// run is the same with one worker and two.
func TestDoorClosingMakesFollowersRepath(t *testing.T) {
	var final [2][2]r2.Vec
	for k, workers := range []int{1, 2} {
		d := newDoorWorld(t, workers)
		d.s.Run(d.w, 30) // half a second: both hold a path, the runner is on its way to the door
		pos, p := d.m.Get(d.runner)
		require.Equal(t, components.PathReady, p.State)
		require.True(t, crossesDoor(p), "the runner's path goes through the door")
		require.Less(t, pos.X, 19.0, "and it has not reached it yet")
		_, bp := d.m.Get(d.bystander)
		require.Equal(t, components.PathReady, bp.State)
		bystanderPath := append([]grid.Cell(nil), bp.Waypoints...)
		served := d.pq.TotalServed

		for _, c := range doorCells {
			d.g.SetCost(c, grid.Blocked)
		}
		d.s.Update(d.w)
		assert.Equal(t, 1, d.pq.Repathed, "only the runner's path crosses the door")
		assert.Equal(t, served+1, d.pq.TotalServed, "served in the same frame")
		_, p = d.m.Get(d.runner)
		require.Equal(t, components.PathReady, p.State)
		assert.False(t, crossesDoor(p), "the new path goes around")
		low := false
		for _, c := range p.Waypoints {
			low = low || (c.X == 20 && c.Y >= 17)
		}
		assert.True(t, low, "through the far opening")
		_, bp = d.m.Get(d.bystander)
		assert.Equal(t, bystanderPath, bp.Waypoints, "the bystander keeps its path")

		for f := 0; f < 60*30; f++ {
			d.s.Update(d.w)
			pos, _ := d.m.Get(d.runner)
			c := d.g.CellAt(pos.Vec)
			require.True(t, d.g.Passable(c), "frame %d: runner at %v, in a wall or the closed door", f, pos.Vec)
		}
		pos, _ = d.m.Get(d.runner)
		assert.Less(t, r2.Norm(r2.Sub(pos.Vec, r2.Vec{X: 35.5, Y: 3.5})), 0.5, "it arrives")
		bpos, _ := d.m.Get(d.bystander)
		final[k] = [2]r2.Vec{pos.Vec, bpos.Vec}

		// opening the door again repaths nobody: no path crosses it now
		for _, c := range doorCells {
			d.g.SetCost(c, 1)
		}
		d.s.Update(d.w)
		assert.Zero(t, d.pq.Repathed)
		// and a frame without edits allocates nothing in the queue's check
		assert.Zero(t, testing.AllocsPerRun(20, func() { d.pq.Update(d.w) }))
	}
	assert.Equal(t, final[0], final[1], "one worker or two: the same run")
}

// gapWorld is 40×30 with a wall across row 15 pierced by a gap of 2 cells
// (columns 5–6) and one of 4 cells (30–33), and one Mover of the given
// radius at (8.5, 2.5) going to (8.5, 27.5) (no line of sight: the wall).
func gapWorld(t *testing.T, radius float64) (*arche.World, *ecs.Scheduler, *grid.Grid, arche.Entity) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	g := grid.New(40, 30)
	for x := int32(0); x < 40; x++ {
		if (x < 5 || x > 6) && (x < 30 || x > 33) {
			g.SetCost(grid.Cell{X: x, Y: 15}, grid.Blocked)
		}
	}
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{MaxSpeed: 4, Radius: radius}})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 8.5, Y: 2.5}, func(a *systems.Spawned) {
		*a.Intent = components.Intent{Move: true, Goal: r2.Vec{X: 8.5, Y: 27.5}}
	})
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{Smooth: true},
		&systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1}, &systems.Movement{Workers: 1})
	s.Initialize(w)
	t.Cleanup(func() { s.Finalize(w) })
	return w, s, g, e
}

// wallDistance returns the smallest distance from the polyline through the
// waypoints' cell centres to a blocked cell's square (the border included).
func wallDistance(g *grid.Grid, path []grid.Cell) float64 {
	best := math.Inf(1)
	for i := 1; i < len(path); i++ {
		a, b := g.Center(path[i-1]), g.Center(path[i])
		for k := 0; k <= 16; k++ {
			t := float64(k) / 16
			px, py := a.X+(b.X-a.X)*t, a.Y+(b.Y-a.Y)*t
			for y := int32(-1); y <= int32(g.Height()); y++ {
				for x := int32(-1); x <= int32(g.Width()); x++ {
					if !g.Passable(grid.Cell{X: x, Y: y}) {
						dx := math.Max(0, math.Max(float64(x)-px, px-float64(x+1)))
						dy := math.Max(0, math.Max(float64(y)-py, py-float64(y+1)))
						best = math.Min(best, math.Hypot(dx, dy))
					}
				}
			}
		}
	}
	return best
}

// A large agent's route never passes a gap narrower than its diameter: an
// agent of radius 1.2 (diameter 2.4) is routed through the 4-cell gap, the
// whole route at least its radius off the walls; a small one takes the
// 2-cell gap; one of radius 1.6 (the 4-cell gap's middle cells are 2 cells
// from the walls) gets PathUnreachable.
func TestWideAgentRouteFitsItsDiameter(t *testing.T) {
	paths := generic.NewMap2[components.Position, components.Path]
	for _, tc := range []struct {
		radius float64
		gapX   [2]int32 // columns of the gap the route crosses row 15 in
	}{{0.3, [2]int32{5, 6}}, {1.2, [2]int32{30, 33}}} {
		w, s, g, e := gapWorld(t, tc.radius)
		m := paths(w)
		s.Run(w, 3)
		_, p := m.Get(e)
		require.Equal(t, components.PathReady, p.State, "radius %v", tc.radius)
		if tc.radius > 0.5 {
			assert.GreaterOrEqual(t, wallDistance(g, p.Waypoints), tc.radius, "the route keeps the disc off the walls")
		}
		// the route (smoothed or not) crosses row 15 inside the expected gap
		crossed := false
		for i := 1; i < len(p.Waypoints); i++ {
			a, b := g.Center(p.Waypoints[i-1]), g.Center(p.Waypoints[i])
			if (a.Y-15.5)*(b.Y-15.5) <= 0 && a.Y != b.Y {
				x := a.X + (b.X-a.X)*(15.5-a.Y)/(b.Y-a.Y)
				crossed = true
				assert.True(t, x >= float64(tc.gapX[0]) && x <= float64(tc.gapX[1]+1), "radius %v crosses row 15 at x %.2f", tc.radius, x)
			}
		}
		assert.True(t, crossed)
	}
	w, s, _, e := gapWorld(t, 1.6)
	s.Run(w, 3)
	m := paths(w)
	_, p := m.Get(e)
	assert.Equal(t, components.PathUnreachable, p.State, "no gap is wide enough for a radius of 1.6")
	assert.Empty(t, p.Waypoints)
}
