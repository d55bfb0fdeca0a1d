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
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A lone Mover walking a path through a door on a long clock step (a 1 Hz
// server tick: 2.5 cells a step at MaxSpeed 2.5) arrives, as it does at 60 Hz.
// Before the fix it overshot a waypoint (WaypointRadius 0.5), turned back,
// overshot again, and swung about it at full speed for good: at dt 0.6 to 2 s
// it never arrived (a newcomer's stealth game on a 1 Hz tick).
func TestAPathFollowerOnALongStepArrives(t *testing.T) {
	for _, dt := range []float64{1.0 / 60, 0.25, 0.6, 0.75, 0.9, 1, 1.5, 2} {
		t.Run(fmt.Sprint(dt), func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			g := grid.New(40, 40)
			for i := range int32(40) {
				g.SetCost(grid.Cell{X: 20, Y: i}, grid.Blocked)
				g.SetCost(grid.Cell{X: i, Y: 30}, grid.Blocked)
			}
			g.SetCost(grid.Cell{X: 20, Y: 10}, 1) // a door 2 cells wide
			g.SetCost(grid.Cell{X: 20, Y: 11}, 1)
			arche.AddResource(w, g)
			sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{MaxSpeed: 2.5}})
			require.NoError(t, err)
			goal := r2.Vec{X: 19.5, Y: 23.5}
			e := sp.Spawn(r2.Vec{X: 27.5, Y: 25.5}, func(a *systems.Spawned) { a.MoveTo(goal) })
			s := ecs.NewScheduler(ecs.NewClockSystem(dt), &systems.Spatial{}, &systems.PathQueue{},
				&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
			require.NoError(t, s.InitializeChecked(w))
			s.Run(w, int(60/dt)) // 60 s for a walk of about 33 cells: 13 s at 2.5 cells/s
			pos := generic.NewMap[components.Position](w)
			p := pos.Get(e).Vec
			require.Less(t, r2.Norm(r2.Sub(p, goal)), 0.5, "dt %v: at (%.2f, %.2f), goal %v", dt, p.X, p.Y, goal)
		})
	}
}
