package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A default Mover fleeing a fixed point in a walled room (32², walls all
// round) slides along the wall it meets and comes to rest in the corner,
// its disc touching both walls (steer_cornered.go). Before, it pushed into
// the corner at full force while its wall feelers pushed it back, and shook
// there for good at 0.15–0.26 cells/s.
func TestAFleeingMoverRestsInTheCorner(t *testing.T) {
	for _, c := range []struct {
		name  string
		start r2.Vec
		mode  components.IntentMode
	}{
		{"flee, diagonal", r2.Vec{X: 20, Y: 20}, components.IntentFlee},
		{"flee, sliding along a wall", r2.Vec{X: 18, Y: 28}, components.IntentFlee},
		{"evade, sliding along a wall", r2.Vec{X: 18, Y: 28}, components.IntentEvade},
	} {
		t.Run(c.name, func(t *testing.T) {
			world := arche.NewWorld()
			g := grid.New(32, 32)
			for i := range int32(32) {
				for _, cell := range []grid.Cell{{X: i, Y: 0}, {X: i, Y: 31}, {X: 0, Y: i}, {X: 31, Y: i}} {
					g.SetCost(cell, grid.Blocked)
				}
			}
			arche.AddResource(&world, g)
			sp, err := systems.NewSpawner(&world, systems.Mover{})
			require.NoError(t, err)
			e := sp.Spawn(c.start, func(a *systems.Spawned) {
				a.Intent.Mode, a.Intent.Point = c.mode, r2.Vec{X: 16, Y: 16}
			})
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
				&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
			require.NoError(t, s.InitializeChecked(&world))
			defer s.Finalize(&world)
			pos, vel := generic.NewMap[components.Position](&world), generic.NewMap[components.Velocity](&world)
			for f := range 30 * 60 {
				s.Update(&world)
				p := pos.Get(e).Vec
				require.True(t, g.Passable(g.CellAt(p)), "frame %d: in a wall at %v", f, p)
			}
			require.LessOrEqual(t, r2.Norm(vel.Get(e).Vec), 1e-4, "still moving after 30 s (cells/s)")
			// its disc (radius 0.3) against both walls: its centre within the
			// 0.05 cells where the flight stops pressing, or a little past
			require.InDelta(t, 30.68, pos.Get(e).X, 0.04, "its disc against the wall x = 31")
			require.InDelta(t, 30.68, pos.Get(e).Y, 0.04, "its disc against the wall y = 31")
		})
	}
}
