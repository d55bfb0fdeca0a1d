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

	// the radius the goal's clearance admits, not always 0.5 (a newcomer's radius-8 unit
	// was told 0.5): cell (5, 5) of the 10×10 grid has clearance 5, which admits 4.5
	compOf[components.Kinematics](w, e).Radius = 8
	*compOf[components.Path](w, e) = components.Path{Want: true, Goal: grid.Cell{X: 5, Y: 5}}
	r = Diagnose(w)
	assert.Contains(t, r.String(), "path goal cell (5, 5) of clearance 5 (grid.Clearance), under the 9 its radius 8 needs "+
		"(grid.ClearanceFor): move the goal away from the walls, or give the agent a radius of at most 4.5)", "%s", r)
}
