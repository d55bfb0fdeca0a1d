package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestDiagnoseCountsAgentsHeadingForAGoalWalledOff: a Mover sent to a
// passable goal that a wall cuts off presses against the wall for good (its
// path is PathUnreachable and PathFollow seeks the goal in a straight line);
// Diagnose used to report nothing (newbie22). It counts it as
// path_unreachable, and not the Mover on the same side of the wall.
func TestDiagnoseCountsAgentsHeadingForAGoalWalledOff(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(30, 15)
	for y := int32(0); y < 15; y++ {
		g.SetCost(grid.Cell{X: 15, Y: y}, grid.Blocked)
	}
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	cut := sp.Spawn(r2.Vec{X: 3.5, Y: 7.5}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 27.5, Y: 7.5}) })
	sp.Spawn(r2.Vec{X: 3.5, Y: 3.5}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 10.5, Y: 3.5}) })
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/30), &systems.Spatial{}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 120)
	r := systems.Diagnose(w)
	require.Equal(t, 1, r.Counts[systems.CausePathUnreachable], "%s", r)
	require.Equal(t, cut, r.Examples[systems.CausePathUnreachable])
	require.Contains(t, r.String(), "path_unreachable")
}
