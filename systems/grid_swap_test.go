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

// The package doc's rule for a new map: the systems keep the grid they found at
// Initialize, so a grid resource swapped between two Updates is not seen (the mover
// walks through the new map's wall), while Finalize, swap, Initialize (a level restart)
// is: the mover stops at the wall.
func TestAnotherMapNeedsALevelRestart(t *testing.T) {
	for _, restart := range []bool{false, true} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(32, 32))
		sp, err := systems.NewSpawner(w, systems.Mover{})
		require.NoError(t, err)
		e := sp.Spawn(r2.Vec{X: 2.5, Y: 16.5}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 28.5, Y: 16.5}) })
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
			&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
		s.Initialize(w)
		s.Run(w, 30)

		walled := grid.New(32, 32) // the next level: a wall across the way at x = 16
		for y := range int32(32) {
			walled.SetCost(grid.Cell{X: 16, Y: y}, grid.Blocked)
		}
		if restart {
			s.Finalize(w)
		}
		w.Resources().Remove(arche.ResourceID[grid.Grid](w))
		arche.AddResource(w, walled)
		if restart {
			s.Initialize(w)
		}
		s.Run(w, 600)
		if restart {
			assert.Nil(t, systems.Diagnose(w).Replaced)
		} else {
			assert.Equal(t, []string{"*grid.Grid"}, systems.Diagnose(w).Replaced, "not seen by the systems, but reported")
		}
		s.Finalize(w)

		m := generic.NewMap1[components.Position](w)
		x := m.Get(e).X
		if restart {
			assert.Less(t, x, 16.0, "after a level restart the mover stops at the new wall")
		} else {
			// the doc's claim: if the systems learn to see a swapped grid, change both
			assert.Greater(t, x, 28.0, "a grid swapped between Updates is not seen: the mover reached its goal through the wall")
		}
	}
}
