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

// A Mover walking east across an open 64×64 map loses one of the components
// Steer or Movement require mid-run (after 1 s, at full speed). Without
// Desired, Steer cannot steer it and brakes it (Movement integrates the
// braking force, not the last move force): it stops within its braking
// distance, MaxSpeed²/(2·MaxForce) plus a frame's step, and Diagnose still
// counts it as steer_incomplete. Without Kinematics, Velocity or Steering,
// Movement does not move it: it stays where it was.
func TestAMoverThatLosesAComponentMidRunStops(t *testing.T) {
	for _, tc := range []struct {
		name   string
		remove func(w *arche.World) arche.ID
	}{
		{"Desired", arche.ComponentID[components.Desired]},
		{"Kinematics", arche.ComponentID[components.Kinematics]},
		{"Velocity", arche.ComponentID[components.Velocity]},
		{"Steering", arche.ComponentID[components.Steering]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			world := arche.NewWorld()
			arche.AddResource(&world, grid.New(64, 64))
			movers, err := systems.NewSpawner(&world, systems.Mover{})
			require.NoError(t, err)
			e := movers.Spawn(r2.Vec{X: 2.5, Y: 32.5}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 61.5, Y: 32.5}) })
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
				&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
			s.Initialize(&world)
			s.Run(&world, 60)
			pos := generic.NewMap[components.Position](&world)
			at := pos.Get(e).Vec
			d := systems.DefaultMover()
			vel := generic.NewMap[components.Velocity](&world)
			require.InDelta(t, d.MaxSpeed, r2.Norm(vel.Get(e).Vec), 0.3, "walking at full speed")

			world.Remove(e, tc.remove(&world))
			s.Run(&world, 600) // 10 s
			end := pos.Get(e).Vec
			brake := d.MaxSpeed*d.MaxSpeed/(2*d.MaxForce) + 2*d.MaxSpeed/60
			assert.LessOrEqual(t, end.X-at.X, brake, "from x %.2f to %.2f", at.X, end.X)
			assert.InDelta(t, at.Y, end.Y, 1e-9)
			if tc.name == "Desired" {
				assert.Zero(t, r2.Norm(vel.Get(e).Vec), "braked to rest")
			}
			assert.Positive(t, systems.Diagnose(&world).Counts[systems.CauseSteerIncomplete])
		})
	}
}
