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
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestTargetIsSeenAndWellSetUp (newbie22): an intruder that only needs to be seen
// and struck, spawned as a Mover with a Combatant, was counted as
// perception_incomplete (a Combatant perceives, and perceiving needs a Think).
// A Target is seen by a guard's Perception and counts as well set up.
func TestTargetIsSeenAndWellSetUp(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(20, 20))
	targets, err := systems.NewSpawner(w, systems.Mover{}, systems.Target{Team: 2, MaxHealth: 30})
	require.NoError(t, err)
	intruder := targets.Spawn(r2.Vec{X: 10.5, Y: 10.5}, nil)
	watchers, err := systems.NewSpawner(w, systems.Combatant{Team: 1}, systems.With(components.Think{Interval: 0.1}))
	require.NoError(t, err)
	guard := watchers.Spawn(r2.Vec{X: 6.5, Y: 10.5}, nil)
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Perception{},
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 12)
	healths := generic.NewMap[components.Health](w)
	percs := generic.NewMap[components.Perception](w)
	assert.Equal(t, components.Health{Current: 30, Max: 30}, *healths.Get(intruder))
	assert.Equal(t, intruder, percs.Get(guard).Target, "the guard sees it")
	r := systems.Diagnose(w)
	assert.Zero(t, r.Total(), "%s", r)

	_, err = systems.NewSpawner(w, systems.Combatant{}, systems.Target{})
	assert.ErrorContains(t, err, "Faction", "a Combatant is a target already")
	_, err = systems.NewSpawner(w, systems.Target{MaxHealth: -1})
	assert.Error(t, err)
}

// A player's avatar, moved by the program, that the guards see and strike.
func ExampleTarget() {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	players, err := systems.NewSpawner(w, systems.Target{Team: 2, MaxHealth: 50})
	if err != nil {
		panic(err)
	}
	player := players.Spawn(r2.Vec{X: 8.5, Y: 8.5}, nil)
	healths := generic.NewMap[components.Health](w)
	fmt.Println(*healths.Get(player))
	r := systems.Diagnose(w)
	fmt.Println(r.Total())
	// Output:
	// {50 50}
	// 0
}
