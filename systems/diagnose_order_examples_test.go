package systems_test

import (
	"fmt"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// Diagnose compares the schedule with the documented order: Perception after a
// decision system leaves that system's agents blind (counted per agent), and
// Movement before Steer works a frame late (one finding for the schedule).
func ExampleDiagnose_scheduleOrder() {
	world := arche.NewWorld()
	arche.AddResource(&world, grid.New(16, 16))
	tree, _ := bt.Compile("watch", bt.Action("Watch", func(*bt.Context) bt.Status { return bt.Running }))
	for team := uint8(1); team <= 2; team++ {
		sp, _ := systems.NewSpawner(&world, systems.Mover{}, systems.Thinker{Tree: tree}, systems.Combatant{Team: team})
		sp.Spawn(r2.Vec{X: 2.5 + 3*float64(team), Y: 4.5}, nil)
	}
	per := &systems.Perception{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Decision{}, per,
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Movement{}, &systems.Steer{})
	s.Initialize(&world)
	r := systems.Diagnose(&world)
	fmt.Println(r.Counts[systems.CausePerceptionAfterDecision], "agents never perceive")
	fmt.Println(r.Order)
	perceived := 0
	for range 60 { // 1 s: each agent thinks 10 times
		s.Update(&world)
		perceived += per.Checked
	}
	fmt.Println("perceptions in 1 s:", perceived)
	s.Finalize(&world)
	// Output:
	// 2 agents never perceive
	// [movement before steer]
	// perceptions in 1 s: 0
}
