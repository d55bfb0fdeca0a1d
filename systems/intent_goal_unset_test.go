package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
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

// goalRun spawns one Mover at (8.5, 8.5) on a 16² grid (with a border if walled)
// whose tree sets its Intent with set (nil: never touches it), runs frames frames
// and returns its position and the report.
func goalRun(t *testing.T, walled bool, set func(a *systems.Agent), frames int) (r2.Vec, systems.Report) {
	t.Helper()
	g := grid.New(16, 16)
	if walled {
		for i := int32(0); i < 16; i++ {
			for _, c := range []grid.Cell{{X: i, Y: 0}, {X: i, Y: 15}, {X: 0, Y: i}, {X: 15, Y: i}} {
				g.SetCost(c, grid.Blocked)
			}
		}
	}
	w := arche.NewWorld()
	arche.AddResource(&w, g)
	tree, err := bt.Compile("order", bt.Action("follow", func(c *bt.Context) bt.Status {
		if set != nil {
			set(systems.AgentOf(c))
		}
		return bt.Running
	}))
	require.NoError(t, err)
	sp, err := systems.NewSpawner(&w, systems.Mover{}, systems.Thinker{Tree: tree})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 8.5, Y: 8.5}, nil)
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Decision{},
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(&w)
	s.Run(&w, frames)
	r := systems.Diagnose(&w)
	s.Finalize(&w)
	m := generic.NewMap1[components.Position](&w)
	return m.Get(e).Vec, r
}

// newbie21's units read an order that had not arrived yet, (0, 0), as their goal and
// walked to the map's corner. The zero Intent is no goal (Move false): the agent
// stands and nothing is reported. Move with the zero Goal walks to the corner, as
// any goal would, and Diagnose now names it goal_unset (it used to say nothing on a
// map without a border, and goal_unusable with one); the corner cell's centre
// (0.5, 0.5), a goal someone means, is not counted.
func TestIntentGoalNotSetYet(t *testing.T) {
	start := r2.Vec{X: 8.5, Y: 8.5}

	pos, r := goalRun(t, false, nil, 180)
	assert.Equal(t, start, pos, "the zero Intent moved the agent")
	assert.Zero(t, r.Total(), "%s", r)

	unset := func(a *systems.Agent) { a.Intent.Move = true } // Goal left (0, 0)
	pos, r = goalRun(t, false, unset, 600)
	assert.Less(t, r2.Norm(pos), 1.0, "Move with the zero Goal walks to the corner: at %v", pos)
	assert.Equal(t, 1, r.Counts[systems.CauseGoalUnset], "%s", r)
	assert.Equal(t, 1, r.Total(), "%s", r)
	assert.Contains(t, r.String(), "goal_unset 1 (e.g. entity 1, goal (0, 0), the zero Goal: set Intent.Goal before Move)")

	_, r = goalRun(t, true, unset, 60)
	assert.Equal(t, 1, r.Counts[systems.CauseGoalUnset], "%s", r)
	assert.Zero(t, r.Counts[systems.CauseGoalUnusable], "one fault, one finding: %s", r)
	assert.Equal(t, 1, r.Total(), "%s", r)

	corner := func(a *systems.Agent) { a.Intent.Move, a.Intent.Goal = true, r2.Vec{X: 0.5, Y: 0.5} }
	pos, r = goalRun(t, false, corner, 600)
	assert.Less(t, r2.Norm(r2.Sub(pos, r2.Vec{X: 0.5, Y: 0.5})), 0.5, "at %v", pos)
	assert.Zero(t, r.Total(), "a goal meant for the corner: %s", r)
}
