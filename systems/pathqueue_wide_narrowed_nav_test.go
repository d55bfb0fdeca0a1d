package systems_test

import (
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

// A gap on a wide agent's path is narrowed below its width by cells closed beside the
// path, not on it: the queue asks for a new path at once (through the other gap). Before,
// the path was kept, since none of its segments touched a closed cell; the agent (radius
// 1, clearance 2) walked up to the 1-cell gap and stood against it for 4.3 s, until stuck
// detection asked again. A point agent on the same path is not asked (its path still
// fits), and nor is the wide one when a cell beside its path only changes cost.
func TestAGapNarrowedBesideAWidePathRepathsIt(t *testing.T) {
	for _, tc := range []struct {
		name    string
		radius  float64
		smooth  bool
		cost    float32 // of the cells beside the path's gap cell
		repaths bool
	}{
		{"wide", 1, false, grid.Blocked, true},
		{"wide smoothed", 1, true, grid.Blocked, true},
		{"point", 0.3, false, grid.Blocked, false},
		{"wide, a cost only", 1, false, 3, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			// a wall across y = 10 with two 5-cell gaps, x = 10..14 and x = 30..34
			g := grid.New(40, 20)
			for x := int32(0); x < 40; x++ {
				if (x < 10 || x > 14) && (x < 30 || x > 34) {
					g.SetCost(grid.Cell{X: x, Y: 10}, grid.Blocked)
				}
			}
			arche.AddResource(w, g)
			sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: tc.radius}})
			require.NoError(t, err)
			goal := r2.Vec{X: 3.5, Y: 16.5}
			e := sp.Spawn(r2.Vec{X: 3.5, Y: 2.5}, func(a *systems.Spawned) { a.MoveTo(goal) })
			pq := &systems.PathQueue{Smooth: tc.smooth}
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, pq,
				&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
			s.Initialize(w)
			defer s.Finalize(w)
			pm := generic.NewMap2[components.Position, components.Path](w)
			s.Run(w, 30)
			_, path := pm.Get(e)
			require.Equal(t, components.PathReady, path.State)
			gap := grid.Cell{X: -1}
			for _, c := range path.Waypoints {
				if c.Y == 10 {
					gap = c
				}
			}
			require.True(t, gap.X >= 10 && gap.X <= 14, "through the near gap: %v", path.Waypoints)
			// close (or make dear) the cells either side of the path's gap cell
			g.SetCost(grid.Cell{X: gap.X - 1, Y: 10}, tc.cost)
			g.SetCost(grid.Cell{X: gap.X + 1, Y: 10}, tc.cost)
			s.Update(w)
			if !tc.repaths {
				assert.Zero(t, pq.Repathed)
				return
			}
			assert.Equal(t, 1, pq.Repathed, "asked again in the frame after the edit")
			for f := 0; f < 3 && path.State != components.PathReady; f++ {
				s.Update(w)
			}
			_, path = pm.Get(e)
			require.Equal(t, components.PathReady, path.State)
			for _, c := range path.Waypoints {
				if c.Y == 10 {
					assert.GreaterOrEqual(t, c.X, int32(30), "through the far gap: %v", path.Waypoints)
				}
			}
			arrived := false
			for f := 0; f < 1200 && !arrived; f++ {
				s.Update(w)
				p, _ := pm.Get(e)
				arrived = r2.Norm(r2.Sub(p.Vec, goal)) < 0.3
			}
			assert.True(t, arrived, "at its goal within 20 s")
		})
	}
}
