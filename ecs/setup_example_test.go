package ecs_test

import (
	"errors"
	"fmt"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/mlange-42/arche-model/model"
	"github.com/mlange-42/arche-model/system"
	arche "github.com/mlange-42/arche/ecs"
)

// A program that reads its settings from a file checks the world's setup
// before the first frame.
func ExampleScheduler_InitializeChecked() {
	world := arche.NewWorld()
	w := &world
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{})
	if err := s.InitializeChecked(w); err != nil {
		fmt.Println(errors.Is(err, ecs.ErrMissingResource))
		fmt.Println(err)
		arche.AddResource(w, grid.New(32, 32)) // the map, then again
	}
	fmt.Println(s.InitializeChecked(w))
	s.Finalize(w)
	// Output:
	// true
	// systems: Spatial needs the map: the world has no *grid.Grid resource; add one with arche.AddResource(w, g) before Initialize
	// <nil>
}

// With arche-model, a program checks its setup before model.Run, which would
// get a fault of setup as a panic, and then adds the same systems.
func ExampleCheckSetup() {
	m := model.New()
	sys := []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{}, &systems.PathQueue{Options: grid.Options{Moves: 5}}}
	arche.AddResource(&m.World, grid.New(32, 32))
	if err := ecs.CheckSetup(&m.World, sys...); err != nil {
		fmt.Println(errors.Is(err, ecs.ErrSettings))
		fmt.Println(err)
		sys[2] = &systems.PathQueue{} // the default options
	}
	fmt.Println(ecs.CheckSetup(&m.World, sys...))
	for _, s := range sys {
		m.AddSystem(s)
	}
	m.AddSystem(&system.FixedTermination{Steps: 10})
	m.Run()
	fmt.Println(ecs.Resource[ecs.Clock](&m.World).Frame)
	// Output:
	// true
	// systems: PathQueue cannot search with its Options: grid: bad search options: Moves 5 (want Moves8 or Moves4)
	// <nil>
	// 9
}
