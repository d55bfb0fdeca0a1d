package systems

import (
	"io"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A Path asked for directly (Path.Want, no move intent) for a cell off the grid or in a
// wall is answered PathUnreachable in the frame it is asked, and Diagnose still counts
// it as path_goal_unusable once answered, both after the frames and in the frame's own
// Diagnostics; a goal that can be reached is not counted.
func TestDirectPathToAnUnusableGoalIsReportedOnceAnswered(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(32, 32)
	g.SetCost(grid.Cell{X: 10, Y: 10}, grid.Blocked)
	arche.AddResource(w, g)
	sp, err := NewSpawner(w, Mover{})
	require.NoError(t, err)
	goals := []grid.Cell{{X: 40, Y: 4}, {X: -3, Y: 4}, {X: 10, Y: 10}, {X: 20, Y: 20}}
	var es []arche.Entity
	for i, gc := range goals {
		es = append(es, sp.Spawn(r2.Vec{X: 2.5, Y: 2.5 + float64(i)}, func(a *Spawned) {
			a.Path.Want, a.Path.Goal = true, gc
		}))
	}
	diag := &Diagnostics{Every: 1, Out: io.Discard}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{}, diag)
	require.NoError(t, s.InitializeChecked(w))
	s.Run(w, 3)
	pm := generic.NewMap[components.Path](w)
	for i, e := range es[:3] {
		assert.Equal(t, components.PathUnreachable, pm.Get(e).State, goals[i])
		assert.False(t, pm.Get(e).Want)
	}
	assert.Equal(t, components.PathReady, pm.Get(es[3]).State)
	agents, r := DiagnoseAgents(w, CausePathGoal)
	assert.ElementsMatch(t, es[:3], agents)
	assert.Equal(t, 3, r.Counts[CausePathGoal], r.String())
	assert.Equal(t, 3, r.Misconfigured, r.String())
	assert.Equal(t, 3, diag.Report.Counts[CausePathGoal], "the frame's Diagnostics counts them too")
}
