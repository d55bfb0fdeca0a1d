package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A newcomer's wide courier (radius 7.5) on the first program's map was told
// path_goal_too_narrow: "move the goal away from the walls, or give the agent a radius of
// at most 3.5". Moving the goal did not help: the only way past the wall is a gap of 14
// cells (clearance 7), under the 8 its disc needs, and the agent stood where it was.
// When no route its disc fits leads to the point beside the goal, the note says so and
// gives only the radius that has a route and fits at the goal (with a route, the old
// advice stands: TestReportStringNamesTheNarrowGoalCellAndRadius).
func TestNarrowGoalNoteSaysWhenNoRouteLeadsBesideIt(t *testing.T) {
	note := func(t *testing.T, radius float64, wallTo int32) string {
		world := arche.NewWorld()
		w := &world
		g := grid.New(64, 64)
		for y := range wallTo {
			g.SetCost(grid.Cell{X: 30, Y: y}, grid.Blocked)
		}
		arche.AddResource(w, g)
		goal := r2.Vec{X: 60.5, Y: 10.5} // clearance 4: 4 cells from the map's edge
		tree, err := bt.Compile("courier", bt.Action("WalkToGoal", func(c *bt.Context) bt.Status {
			in := systems.AgentOf(c).Intent
			in.Move, in.Goal = true, goal
			return bt.Running
		}))
		require.NoError(t, err)
		sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: radius}}, systems.Thinker{Tree: tree})
		require.NoError(t, err)
		sp.Spawn(r2.Vec{X: 12.5, Y: 30.5}, nil)
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Decision{},
			&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
		require.NoError(t, s.InitializeChecked(w))
		defer s.Finalize(w)
		s.Run(w, 60)
		r := systems.Diagnose(w)
		require.Equal(t, 1, r.Counts[systems.CausePathGoalNarrow], "%s", r)
		return r.String()
	}
	assert.Contains(t, note(t, 7.5, 50), "path goal cell (60, 10) of clearance 4 (grid.Clearance), "+
		"under the 8 its radius 7.5 needs (grid.ClearanceFor), and no route its disc fits leads beside it (its routes "+
		"need gaps of 15 cells): give the agent a radius of at most 3.5)")
	// a gap of 3 cells (clearance 2): the radius the route admits, under the goal's 3.5
	assert.Contains(t, note(t, 7.5, 61), "and no route its disc fits leads beside it (its routes "+
		"need gaps of 15 cells): give the agent a radius of at most 1.5)")
}
