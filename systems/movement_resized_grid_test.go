package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Movement cuts a frame's step to the map's width plus height (plus 2) cells,
// longer than any step on the map; it took that length from the map at
// Initialize, so after a bigger map was copied over the grid in place
// (*g = *other.Clone()) a fast agent's step of 60 cells stopped at 10 (4+4+2).
// Now the cut follows the grid's size at each Update.
func TestMovementStepsOnAGridResizedInPlace(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(4, 4)
	arche.AddResource(w, g)
	m := generic.NewMap4[components.Position, components.Velocity, components.Kinematics, components.Steering](w)
	e := m.NewWith(&components.Position{Vec: r2.Vec{X: 1.5, Y: 1.5}}, &components.Velocity{Vec: r2.Vec{X: 3600}},
		&components.Kinematics{MaxSpeed: 1e4, MaxForce: 1, Radius: 0.3}, &components.Steering{})
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Movement{Workers: 1})
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)
	*g = *grid.New(200, 8).Clone()
	s.Run(w, 1)
	p, _, _, _ := m.Get(e)
	require.InDelta(t, 61.5, p.Vec.X, 1e-9, "a step of 60 cells at 3600 cells/s, 1/60 s")
	require.InDelta(t, 1.5, p.Vec.Y, 1e-9)
}
