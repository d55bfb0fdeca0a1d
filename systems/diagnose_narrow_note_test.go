package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
)

// path_goal_too_narrow printed only "(e.g. entity 1)": no cell, no clearance, no
// radius, where the other goal causes name their cell. It names the path goal's cell,
// its clearance, the clearance the agent's radius needs and the radius, and the fix.
func TestReportStringNamesTheNarrowGoalCellAndRadius(t *testing.T) {
	w, _ := newWorld(10, 10)
	e := goodAgent(t, w)
	compOf[components.Kinematics](w, e).Radius = 1.2
	drop[components.FlowFollower](w, e)
	*compOf[components.Path](w, e) = components.Path{Want: true, Goal: grid.Cell{X: 9, Y: 8}}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Perception{}, &Decision{})
	s.Initialize(w)
	defer s.Finalize(w)
	r := Diagnose(w)
	assert.Equal(t, 1, r.Counts[CausePathGoalNarrow], "%s", r)
	assert.Contains(t, r.String(), "path_goal_too_narrow 1 (e.g. entity 1, path goal cell (9, 8) of clearance 1 (grid.Clearance), "+
		"under the 2 its radius 1.2 needs (grid.ClearanceFor): move the goal away from the walls, or give the agent a radius of at most 0.5)")
}
