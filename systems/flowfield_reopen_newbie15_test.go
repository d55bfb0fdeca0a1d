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

// TestFlowFollowersGoWhenAWallOpens: five flow followers whose goal a wall
// seals off stand still (no path: Steer false); a gap opens in the wall (a
// tower sold, a door opened). The field is rebuilt for the new grid, and the
// agents must sample it again although none of them entered a new cell: they
// used to keep the sample taken on the sealed map (Steer false) for good, the
// whole-grid mode only (sector fields resampled).
func TestFlowFollowersGoWhenAWallOpens(t *testing.T) {
	for _, sectors := range []int{0, 5} {
		for _, sealedFirst := range []bool{true, false} {
			t.Run(fmt.Sprintf("sectors=%d/sealedAtStart=%v", sectors, sealedFirst), func(t *testing.T) {
				world := arche.NewWorld()
				w := &world
				g := grid.New(20, 10)
				arche.AddResource(w, g)
				goal := grid.Cell{X: 18, Y: 5}
				sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal})
				require.NoError(t, err)
				for i := 0; i < 5; i++ {
					sp.Spawn(r2.Vec{X: 2.5, Y: 2.5 + float64(i)}, nil)
				}
				seal := func() {
					for y := int32(0); y < 10; y++ {
						g.SetCost(grid.Cell{X: 10, Y: y}, grid.Blocked)
					}
				}
				if sealedFirst {
					seal()
				}
				s := ecs.NewScheduler(ecs.NewClockSystem(1.0/30), &systems.Spatial{},
					&systems.FlowField{Sectors: sectors}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
				s.Initialize(w)
				defer s.Finalize(w)
				if !sealedFirst {
					s.Run(w, 30) // under way, then the wall closes in front of them
					seal()
				}
				s.Run(w, 90)
				f := generic.NewFilter2[components.Position, components.FlowFollower]()
				q := f.Query(w)
				for q.Next() {
					p, ff := q.Get()
					require.False(t, ff.Steer, "sealed off: no direction")
					require.Less(t, p.X, 10.0)
				}
				g.SetCost(grid.Cell{X: 10, Y: 5}, 1) // the gap
				s.Run(w, 240)
				q = f.Query(w)
				for q.Next() {
					p, _ := q.Get()
					require.Greater(t, p.X, 14.0, "8 s after the gap opened every agent is through it, near the goal (18, 5)")
				}
			})
		}
	}
}
