package systems_test

import (
	"fmt"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/mlange-42/arche-model/model"
	"github.com/mlange-42/arche-model/system"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// walker adds an agent at (2.5, 2.5) that wants to go to (13.5, 2.5), behind a
// wall at x = 8 with a gap at the bottom of a 16×16 map.
func walker(w *arche.World) (arche.Entity, *grid.Grid) {
	g := grid.New(16, 16)
	for y := int32(0); y < 13; y++ {
		g.SetCost(grid.Cell{X: 8, Y: y}, grid.Blocked)
	}
	arche.AddResource(w, g)
	m := generic.NewMap7[components.Position, components.Velocity, components.Kinematics,
		components.Steering, components.Intent, components.Desired, components.Path](w)
	e := m.New()
	pos, _, kin, _, intent, _, _ := m.Get(e)
	pos.Vec = r2.Vec{X: 2.5, Y: 2.5}
	*kin = components.Kinematics{MaxSpeed: 4, MaxForce: 20, Radius: 0.3}
	*intent = components.Intent{Move: true, Goal: r2.Vec{X: 13.5, Y: 2.5}}
	return e, g
}

// The systems plugged into arche-model: model.New() and AddSystem, unchanged.
func Example_archeModel() {
	m := model.New()
	e, _ := walker(&m.World)
	m.AddSystem(ecs.NewClockSystem(1.0 / 60)) // first: advances the simulation clock
	m.AddSystem(&systems.Spatial{})
	m.AddSystem(&systems.PathQueue{Budget: 8})
	m.AddSystem(&systems.PathFollow{})
	m.AddSystem(&systems.Steer{})
	m.AddSystem(&systems.Movement{})
	m.AddSystem(&system.FixedTermination{Steps: 600})
	m.Run()

	positions := generic.NewMap[components.Position](&m.World)
	paths := generic.NewMap[components.Path](&m.World)
	pos, path := positions.Get(e), paths.Get(e)
	fmt.Printf("at (%.2f, %.2f) after %.0f s, path of %d cells\n", pos.X, pos.Y, ecs.ClockOf(&m.World).Time, len(path.Waypoints))
	// Output: at (13.50, 2.50) after 10 s, path of 25 cells
}

// The same systems under archai's own scheduler, for users without arche-model.
func Example_scheduler() {
	world := arche.NewWorld()
	e, _ := walker(&world)
	s := ecs.NewScheduler(
		ecs.NewClockSystem(1.0/60),
		&systems.Spatial{},
		&systems.PathQueue{Budget: 8},
		&systems.PathFollow{},
		&systems.Steer{},
		&systems.Movement{},
	)
	s.Initialize(&world)
	s.Run(&world, 600)
	s.Finalize(&world)

	positions := generic.NewMap[components.Position](&world)
	pos := positions.Get(e)
	fmt.Printf("at (%.2f, %.2f)\n", pos.X, pos.Y)
	for _, t := range s.Times() {
		fmt.Println(t.Name)
	}
	// Output:
	// at (13.50, 2.50)
	// clock
	// spatial
	// pathqueue
	// pathfollow
	// steer
	// movement
}
