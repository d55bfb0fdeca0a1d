package systems_test

import (
	"fmt"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// The first program's couriers with a state machine instead of a tree: a Walk
// state that sets the move intent until the agent is at the goal, then Rest,
// and back to Walk when another courier pushes it off the goal.
// Hooks see the agent through systems.StateAgent, and the FSM system runs the
// machines (in place of Decision). The README's "The same couriers as a state
// machine" shows this code.
func Example_firstProgramStateMachine() {
	world := arche.NewWorld()
	g := grid.New(64, 64)
	for y := 0; y < 50; y++ {
		g.SetCost(grid.Cell{X: 30, Y: int32(y)}, grid.Blocked)
	}
	arche.AddResource(&world, g)

	goal := r2.Vec{X: 60.5, Y: 10.5}
	b := fsm.NewBuilder("courier")
	walk := b.State("Walk", fsm.Hooks{
		Update: func(ctx *fsm.Context) fsm.StateID {
			in := systems.StateAgent(ctx).Intent
			in.Move, in.Goal = true, goal
			return fsm.None // stay; the guard row below leaves when arrived
		},
	})
	rest := b.State("Rest", fsm.Hooks{
		Enter: func(ctx *fsm.Context) { systems.StateAgent(ctx).Intent.Move = false },
	})
	arrived := func(ctx *fsm.Context) bool {
		return r2.Norm(r2.Sub(systems.StateAgent(ctx).Position.Vec, goal)) < 1
	}
	b.When(walk, arrived, rest)
	// pushed off the goal by a courier arriving after it: walk back (the
	// tree's ReactiveSelector re-checks Arrived on every tick the same way)
	b.When(rest, func(ctx *fsm.Context) bool { return !arrived(ctx) }, walk)
	machine, err := b.Build() // the first state added is the initial one
	if err != nil {
		fmt.Println(err)
		return
	}

	couriers, err := systems.NewSpawner(&world, systems.Mover{}, systems.Thinker{Machine: machine})
	if err != nil {
		fmt.Println(err)
		return
	}
	starts := []r2.Vec{{X: 5.5, Y: 20.5}, {X: 2.5, Y: 2.5}, {X: 6.5, Y: 21.5}, {X: 3.5, Y: 3.5}}
	couriers.SpawnBatch(len(starts), func(k int, a *systems.Spawned) { a.Position.Vec = starts[k] })

	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.FSM{},
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{},
		&systems.Diagnostics{})
	s.Initialize(&world)
	fmt.Println(systems.Diagnose(&world))
	s.Run(&world, 1800)
	s.Finalize(&world)

	resting := 0
	q := generic.NewFilter2[components.Position, components.StateMachine]().Query(&world)
	for q.Next() {
		pos, sm := q.Get()
		if sm.Memory.Active == rest && r2.Norm(r2.Sub(pos.Vec, goal)) < 1 {
			resting++
		}
	}
	fmt.Printf("%d of %d couriers resting at the goal\n", resting, len(starts))
	// Output:
	// diagnostics: 4 agents, no misconfiguration found (before the first frame: 4 brains have not thought yet; the Diagnostics in the frame checks what they ask)
	// 4 of 4 couriers resting at the goal
}
