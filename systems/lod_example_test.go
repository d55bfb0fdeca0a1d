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

// Level of detail: the LOD system slows down or freezes the thinking of agents far
// from a focus point (here a camera entity with a components.Focus). It serves only
// agents with a components.LOD, which no bundle adds: spawn them with
// systems.With(components.LOD{}). An agent without one (the boss here) opts out and
// thinks at its Thinker's rate wherever it is. With no agent carrying a LOD at all,
// the LOD system does nothing and Diagnose counts the agents as no_lod_component.
func ExampleLOD() {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(128, 16))
	thinks := map[arche.Entity]int{}
	tree, err := bt.Compile("count", bt.Action("count", func(c *bt.Context) bt.Status {
		thinks[c.Agent.(*systems.Agent).Entity]++
		return bt.Running
	}))
	if err != nil {
		panic(err)
	}
	crowd, err := systems.NewSpawner(w, systems.Thinker{Tree: tree}, systems.With(components.LOD{}))
	if err != nil {
		panic(err)
	}
	bosses, err := systems.NewSpawner(w, systems.Thinker{Tree: tree}) // no LOD: always 10 Hz
	if err != nil {
		panic(err)
	}
	near := crowd.Spawn(r2.Vec{X: 10.5, Y: 8.5}, nil)
	mid := crowd.Spawn(r2.Vec{X: 50.5, Y: 8.5}, nil)
	far := crowd.Spawn(r2.Vec{X: 120.5, Y: 8.5}, nil)
	boss := bosses.Spawn(r2.Vec{X: 120.5, Y: 4.5}, nil)

	cameras := generic.NewMap2[components.Position, components.Focus](w)
	cameras.NewWith(&components.Position{Vec: r2.Vec{X: 8, Y: 8}}, &components.Focus{}) // moved by the program

	lod := &systems.LOD{} // DefaultLODLevels: 10 Hz within 32 cells, 2 Hz within 96, frozen beyond
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), lod, &systems.Decision{})
	s.Initialize(w)
	s.Run(w, 120) // 2 s
	fmt.Println("agents per level (10 Hz, 2 Hz, frozen):", lod.Counts)
	for _, a := range []struct {
		name string
		e    arche.Entity
	}{{"near", near}, {"mid", mid}, {"far", far}, {"boss", boss}} {
		fmt.Printf("%s: %d thinks in 2 s\n", a.name, thinks[a.e])
	}
	fmt.Println(systems.Diagnose(w)) // 4 agents: the camera (a Focus, no other archai component) is none
	s.Finalize(w)
	// Output:
	// agents per level (10 Hz, 2 Hz, frozen): [1 1 1]
	// near: 20 thinks in 2 s
	// mid: 4 thinks in 2 s
	// far: 0 thinks in 2 s
	// boss: 20 thinks in 2 s
	// diagnostics: 4 agents, no misconfiguration
}
