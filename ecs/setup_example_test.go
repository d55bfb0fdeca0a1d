package ecs_test

import (
	"errors"
	"fmt"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
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
