package systems_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// FlowFollowers whose goals move every frame (a shared one, on, off and next to the grid,
// and goals of their own), on a 37×23 grid edited every 13 frames, with whole-grid fields
// (budgets 0, 7 and 300, a cache of 2 to 3 fields) and sector fields: no position turns NaN
// and no centre enters a blocked cell from an open one.
func TestFlowFollowersWithGoalsMovingEveryFrame(t *testing.T) {
	for _, sectors := range []int{0, 8} {
		for _, budget := range []int{0, 7, 300} {
			r := rand.New(rand.NewPCG(uint64(budget+sectors), 3))
			world := arche.NewWorld()
			w := &world
			g := grid.New(37, 23) // odd sizes
			for k := 0; k < 150; k++ {
				g.SetCost(grid.Cell{X: int32(r.IntN(37)), Y: int32(r.IntN(23))}, grid.Blocked)
			}
			arche.AddResource(w, g)
			var es []arche.Entity
			for _, rad := range []float64{0.3, 0.8} {
				sp, _ := systems.NewSpawner(w, systems.FlowFollower{Motion: systems.Motion{Radius: rad}})
				for k := 0; k < 15; k++ {
					var p r2.Vec
					for {
						p = r2.Vec{X: r.Float64() * 37, Y: r.Float64() * 23}
						if g.Passable(g.CellAt(p)) {
							break
						}
					}
					es = append(es, sp.Spawn(p, nil))
				}
			}
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.FlowField{Sectors: sectors, Budget: budget, Capacity: 2, MaxFields: 3},
				&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
			s.Initialize(w)
			m := generic.NewMap2[components.Position, components.FlowFollower](w)
			shared := grid.Cell{X: 5, Y: 5}
			prev := make([]grid.Cell, len(es))
			for i, e := range es {
				p, _ := m.Get(e)
				prev[i] = g.CellAt(p.Vec)
			}
			for f := 0; f < 600; f++ {
				shared = grid.Cell{X: int32(r.IntN(41)) - 2, Y: int32(r.IntN(27)) - 2}
				for i, e := range es {
					_, ff := m.Get(e)
					if i%3 == 0 {
						ff.Goal = grid.Cell{X: int32(r.IntN(37)), Y: int32(r.IntN(23))}
					} else {
						ff.Goal = shared
					}
				}
				if f%13 == 0 {
					c := grid.Cell{X: int32(r.IntN(37)), Y: int32(r.IntN(23))}
					if g.Passable(c) {
						g.SetCost(c, grid.Blocked)
					} else {
						g.SetCost(c, 1)
					}
				}
				s.Update(w)
				for i, e := range es {
					p, _ := m.Get(e)
					if math.IsNaN(p.Vec.X) || math.IsNaN(p.Vec.Y) {
						t.Fatalf("NaN position")
					}
					c := g.CellAt(p.Vec)
					if c != prev[i] && !g.Passable(c) && g.Passable(prev[i]) {
						t.Fatalf("sectors %d budget %d frame %d: entered blocked %v from %v", sectors, budget, f, c, prev[i])
					}
					prev[i] = c
				}
			}
			s.Finalize(w)
		}
	}
}
