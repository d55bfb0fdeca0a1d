package systems_test

import (
	"fmt"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Order is a player's order to a unit with a brain, a component of the program's own.
type Order struct {
	Goal  r2.Vec
	Given bool
}

// A unit with a brain is ordered through something its tree reads (here a component of
// the program's own), not through its Intent, which the tree writes at every think: an
// Intent written between frames would last until the unit's next think. The README's
// "Ordering a unit that has a brain".
func Example_orderingAUnitWithABrain() {
	world := arche.NewWorld()
	arche.AddResource(&world, grid.New(32, 32))
	advance := bt.Action("Advance", func(c *bt.Context) bt.Status {
		a := systems.AgentOf(c)
		if o := systems.Get[Order](a); o != nil && o.Given {
			a.Intent.Move, a.Intent.Goal = true, o.Goal
			return bt.Running
		}
		a.Intent.Move = false // no order: stand
		return bt.Failure
	})
	tree, err := bt.Compile("unit", advance)
	if err != nil {
		fmt.Println(err)
		return
	}
	units, err := systems.NewSpawner(&world, systems.Mover{}, systems.Thinker{Tree: tree}, systems.With(Order{}))
	if err != nil {
		fmt.Println(err)
		return
	}
	unit := units.Spawn(r2.Vec{X: 2.5, Y: 2.5}, nil)
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Decision{},
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	if err := s.InitializeChecked(&world); err != nil {
		fmt.Println(err)
		return
	}
	s.Run(&world, 60)

	orders := generic.NewMap[Order](&world) // made once, kept in a variable
	o := orders.Get(unit)                   // the player clicks, between two frames
	o.Goal, o.Given = r2.Vec{X: 20.5, Y: 12.5}, true
	s.Run(&world, 600)
	positions := generic.NewMap[components.Position](&world)
	fmt.Printf("%.0f cells from the goal\n", r2.Norm(r2.Sub(positions.Get(unit).Vec, r2.Vec{X: 20.5, Y: 12.5})))
	s.Finalize(&world)
	// Output: 0 cells from the goal
}
