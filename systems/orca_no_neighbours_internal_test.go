package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// An ORCA agent with MaxNeighbours 0 (walls only) avoids no neighbour, and
// the rules that read its neighbour lists (heldInCrowd, allStill) see none:
// before, neighbours returned early for it and left the worker's lists as
// the agent visited before it had them, so an agent arriving at a point
// beside a wall held (preferred velocity zero) for a neighbour ahead of
// another agent, and which agent that was depended on the split over the
// workers.
func TestORCAWithoutNeighboursReadsNoOthersNeighbours(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	sp, err := NewSpawner(w, Mover{Motion: Motion{Avoid: AvoidORCA}})
	require.NoError(t, err)
	point := r2.Vec{X: 12.5, Y: 8.5}
	a := sp.Spawn(r2.Vec{X: 8.5, Y: 8.5}, nil)
	b := sp.Spawn(r2.Vec{X: 9.2, Y: 8.5}, nil) // ahead of a on its way, touching
	ds := generic.NewMap[components.Desired](w)
	for _, e := range []arche.Entity{a, b} {
		*ds.Get(e) = components.Desired{Mode: components.DesiredArrive, Point: point}
	}
	o := &ORCA{Workers: 1}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Steer{}, o, &Movement{})
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)
	s.Update(w)
	m := generic.NewMap3[components.Position, components.Kinematics, components.ORCA](w)
	p, kin, params := m.Get(a)
	sc := &o.scratch[0]
	j := orcaJob{self: a, pos: p.Vec, kin: *kin, params: *params, arrive: true, point: point, idle: false}
	o.neighbours(&j, sc)
	require.Len(t, sc.near, 1, "a sees b")
	require.True(t, o.heldInCrowd(&j, sc, kin.Radius, 1.0/60), "a holds behind b, arriving at the same point")
	j.params.MaxNeighbours = 0
	o.neighbours(&j, sc)
	require.Empty(t, sc.nbrs)
	require.Empty(t, sc.near, "no reciprocal neighbour with MaxNeighbours 0")
	require.Empty(t, sc.alone, "no other neighbour with MaxNeighbours 0")
	require.False(t, o.heldInCrowd(&j, sc, kin.Radius, 1.0/60), "with MaxNeighbours 0, a holds for nobody")
}
