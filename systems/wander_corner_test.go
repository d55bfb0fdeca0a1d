package systems_test

import (
	"math"
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

// TestAWandererDoesNotParkInACorner: a Wanderer's target lies ahead along
// its heading, +x when it stands still, so one that came to rest in the
// corner (63.7, 0.3) of an empty 64×64 map (a newcomer's colony raider, top
// speed 3, seed 4) pushed into the east edge whatever its wander angle and
// stood there at speed 0 for 77 s. At rest against a wall it now wanders from
// the direction away from the wall: over 5 minutes, on ten seeds, it never
// stands (under 0.05 cells/s) for a second.
func TestAWandererDoesNotParkInACorner(t *testing.T) {
	t.Parallel() // its own worlds; 300 s of simulation for each of 10 seeds
	for seed := uint64(1); seed <= 10; seed++ {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(64, 64))
		sp, err := systems.NewSpawner(w, systems.Wanderer{Motion: systems.Motion{MaxSpeed: 3}})
		require.NoError(t, err)
		sp.Seed = seed
		e := sp.Spawn(r2.Vec{X: 32.5, Y: 32.5}, nil)
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
			&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
		s.Initialize(w)
		vel := generic.NewMap[components.Velocity](w)
		pos := generic.NewMap[components.Position](w)
		still, longest := 0, 0
		var at r2.Vec
		for range 300 * 60 {
			s.Run(w, 1)
			if v := vel.Get(e); math.Hypot(v.X, v.Y) < 0.05 {
				still++
				if still > longest {
					longest, at = still, pos.Get(e).Vec
				}
			} else {
				still = 0
			}
		}
		s.Finalize(w)
		require.Less(t, longest, 60, "seed %d: stood %.1f s at %v", seed, float64(longest)/60, at)
	}
}
