package systems

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// badDataRun is TestBadDataPanicsNoSystem's world (every kind of bad value
// beside good agents) on a larger map, with sector flow fields when sectors >
// 0, run with workers goroutines per system; it returns the state hash.
func badDataRun(t *testing.T, workers, sectors int) uint64 {
	w, g := newWorld(40, 40)
	g.SetCost(grid.Cell{X: 9, Y: 9}, grid.Blocked)
	for y := int32(4); y < 30; y++ {
		g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
	}
	nan, inf := math.NaN(), math.Inf(1)
	spoils := []func(e arche.Entity){
		func(e arche.Entity) {},
		func(e arche.Entity) { compOf[components.Position](w, e).Vec = r2.Vec{X: nan, Y: 3} },
		func(e arche.Entity) { compOf[components.Position](w, e).Vec = r2.Vec{X: inf, Y: -inf} },
		func(e arche.Entity) { compOf[components.Position](w, e).Vec = r2.Vec{X: -40, Y: 1e300} },
		func(e arche.Entity) { compOf[components.Position](w, e).Vec = r2.Vec{X: 39.99, Y: 39.99} },
		func(e arche.Entity) { compOf[components.Position](w, e).Vec = r2.Vec{X: 9.5, Y: 9.5} },
		func(e arche.Entity) { compOf[components.Velocity](w, e).Vec = r2.Vec{X: nan, Y: inf} },
		func(e arche.Entity) { compOf[components.Velocity](w, e).Vec = r2.Vec{X: 1e300, Y: -1e300} },
		func(e arche.Entity) { compOf[components.FlowFollower](w, e).Goal = grid.Cell{X: 9, Y: 9} },
		func(e arche.Entity) { compOf[components.FlowFollower](w, e).Goal = grid.Cell{X: 1 << 30, Y: -3} },
		func(e arche.Entity) { compOf[components.FlowFollower](w, e).Goal = grid.Cell{X: 35, Y: 10} },
		func(e arche.Entity) { compOf[components.Perception](w, e).SightRange = inf },
		func(e arche.Entity) { compOf[components.Perception](w, e).SightRange = nan },
		func(e arche.Entity) { compOf[components.Perception](w, e).FieldOfView = nan },
		func(e arche.Entity) { compOf[components.SteeringWeights](w, e).SeparationRadius = inf },
		func(e arche.Entity) { compOf[components.SteeringWeights](w, e).SeparationRadius = 1e-300 },
		func(e arche.Entity) { compOf[components.Faction](w, e).Team = 7 },
	}
	for k := range 3 {
		for i, spoil := range spoils {
			e := goodAgent(t, w)
			pos := compOf[components.Position](w, e)
			pos.Vec = r2.Vec{X: 2.5 + float64((i*3+k)%16), Y: 2.5 + float64((i*7+k)%30)}
			compOf[components.Intent](w, e).Move = k == 0 // some go by flow field, wander
			compOf[components.Faction](w, e).Team = uint8(k)
			spoil(e)
		}
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &LOD{}, &Spatial{Workers: workers}, &Perception{Workers: workers}, &Decision{Workers: workers},
		&PathQueue{}, &Combat{}, &FlowField{Workers: workers, Sectors: sectors}, &PathFollow{Workers: workers}, &Steer{Workers: workers},
		&Movement{Workers: workers})
	s.Initialize(w)
	defer s.Finalize(w)
	require.NotPanics(t, func() { s.Run(w, 90) })
	return StateHash(w)
}

// TestBadDataSameForAnyWorkers: the bad values of TestBadDataPanicsNoSystem,
// with whole-grid and sector flow fields, panic no system and give the same
// state for 1, 2 and 3 workers.
func TestBadDataSameForAnyWorkers(t *testing.T) {
	for _, sectors := range []int{0, 8} {
		want := badDataRun(t, 1, sectors)
		for _, k := range []int{2, 3} {
			require.Equal(t, want, badDataRun(t, k, sectors), "sectors %d, %d workers", sectors, k)
		}
	}
}
