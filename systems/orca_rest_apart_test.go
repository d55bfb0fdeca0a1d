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

// ORCA Movers (radius 0.3) sent to points of their own, gap cells apart
// (wider than their diameter, 0.6), come to rest on them. n agents walk 25
// cells side by side (across: the goals lie across the way, as the agents
// started) or one behind the other (along), and after 20 s none may move
// faster than 0.01 cells/s over the last second, each within 0.01 cells of its
// goal. Before, two side by side 1 cell apart arrived within 0.005 cells but
// swapped their velocity's sign every frame at 0.18 cells/s for good (5 at up
// to 0.44; every case here moved at 0.29 to 0.43 in the last second): an
// arriving agent's desired velocity (orca.Agent.Desired, what the Bias turns)
// was its Arrive force, which reaches its target within the step, kept up for
// MaxSpeed/MaxForce seconds (12 steps), so the Bias aimed it at 11 times its
// velocity backwards, turned (found by a newcomer).
func TestORCAMoversAtGoalsOfTheirOwnComeToRest(t *testing.T) {
	for _, c := range []struct {
		n     int
		gap   float64
		along bool
	}{{2, 1, false}, {5, 1, false}, {3, 0.7, false}, {3, 2, false}, {2, 1, true}, {4, 1.5, true}} {
		t.Run(fmt.Sprintf("n%d_gap%v_along%v", c.n, c.gap, c.along), func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			arche.AddResource(w, grid.New(64, 64))
			sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Avoid: systems.AvoidORCA}})
			require.NoError(t, err)
			es := make([]arche.Entity, c.n)
			goals := make([]r2.Vec, c.n)
			for i := range c.n {
				off := c.gap * float64(i)
				start, goal := r2.Vec{X: 5.5, Y: 20.5 + off}, r2.Vec{X: 30.5, Y: 20.5 + off}
				if c.along {
					start, goal = r2.Vec{X: 5.5 - off, Y: 20.5}, r2.Vec{X: 30.5 - off, Y: 20.5}
				}
				goals[i] = goal
				es[i] = sp.Spawn(start, func(s *systems.Spawned) { s.MoveTo(goal) })
			}
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
				&systems.PathFollow{}, &systems.Steer{}, &systems.ORCA{}, &systems.Movement{})
			require.NoError(t, s.InitializeChecked(w))
			defer s.Finalize(w)
			s.Run(w, 19*60)
			pm, vm := generic.NewMap1[components.Position](w), generic.NewMap1[components.Velocity](w)
			fastest := make([]float64, c.n)
			for range 60 {
				s.Update(w)
				for i, e := range es {
					fastest[i] = max(fastest[i], r2.Norm(vm.Get(e).Vec))
				}
			}
			for i, e := range es {
				require.Less(t, fastest[i], 0.01, "agent %d: speed in the last second (cells/s)", i)
				require.Less(t, r2.Norm(r2.Sub(pm.Get(e).Vec, goals[i])), 0.01, "agent %d: from its goal (cells)", i)
			}
		})
	}
}
