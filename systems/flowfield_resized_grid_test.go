package systems_test

import (
	"fmt"
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

// A map of another size copied over the grid resource in place (*g = *other.Clone(),
// the way grid.Grid.Clone's doc gives to change the map the systems hold), with flow
// followers on the way: the sector FlowField panicked (index out of range: its
// sectors and per-sector marks were the old map's), and the flow fields indexed the
// new map with the old size. Now the fields are made anew for the new map: the
// followers, moved into the part of the bigger map the old one did not have, reach a
// goal there, whole-grid or sector fields alike; after a shrink they go on without
// a panic.
func TestFlowFollowersOnAGridResizedInPlace(t *testing.T) {
	for _, sectors := range []int{0, 4} {
		for _, sz := range [][4]int{{16, 16, 48, 40}, {48, 40, 16, 16}, {16, 16, 8, 64}, {24, 24, 1, 1}} {
			t.Run(fmt.Sprint(sectors, sz), func(t *testing.T) {
				world := arche.NewWorld()
				w := &world
				g := grid.New(sz[0], sz[1])
				arche.AddResource(w, g)
				sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 1, Y: 1}})
				require.NoError(t, err)
				var es []arche.Entity
				for k := range 6 {
					es = append(es, sp.Spawn(r2.Vec{X: float64(sz[0]) - 0.5 - float64(k%3), Y: float64(sz[1]) - 0.5 - float64(k/3)}, nil))
				}
				s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.FlowField{Sectors: sectors},
					&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
				require.NoError(t, s.InitializeChecked(w))
				defer s.Finalize(w)
				s.Run(w, 20)
				*g = *grid.New(sz[2], sz[3]).Clone()
				m := generic.NewMap2[components.Position, components.FlowFollower](w)
				goal := grid.Cell{X: int32(sz[2] - 2), Y: int32(sz[3] - 2)}
				if sz[2] == 1 {
					goal = grid.Cell{}
				}
				for k, e := range es {
					p, ff := m.Get(e)
					p.Vec = r2.Vec{X: min(2.5+float64(k%3), float64(sz[2])-0.5), Y: min(2.5+float64(k/3), float64(sz[3])-0.5)}
					ff.Goal = goal
				}
				require.NotPanics(t, func() { s.Run(w, 1200) })
				for _, e := range es {
					p, _ := m.Get(e)
					require.True(t, g.InBounds(g.CellAt(p.Vec)), "on the new map: %v", p.Vec)
					if sz[2] > sz[0] {
						d := r2.Sub(p.Vec, g.Center(goal))
						require.Less(t, r2.Norm(d), 3.0, "gathered at the goal %v in the new part of the map: at %v", goal, p.Vec)
					}
				}
			})
		}
	}
}
