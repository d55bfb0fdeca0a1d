package systems_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A swarm whose goal becomes unusable (sent off the grid or into a wall with
// SetFlowGoal, or its goal cell walled over) stops where it is, in whole-grid
// and sector mode alike: it switches to the goal at once (Active = Goal, no
// field to wait for), has no Aim (Steer false; after a grid edit, once the
// FlowField's Hold frames are over) and comes to rest within 2 s, and
// Diagnose names every one of them (flow_goal_unusable), as
// FlowFollower's doc says. A newcomer's tower-defense game found the
// behaviour undocumented.
func TestASwarmWhoseGoalBecomesUnusableStopsAndIsReported(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"sent off the grid", "goal walled over", "sent into a wall"} {
		for _, sectors := range []int{0, 16} {
			t.Run(fmt.Sprintf("%s, sectors %d", mode, sectors), func(t *testing.T) {
				world := arche.NewWorld()
				w := &world
				g := grid.New(64, 64)
				arche.AddResource(w, g)
				goal := grid.Cell{X: 50, Y: 50}
				sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal})
				require.NoError(t, err)
				var es []arche.Entity
				for i := range 10 {
					es = append(es, sp.Spawn(r2.Vec{X: 5.5 + 2*float64(i), Y: 5.5}, nil))
				}
				s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.FlowField{Sectors: sectors},
					&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
				require.NoError(t, s.InitializeChecked(w))
				defer s.Finalize(w)
				s.Run(w, 60)
				to := goal
				switch mode {
				case "sent off the grid":
					to = grid.Cell{X: 500, Y: 5}
					require.Equal(t, 10, systems.SetFlowGoal(w, goal, to))
				case "goal walled over":
					g.SetCost(goal, grid.Blocked)
				case "sent into a wall":
					to = grid.Cell{X: 10, Y: 50}
					g.SetCost(to, grid.Blocked)
					require.Equal(t, 10, systems.SetFlowGoal(w, goal, to))
				}
				s.Run(w, 120)
				for _, e := range es {
					ff := (*components.FlowFollower)(w.Get(e, arche.ComponentID[components.FlowFollower](w)))
					vel := (*components.Velocity)(w.Get(e, arche.ComponentID[components.Velocity](w)))
					require.Equal(t, to, ff.Active, "switched at once")
					require.False(t, ff.Steer, "no Aim")
					require.Less(t, r2.Norm(vel.Vec), 0.02, "at rest within 2 s (but for the crowd's own small pushes)")
				}
				rep := systems.Diagnose(w)
				require.Equal(t, 10, rep.Counts[systems.CauseFlowGoal], rep.String())
			})
		}
	}
}
