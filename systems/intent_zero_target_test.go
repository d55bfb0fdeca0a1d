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

// The trap components.Intent's doc warns of: a guard's leaf copies Perception.Target
// into Intent.Target after the foe went out of sight. Perception.Target is then the
// zero Entity, which as an Intent.Target means Intent.Point, (0, 0): the guard runs to
// the grid's corner.
func TestPursuingALostPerceptionTargetHeadsForTheGridCorner(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(32, 32)
	for y := range int32(32) {
		g.SetCost(grid.Cell{X: 16, Y: y}, grid.Blocked) // the foe will be behind this wall
	}
	arche.AddResource(w, g)
	chase := bt.Action("Chase", func(c *bt.Context) bt.Status {
		a := systems.AgentOf(c)
		a.Intent.Mode, a.Intent.Target = components.IntentPursue, a.Perception.Target // Visible not checked
		return bt.Running
	})
	tree, err := bt.Compile("chaser", chase)
	require.NoError(t, err)
	guards, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree}, systems.Combatant{Team: 1})
	require.NoError(t, err)
	foes, err := systems.NewSpawner(w, systems.Mover{}, systems.Combatant{Team: 2})
	require.NoError(t, err)
	guard := guards.Spawn(r2.Vec{X: 12.5, Y: 20.5}, nil)
	foe := foes.Spawn(r2.Vec{X: 20.5, Y: 20.5}, nil) // behind the wall: never visible

	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Perception{},
		&systems.Decision{}, &systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 600)

	pm := generic.NewMap1[components.Position](w)
	per := generic.NewMap1[components.Perception](w)
	in := generic.NewMap1[components.Intent](w)
	p := per.Get(guard)
	assert.False(t, p.Visible)
	assert.True(t, p.Target.IsZero(), "Perception.Target is the zero Entity while not Visible")
	assert.True(t, in.Get(guard).Target.IsZero())
	assert.Less(t, r2.Norm(pm.Get(guard).Vec), 1.0, "the guard went to the corner (0, 0): %v", pm.Get(guard).Vec)
	assert.Equal(t, r2.Vec{X: 20.5, Y: 20.5}, pm.Get(foe).Vec)
}
