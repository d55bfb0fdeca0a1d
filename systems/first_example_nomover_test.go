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

// The first program (Example_firstProgram) with the Mover bundle forgotten:
// the couriers think, their trees ask to move, and nothing moves them.
// Before the first decision no Intent asks for anything, so Diagnose cannot
// tell a courier from a turret; once the trees have set Intent.Move, Diagnose
// (or a Diagnostics system in the frame) counts every courier under
// steer_incomplete.
func Example_firstProgramWithoutMover() {
	world := arche.NewWorld()
	g := grid.New(64, 64)
	for y := 0; y < 50; y++ {
		g.SetCost(grid.Cell{X: 30, Y: int32(y)}, grid.Blocked)
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
		in := systems.AgentOf(c).Intent
		in.Move, in.Goal = true, goal
		return bt.Running
	})
	tree, err := bt.Compile("courier", bt.ReactiveSelector(bt.Sequence(arrived, rest), walk))
	if err != nil {
		fmt.Println(err)
		return
	}

	couriers, err := systems.NewSpawner(&world, systems.Thinker{Tree: tree}) // no systems.Mover{}
	if err != nil {
		fmt.Println(err)
		return
	}
	starts := []r2.Vec{{X: 5.5, Y: 20.5}, {X: 2.5, Y: 2.5}, {X: 6.5, Y: 21.5}, {X: 3.5, Y: 3.5}}
	order, _ := spatial.TileOrder(starts, 8, nil)
	couriers.SpawnBatch(len(order), func(k int, a *systems.Spawned) {
		a.Position.Vec = starts[order[k]]
	})

	check := &systems.Diagnostics{Every: 60}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Decision{},
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}, check)
	s.Initialize(&world)
	fmt.Println(systems.Diagnose(&world))
	s.Run(&world, 1800)
	fmt.Println(systems.Diagnose(&world))
	fmt.Println("Diagnostics system, last check:", check.Report.Counts[systems.CauseSteerIncomplete], "steer_incomplete")
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
	// diagnostics: 4 agents, 4 of them misconfigured (4 findings): steer_incomplete 4 (e.g. entity 1, lacks Velocity, Kinematics, Desired, Steering: spawn it with the systems.Mover bundle, or tag it components.OwnMotion if your program moves it)
	// Diagnostics system, last check: 4 steer_incomplete
	// 0 of 4 couriers at the goal
}
