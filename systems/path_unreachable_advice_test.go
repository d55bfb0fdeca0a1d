package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestDiagnoseTooWideAdvisesARadiusThatFits: a Mover of radius 2 sent through a
// wall whose only gap is 1 cell wide. The path_unreachable note advised "a radius
// of at most 1.5 (gaps of 3)": one clearance class down, whatever gaps the map has;
// a radius of 1.5 is refused a route as well, only 0.5 passes a gap of 1.
func TestDiagnoseTooWideAdvisesARadiusThatFits(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(30, 15)
	for y := int32(0); y < 15; y++ {
		if y != 7 {
			g.SetCost(grid.Cell{X: 15, Y: y}, grid.Blocked) // a gap of 1 cell at y 7
		}
	}
	arche.AddResource(w, g)
	wide, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: 2}})
	require.NoError(t, err)
	wide.Spawn(r2.Vec{X: 5.5, Y: 7.5}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 24.5, Y: 7.5}) })
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/30), &systems.Spatial{}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 30)
	r := systems.Diagnose(w)
	require.Equal(t, 1, r.Counts[systems.CausePathUnreachable], "%s", r)
	t.Log(r.String())
	require.Contains(t, r.String(), "give it a radius of at most 0.5 (gaps of 1)")
}
