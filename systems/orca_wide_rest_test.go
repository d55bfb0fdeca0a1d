package systems_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Wide ORCA Movers (radius over 0.5: tanks of an RTS) sent to one point settle
// about it (Desired Hold) and then stand still. Before, ORCA treated a held agent
// as one still on its way: the Bias stayed on and its braking force was read as a
// way to go, so every held tank swapped its velocity's direction each step for
// good, about 0.17 cells/s at MaxForce, in place (a newcomer's RTS: two tanks of
// radius 0.9 at one point, never at rest, and no finding).
func TestWideORCAMoversSharingAPointComeToRest(t *testing.T) {
	for _, tc := range []struct {
		n      int
		radius float64
	}{{2, 0.9}, {6, 0.9}, {6, 0.6}} {
		t.Run(fmt.Sprintf("%d radius %.1f", tc.n, tc.radius), func(t *testing.T) {
			w := arche.NewWorld()
			arche.AddResource(&w, grid.New(64, 64))
			sp, err := systems.NewSpawner(&w, systems.Mover{Motion: systems.Motion{Radius: tc.radius, Avoid: systems.AvoidORCA}})
			require.NoError(t, err)
			goal := r2.Vec{X: 32.5, Y: 32.5}
			for i := range tc.n {
				sp.Spawn(r2.Vec{X: 4.5, Y: 8.5 + 6*float64(i)}, func(a *systems.Spawned) { a.MoveTo(goal) })
			}
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
				&systems.PathFollow{}, &systems.Steer{}, &systems.ORCA{}, &systems.Movement{})
			require.NoError(t, s.InitializeChecked(&w))
			defer s.Finalize(&w)
			s.Run(&w, 40*60)
			q := generic.NewFilter3[components.Position, components.Velocity, components.Desired]().Query(&w)
			for q.Next() {
				p, v, d := q.Get()
				require.Equal(t, components.DesiredHold, d.Mode, "entity %v settled about the point", q.Entity())
				require.LessOrEqual(t, r2.Norm(r2.Sub(p.Vec, goal)), 6.0, "entity %v near the point", q.Entity())
				require.LessOrEqual(t, r2.Norm(v.Vec), 1e-6, "entity %v still moving after 40 s (cells/s)", q.Entity())
			}
			vel := generic.NewMap[components.Velocity](&w)
			q = generic.NewFilter3[components.Position, components.Velocity, components.Desired]().Query(&w)
			var es []arche.Entity
			for q.Next() {
				es = append(es, q.Entity())
			}
			for range 60 { // and stays so, frame by frame
				s.Update(&w)
				for _, e := range es {
					require.LessOrEqual(t, r2.Norm(vel.Get(e).Vec), 1e-6, "entity %v moves again", e)
				}
			}
			r := systems.Diagnose(&w)
			require.Zero(t, r.Total(), "%s", r)
		})
	}
}
