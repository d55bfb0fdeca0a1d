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

// modeWorld returns a world of one Mover at (5.5, 5.5), moving at 2 cells/s towards
// +x, sent to (15.5, 5.5), after spoil, and its scheduler (initialized).
// get returns e's C.
func get[C any](w *arche.World, e arche.Entity) *C {
	m := generic.NewMap1[C](w)
	return m.Get(e)
}

func modeWorld(t *testing.T, spoil func(a *systems.Spawned)) (*arche.World, arche.Entity, *ecs.Scheduler) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	g := grid.New(20, 20)
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{MaxSpeed: 2, Separation: -1, Wall: -1}})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 5.5, Y: 5.5}, func(a *systems.Spawned) {
		*a.Intent = components.Intent{Move: true, Goal: r2.Vec{X: 15.5, Y: 5.5}}
		a.Velocity.Vec = r2.Vec{X: 2}
		spoil(a)
	})
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
		&systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1}, &systems.Movement{})
	s.Initialize(w)
	return w, e, s
}

// An Intent.Mode past IntentEvade is no move intent: the agent brakes to a stop
// where it is rather than walk to its Goal (it did, as IntentGo, before), and
// Diagnose names the field and the value.
func TestIntentModeInvalidBrakesAndIsCounted(t *testing.T) {
	w, e, s := modeWorld(t, func(a *systems.Spawned) { a.Intent.Mode = components.IntentEvade + 1 })
	r := systems.Diagnose(w)
	assert.Equal(t, 1, r.Counts[systems.CauseModeInvalid], "%s", r)
	assert.Contains(t, r.String(), "Intent.Mode 4 is no IntentMode (IntentGo 0 to IntentEvade 3): PathFollow takes it as no move intent")
	s.Run(w, 120)
	pos, vel := get[components.Position](w, e), get[components.Velocity](w, e)
	assert.Equal(t, r2.Vec{}, vel.Vec, "braked to a stop")
	assert.Less(t, pos.X, 7.0, "stopped near where it was, not walked to x 15.5")
	assert.Equal(t, components.Desired{}, *get[components.Desired](w, e))
	s.Finalize(w)

	// with a known Mode, the same agent walks to its goal
	w, e, s = modeWorld(t, func(*systems.Spawned) {})
	s.Run(w, 600)
	assert.InDelta(t, 15.5, get[components.Position](w, e).X, 0.2)
	assert.Equal(t, 0, systems.Diagnose(w).Counts[systems.CauseModeInvalid])
	s.Finalize(w)
}

// A Desired.Mode past DesiredHold: Diagnose counts it; PathFollow writes the
// agent's Desired again in its next Update.
func TestDesiredModeInvalidIsCounted(t *testing.T) {
	w, e, s := modeWorld(t, func(a *systems.Spawned) { a.Desired.Mode = 200 })
	r := systems.Diagnose(w)
	assert.Equal(t, 1, r.Counts[systems.CauseModeInvalid], "%s", r)
	assert.Contains(t, r.String(), "Desired.Mode 200 is no DesiredMode (DesiredNone 0 to DesiredHold 8): Steer brakes the agent")
	s.Update(w)
	assert.Equal(t, components.DesiredArrive, get[components.Desired](w, e).Mode)
	assert.Equal(t, 0, systems.Diagnose(w).Counts[systems.CauseModeInvalid])
	s.Finalize(w)
}

// Steer brakes an agent whose Desired.Mode is no mode, as for DesiredStop.
func TestSteerBrakesOnDesiredModeInvalid(t *testing.T) {
	force := func(m components.DesiredMode) r2.Vec {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(20, 20))
		sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{MaxSpeed: 2, Separation: -1, Wall: -1}})
		require.NoError(t, err)
		e := sp.Spawn(r2.Vec{X: 5.5, Y: 5.5}, func(a *systems.Spawned) {
			a.Velocity.Vec = r2.Vec{X: 1}
			*a.Desired = components.Desired{Mode: m, Point: r2.Vec{X: 15.5, Y: 5.5}}
		})
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Steer{Workers: 1})
		s.Initialize(w)
		s.Update(w)
		s.Finalize(w)
		return get[components.Steering](w, e).Force
	}
	stop := force(components.DesiredStop)
	require.Less(t, stop.X, 0.0, "a brake")
	for _, m := range []components.DesiredMode{components.DesiredHold + 1, 255} {
		assert.Equal(t, stop, force(m), "mode %d", m)
	}
}

// A Path.State past PathUnreachable is read, and set, as PathNone: the agent,
// its goal out of sight, asks for a path and follows it. (Before, held for its
// goal's cell, it was taken as a path not ready: the agent sought its goal
// straight, into the wall, and never asked.)
func TestPathStateInvalidReadAsNone(t *testing.T) {
	w, e, s := modeWorld(t, func(a *systems.Spawned) { a.Path.State, a.Path.Goal = 9, grid.Cell{X: 15, Y: 5} })
	g := ecs.Resource[grid.Grid](w)
	for y := range int32(19) {
		g.SetCost(grid.Cell{X: 10, Y: y}, grid.Blocked) // a wall between agent and goal, open at y = 19
	}
	assert.Equal(t, 1, systems.Diagnose(w).Counts[systems.CauseModeInvalid])
	s.Update(w)
	p := get[components.Path](w, e)
	assert.Equal(t, components.PathNone, p.State)
	assert.True(t, p.Want, "asked for a path")
	s.Run(w, 30)
	assert.Equal(t, components.PathReady, p.State)
	assert.Equal(t, 0, systems.Diagnose(w).Counts[systems.CauseModeInvalid])
	s.Finalize(w)
}
