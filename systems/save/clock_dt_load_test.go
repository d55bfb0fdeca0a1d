package save_test

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A game with a variable step saved after a frame of 0.5 s (a hitch) and loaded under a
// ClockSystem of 1/60: the loaded Clock is the saved one, DT 0.5 included, so
// StateHash right after Restore equals the saved world's (as Loaded.Restore promises)
// and Time+DT is the time that has passed, as in the unbroken run. The new
// ClockSystem's Initialize overwrote DT with its own step (found by a newcomer's
// tower-defense run: hash 8af66c66… at load against afff8504… saved; elapsed time
// 6.017 s against 6.5 s).
func TestLoadKeepsTheLastFramesStepUnderAnotherClockSystem(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	sp, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 12.5, Y: 9.5}) })
	clock := ecs.NewClockSystem(1.0 / 60)
	pq := &systems.PathQueue{}
	s := ecs.NewScheduler(clock, &systems.Spatial{}, pq, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	s.Run(w, 30)
	clock.DT = 0.5 // a hitch
	s.Run(w, 1)
	saved := *ecs.ClockOf(w)
	require.Equal(t, 0.5, saved.DT)
	data, err := save.Save(w, nil, pq)
	require.NoError(t, err)
	hash := systems.StateHash(w)

	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	arche.AddResource(l.World, grid.New(16, 16))
	clock2 := ecs.NewClockSystem(1.0 / 60)
	pq2 := &systems.PathQueue{}
	s2 := ecs.NewScheduler(clock2, &systems.Spatial{}, pq2, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s2.Initialize(l.World)
	require.NoError(t, l.Restore(pq2))
	assert.Equal(t, saved, *ecs.ClockOf(l.World))
	assert.Equal(t, 0.5, ecs.ClockOf(l.World).DT)
	assert.Equal(t, hash, systems.StateHash(l.World))

	// both go on at 1/60 from where the hitch ended, and stay equal
	clock.DT = 1.0 / 60
	s.Run(w, 20)
	s2.Run(l.World, 20)
	assert.Equal(t, *ecs.ClockOf(w), *ecs.ClockOf(l.World))
	assert.InDelta(t, saved.Time+0.5+19.0/60, ecs.ClockOf(l.World).Time, 1e-12) // a sum of steps: rounds
	assert.Equal(t, systems.StateHash(w), systems.StateHash(l.World))
}
