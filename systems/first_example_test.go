package systems_test

import (
	"fmt"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/nav/spatial"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// A first program: a behavior tree written in Go, a few couriers spawned in
// spatial order with the public bundles, walking around a wall to a goal,
// then resting. Its leaves see the agent through systems.AgentOf.
func Example_firstProgram() {
	world := arche.NewWorld()
	g := grid.New(64, 64)
	for y := 0; y < 50; y++ {
		g.SetCost(grid.Cell{X: 30, Y: int32(y)}, grid.Blocked) // a wall to walk around
	}
	arche.AddResource(&world, g)

	goal := r2.Vec{X: 60.5, Y: 10.5}
	arrived := bt.Condition("Arrived", func(c *bt.Context) bool {
		return r2.Norm(r2.Sub(systems.AgentOf(c).Position.Vec, goal)) < 1
	})
	rest := bt.Action("Rest", func(c *bt.Context) bt.Status {
		systems.AgentOf(c).Intent.Move = false
		return bt.Success
	})
	walk := bt.Action("WalkToGoal", func(c *bt.Context) bt.Status {
		in := systems.AgentOf(c).Intent // what moves it: PathQueue, PathFollow, Steer, Movement
		in.Move, in.Goal = true, goal
		return bt.Running
	})
	tree, err := bt.Compile("courier", bt.ReactiveSelector(bt.Sequence(arrived, rest), walk))
	if err != nil {
		fmt.Println(err)
		return
	}

	couriers, err := systems.NewSpawner(&world, systems.Mover{}, systems.Thinker{Tree: tree})
	if err != nil {
		fmt.Println(err)
		return
	}
	starts := []r2.Vec{{X: 5.5, Y: 20.5}, {X: 2.5, Y: 2.5}, {X: 6.5, Y: 21.5}, {X: 3.5, Y: 3.5}}
	order, _ := spatial.TileOrder(starts, 8, nil) // neighbours next to each other in memory
	couriers.SpawnBatch(len(order), func(k int, a *systems.Spawned) {
		a.Position.Vec = starts[order[k]]
	})

	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Decision{},
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{},
		&systems.Diagnostics{}) // writes to standard error what goes wrong as agents act
	if err := s.InitializeChecked(&world); err != nil { // a missing resource, a bad setting
		fmt.Println(err)
		return
	}
	fmt.Println(systems.Diagnose(&world))
	s.Run(&world, 1800) // 30 s of simulation time
	s.Finalize(&world)

	at := 0
	q := generic.NewFilter1[components.Position]().Query(&world)
	for q.Next() {
		if r2.Norm(r2.Sub(q.Get().Vec, goal)) < 1 {
			at++
		}
	}
	fmt.Printf("%d of %d couriers at the goal\n", at, len(starts))
	// Output:
	// diagnostics: 4 agents, no misconfiguration found (before the first frame: 4 brains have not thought yet; the Diagnostics in the frame checks what they ask)
	// 4 of 4 couriers at the goal
}
