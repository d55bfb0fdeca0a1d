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

// vehiclesInACrowd is newbie21's finding 3 reduced (an RTS group order on the game's
// geometry, without its map, trees, FSM, combat or LOD): on an open 128×128 grid, 200
// infantry (radius 0.3, separation only) in a block 8 cells wide and 25 tall round the
// order point (119.5, 64.5) and the given number of vehicles (radius 1.2, MaxSpeed 3,
// Motion.Avoid = AvoidORCA) in a column south of it, two abreast 3.5 cells apart, 4
// cells between rows, the first row on the point, are all sent to the point. It returns
// the closest approach of two vehicles' centres over 300 frames at 60 per second (2.4 =
// touching).
func vehiclesInACrowd(t *testing.T, vehicles int) float64 {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(128, 128))
	goal := r2.Vec{X: 119.5, Y: 64.5}
	inf, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	inf.SpawnBatch(200, func(i int, s *systems.Spawned) {
		s.Position.Vec = r2.Vec{X: 116.5 + float64(i%8), Y: 44.5 + float64(i/8)}
		s.MoveTo(goal)
	})
	veh, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: 1.2, MaxSpeed: 3, Avoid: systems.AvoidORCA}})
	require.NoError(t, err)
	var vs []arche.Entity
	for i := range vehicles {
		at := r2.Vec{X: 119 + float64(i%2)*3.5, Y: goal.Y - float64(i/2)*4}
		vs = append(vs, veh.Spawn(at, func(s *systems.Spawned) { s.MoveTo(goal) }))
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{}, &systems.PathFollow{},
		&systems.Steer{}, &systems.ORCA{}, &systems.Movement{})
	s.Initialize(w)
	defer s.Finalize(w)
	pm := generic.NewMap1[components.Position](w)
	closest := 10.0
	for range 300 {
		s.Update(w)
		for i := range vs {
			for j := i + 1; j < len(vs); j++ {
				closest = min(closest, r2.Norm(r2.Sub(pm.Get(vs[i]).Vec, pm.Get(vs[j]).Vec)))
			}
		}
	}
	return closest
}

// Two (or 30) ORCA vehicles sent to one point among 200 separation infantry sent there
// too keep their discs apart. The infantry press into the vehicles' discs (10 of them
// nearer than the other vehicle); the half-planes of those overlapping infantry ask for
// a velocity no step can reach, and the vehicles used to give up the other vehicle's
// half-plane as much as theirs, or not see the other vehicle at all among their 10
// nearest neighbours: they came to 1.730 (2 vehicles) and 0.271 (30) cells apart, and
// to 0.171 in the game. Now each vehicle sees its 10 nearest ORCA agents beside its 10
// nearest others, and keeps the reciprocal half-planes before those of agents that do
// not avoid: 3.322 and 2.400 cells.
func TestORCAVehiclesKeepApartInAnInfantryCrowd(t *testing.T) {
	for _, n := range []int{2, 30} {
		closest := vehiclesInACrowd(t, n)
		t.Logf("%d vehicles: closest two centres %.3f cells (2.4 = touching)", n, closest)
		if closest < 2.3 {
			t.Errorf("%d vehicles of radius 1.2 among 200 infantry came to %.3f cells apart (2.4 = touching)", n, closest)
		}
	}
}
