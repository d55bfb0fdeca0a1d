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

// An ORCA agent standing idle just beside a one-cell doorway makes way for
// one sent through it: through within 20 s. A braking ORCA agent keeps its
// Bias for this: with the Bias off for braking agents (tried against a
// resting ORCA group's slow spin, README "ORCA local avoidance") the passer
// was stuck for good (found by a reviewer).
func TestAnIdleORCAAgentMakesWayInADoorway(t *testing.T) {
	for _, idle := range []r2.Vec{{X: 21.5, Y: 10.5}, {X: 21.2, Y: 10.5}} {
		world := arche.NewWorld()
		g := grid.New(41, 21)
		for y := int32(0); y < 21; y++ {
			if y != 10 {
				g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
			}
		}
		arche.AddResource(&world, g)
		sp, err := systems.NewSpawner(&world, systems.Mover{Motion: systems.Motion{Avoid: systems.AvoidORCA}})
		require.NoError(t, err)
		sp.Spawn(idle, nil)
		target := r2.Vec{X: 5.5, Y: 10.5}
		passer := sp.Spawn(r2.Vec{X: 35.5, Y: 10.5}, func(s *systems.Spawned) { s.MoveTo(target) })
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{}, &systems.PathFollow{},
			&systems.Steer{}, &systems.ORCA{}, &systems.Movement{})
		require.NoError(t, s.InitializeChecked(&world))
		s.Run(&world, 20*60)
		pos := generic.NewMap[components.Position](&world)
		assert.Less(t, r2.Norm(r2.Sub(pos.Get(passer).Vec, target)), 0.5, "idle at %v: the passer through the door", idle)
		s.Finalize(&world)
	}
}
