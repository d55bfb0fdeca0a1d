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

// An entity of another world (a program variable kept across a level restart on a new
// world: the old level's player) named by user data: Combat panicked with Arche's
// "index out of range [500] with length 2" for an Intent.Attack, Diagnose for an
// Intent.Target (and left the world locked), Commands.RemoveEntity in Apply. Such an
// entity is now a dead one: no strike, the pursuer brakes, nothing is removed,
// Respawn says so.
func TestEntityOfAnotherWorldIsADeadOne(t *testing.T) {
	old := arche.NewWorld()
	var foreign arche.Entity
	for range 500 {
		foreign = old.NewEntity()
	}
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Combatant{})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 3, Y: 3}, nil)
	other := sp.Spawn(r2.Vec{X: 4, Y: 3}, nil)
	in := generic.NewMap[components.Intent](w)
	combat := &systems.Combat{}
	sched := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, combat, &systems.PathFollow{},
		&systems.Steer{}, &systems.Movement{})
	sched.Initialize(w)
	defer sched.Finalize(w)

	in.Get(e).Attack = foreign
	sched.Run(w, 1)
	assert.Zero(t, combat.Strikes)
	assert.True(t, in.Get(e).Attack.IsZero(), "the request is used up, as for a dead target")

	*in.Get(e) = components.Intent{Mode: components.IntentPursue, Target: foreign}
	r := systems.Diagnose(w)
	assert.Zero(t, r.Counts[systems.CauseTargetUnusable], "a dead target is not counted: %s", r)
	assert.False(t, w.IsLocked())
	sched.Run(w, 5)
	vel := generic.NewMap[components.Velocity](w)
	assert.Equal(t, r2.Vec{}, vel.Get(e).Vec, "no target: it brakes, standing")

	var cmds ecs.Commands
	cmds.RemoveEntity(foreign)
	cmds.RemoveEntity(other)
	cmds.Apply(w)
	assert.False(t, w.Alive(other), "the commands after it are applied")
	assert.True(t, w.Alive(e))

	err = sp.Respawn(foreign, r2.Vec{X: 5, Y: 5}, nil)
	assert.ErrorContains(t, err, "entity 500 is dead (or not of this spawner's world)")
	sp.Recycle(foreign) // ignored, as a dead one
}
