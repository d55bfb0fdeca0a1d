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

// A mover and a wanderer with the bundles' defaults, on a 16×16 map with a wall at
// x = 8 that has a gap at the bottom: the mover walks around the wall to its goal, the
// wanderer roams, into the left room's corner and out of it through the gap (at rest
// against walls it wanders from the direction away from them).
func ExampleSpawner() {
	world := arche.NewWorld()
	g := grid.New(16, 16)
	for y := int32(0); y < 13; y++ {
		g.SetCost(grid.Cell{X: 8, Y: y}, grid.Blocked)
	}
	arche.AddResource(&world, g)

	movers, err := systems.NewSpawner(&world, systems.Mover{}) // zero fields: defaults
	if err != nil {
		panic(err)
	}
	mover := movers.Spawn(r2.Vec{X: 2.5, Y: 2.5}, func(a *systems.Spawned) {
		a.MoveTo(r2.Vec{X: 13.5, Y: 2.5})
	})
	wanderers, err := systems.NewSpawner(&world, systems.DefaultWanderer())
	if err != nil {
		panic(err)
	}
	wanderers.Seed = 7 // the wanderer's random source: the same seed, the same walk
	wanderer := wanderers.Spawn(r2.Vec{X: 4.5, Y: 8.5}, nil)

	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(&world)
	pos := generic.NewMap[components.Position](&world)
	for second := 1; second <= 8; second++ {
		s.Run(&world, 60)
		m, w := pos.Get(mover).Vec, pos.Get(wanderer).Vec
		fmt.Printf("%d s: mover (%4.1f, %4.1f)  wanderer (%4.1f, %4.1f)\n", second, m.X, m.Y, w.X, w.Y)
	}
	s.Finalize(&world)
	// Output:
	// 1 s: mover ( 5.1,  5.1)  wanderer ( 2.0, 10.5)
	// 2 s: mover ( 5.5,  8.9)  wanderer ( 0.5, 13.4)
	// 3 s: mover ( 6.7, 12.6)  wanderer ( 0.5, 15.6)
	// 4 s: mover ( 9.8, 12.7)  wanderer ( 4.0, 15.4)
	// 5 s: mover (11.1,  8.9)  wanderer ( 8.0, 15.1)
	// 6 s: mover (12.5,  5.1)  wanderer (12.0, 15.2)
	// 7 s: mover (13.5,  2.5)  wanderer (15.5, 15.0)
	// 8 s: mover (13.5,  2.5)  wanderer (14.8, 12.0)
}

// A mover spawned with the Mover bundle's defaults into an arche-model world (the
// README's first example): it walks around a wall to its goal.
func ExampleSpawner_archeModel() {
	m := model.New()
	g := grid.New(64, 64)
	for y := int32(0); y < 20; y++ {
		g.SetCost(grid.Cell{X: 30, Y: y}, grid.Blocked) // a wall with a gap at the bottom
	}
	arche.AddResource(&m.World, g)

	movers, err := systems.NewSpawner(&m.World, systems.Mover{}) // zero fields: the defaults
	if err != nil {
		panic(err)
	}
	e := movers.Spawn(r2.Vec{X: 2.5, Y: 2.5}, func(a *systems.Spawned) {
		a.MoveTo(r2.Vec{X: 60.5, Y: 40.5})
	})

	m.AddSystem(ecs.NewClockSystem(1.0 / 60)) // first: advances simulation time
	m.AddSystem(&systems.Spatial{})
	m.AddSystem(&systems.PathQueue{})
	m.AddSystem(&systems.PathFollow{})
	m.AddSystem(&systems.Steer{})
	m.AddSystem(&systems.Movement{})
	m.AddSystem(&system.FixedTermination{Steps: 1200}) // 20 s of simulation time
	m.Run()

	positions := generic.NewMap[components.Position](&m.World)
	pos := positions.Get(e)
	fmt.Printf("at (%.1f, %.1f)\n", pos.X, pos.Y)
	// Output: at (60.5, 40.5)
}

// Two movers with ORCA avoidance (the README's ORCA example) swap places head-on in an
// open room: each passes the other and stops on its goal, and their discs never
// overlap on the way.
func ExampleAvoider() {
	world := arche.NewWorld()
	arche.AddResource(&world, grid.New(16, 16))
	sp, err := systems.NewSpawner(&world, systems.Mover{}, systems.Avoider{})
	if err != nil {
		panic(err)
	}
	a := sp.Spawn(r2.Vec{X: 2.5, Y: 8}, func(s *systems.Spawned) { s.MoveTo(r2.Vec{X: 13.5, Y: 8}) })
	b := sp.Spawn(r2.Vec{X: 13.5, Y: 8}, func(s *systems.Spawned) { s.MoveTo(r2.Vec{X: 2.5, Y: 8}) })

	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.ORCA{}, &systems.Movement{})
	s.Initialize(&world)
	pos := generic.NewMap[components.Position](&world)
	closest := 100.0
	for range 8 * 60 {
		s.Update(&world)
		closest = min(closest, r2.Norm(r2.Sub(pos.Get(a).Vec, pos.Get(b).Vec)))
	}
	s.Finalize(&world)
	pa, pb := pos.Get(a).Vec, pos.Get(b).Vec
	fmt.Printf("a at (%.1f, %.1f), b at (%.1f, %.1f)\n", pa.X, pa.Y, pb.X, pb.Y)
	fmt.Println("discs kept apart:", closest >= 2*systems.DefaultRadius-1e-3)
	fmt.Println(systems.Diagnose(&world))
	// Output:
	// a at (13.5, 8.0), b at (2.5, 8.0)
	// discs kept apart: true
	// diagnostics: 2 agents, no misconfiguration
}
