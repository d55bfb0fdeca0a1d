package systems_test

import (
	"io"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Newcomer finding (a heist game, 10,000 guards sent to one alarm point): guards
// waiting for their paths (PathPending, the queue's Budget starved) seek the goal
// straight and stood pressed against a wall a little apart, each counted as
// held_off_goal with the advice to shrink SeparationRadius, which would change
// nothing: the wait is paths_waiting_long's, as for blocked_by_agents.
func TestAgentsWaitingForAPathAreNotHeldOff(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(200, 200)
	for y := range 199 {
		g.SetCost(grid.Cell{X: 20, Y: int32(y)}, grid.Blocked) // a wall, open at its far end
	}
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	for i := range 6 {
		sp.Spawn(r2.Vec{X: 18.5, Y: 100 + 0.88*float64(i)}, func(a *systems.Spawned) {
			a.MoveTo(r2.Vec{X: 22.5, Y: 100 + 0.88*float64(i)})
		})
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{Workers: 1}, &systems.PathQueue{Budget: 5},
		&systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1}, &systems.Movement{Workers: 1}, &systems.Diagnostics{Out: io.Discard})
	require.NoError(t, s.InitializeChecked(w))
	t.Cleanup(func() { s.Finalize(w) })
	s.Run(w, 60*25)
	r := systems.Diagnose(w)
	require.Positive(t, r.PathsWaitingLong, "they wait for their paths: %s", r)
	assert.Zero(t, r.Counts[systems.CauseHeldOffGoal], "%s", r)
}
