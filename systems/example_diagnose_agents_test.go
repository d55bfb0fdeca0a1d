package systems_test

import (
	"fmt"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// DiagnoseAgents names every agent of a cause, where a Report keeps one example:
// here the two movers ordered to the zero goal, a goal not set yet.
func ExampleDiagnoseAgents() {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	movers, err := systems.NewSpawner(w, systems.Mover{})
	if err != nil {
		panic(err)
	}
	for i, goal := range []r2.Vec{{X: 8.5, Y: 8.5}, {}, {X: 3.5, Y: 9.5}, {}} {
		movers.Spawn(r2.Vec{X: 1.5 + float64(i), Y: 1.5}, func(a *systems.Spawned) { a.MoveTo(goal) })
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 10)
	agents, report := systems.DiagnoseAgents(w, systems.CauseGoalUnset)
	fmt.Println(report.Counts[systems.CauseGoalUnset], "with goal_unset:")
	for _, e := range agents {
		fmt.Println(" entity", e.ID())
	}
	// Output:
	// 2 with goal_unset:
	//  entity 2
	//  entity 4
}
