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

// An agent at rest that is pushed (here: moved by the program) well beyond
// its crowd sets off back to it: the arrival keep holds an agent at rest
// only up to a Spacing beyond its sector's rim, in whole-grid and in
// sector mode alike, also while more followers of its goal are elsewhere
// (here 140 shut in a room without a way out, as a swarm still streaming in
// from afar).
func TestAnAgentAtRestPushedFarFromItsCrowdWalksBack(t *testing.T) {
	t.Parallel()
	for _, sectors := range []int{0, 16} {
		for _, push := range []float64{2, 3} { // Spacings beyond the farthest agent at rest
			t.Run(fmt.Sprintf("sectors %d push %v", sectors, push), func(t *testing.T) {
				world := arche.NewWorld()
				w := &world
				g := grid.New(64, 64)
				for i := int32(0); i < 12; i++ { // a room shut on all sides, cells 1..10
					for _, c := range []grid.Cell{{X: i, Y: 0}, {X: i, Y: 11}, {X: 0, Y: i}, {X: 11, Y: i}} {
						g.SetCost(c, grid.Blocked)
					}
				}
				arche.AddResource(w, g)
				goal := grid.Cell{X: 32, Y: 32}
				sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal})
				require.NoError(t, err)
				sp.SpawnBatch(140, func(i int, a *systems.Spawned) {
					a.Position.Vec = r2.Vec{X: 1.5 + float64(i%10), Y: 1.5 + float64(i/10%10)}
				})
				k := 0
				sp.SpawnBatch(60, func(i int, a *systems.Spawned) {
					k++
					a.Position.Vec = r2.Vec{X: 20.5 + float64(k%24), Y: 20.5 + float64(k/24*10%24)}
				})
				flow := &systems.FlowField{Sectors: sectors}
				s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, flow,
					&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
				require.NoError(t, s.InitializeChecked(w))
				defer s.Finalize(w)
				s.Run(w, 40*60)
				f := generic.NewFilter2[components.Position, components.FlowFollower]()
				c := g.Center(goal)
				rim, arrived := 0.0, 0
				var far arche.Entity
				q := f.Query(w)
				for q.Next() {
					p, ff := q.Get()
					if ff.Arrived && p.X > 12 {
						arrived++
						if d := r2.Norm(r2.Sub(p.Vec, c)); d > rim {
							rim, far = d, q.Entity()
						}
					}
				}
				require.Equal(t, 60, arrived, "the crowd at rest")
				pos := generic.NewMap2[components.Position, components.FlowFollower](w)
				p, _ := pos.Get(far)
				out := r2.Scale(1/r2.Norm(r2.Sub(p.Vec, c)), r2.Sub(p.Vec, c))
				p.Vec = r2.Add(c, r2.Scale(rim+push*flow.Spacing, out))
				s.Update(w)
				_, ff := pos.Get(far)
				t.Logf("rim %.2f cells; pushed to %.2f: Arrived %v", rim, rim+push*flow.Spacing, ff.Arrived)
				require.False(t, ff.Arrived, "an agent at rest pushed %v Spacings beyond its crowd's farthest (%.2f cells from the goal)", push, rim)
				s.Run(w, 10*60) // and it walks back to the crowd and rests there
				p, ff = pos.Get(far)
				d := r2.Norm(r2.Sub(p.Vec, c))
				t.Logf("10 s later: %.2f cells from the goal, Arrived %v", d, ff.Arrived)
				require.True(t, ff.Arrived, "back at rest")
				require.Less(t, d, rim+flow.Spacing, "back with its crowd")
			})
		}
	}
}

// An agent at rest nudged half a Spacing beyond the farthest of its crowd
// stays at rest (the arrival keep: up to a Spacing beyond its sector's rim),
// in sector mode too, where the steps counted for a goal end at the rim of a
// disk holding all its followers, short of the keep's reach.
func TestAnAgentAtRestNudgedBeyondItsCrowdStaysAtRest(t *testing.T) {
	for _, sectors := range []int{0, 16} {
		t.Run(fmt.Sprintf("sectors %d", sectors), func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			g := grid.New(64, 64)
			arche.AddResource(w, g)
			goal := grid.Cell{X: 32, Y: 32}
			sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal})
			require.NoError(t, err)
			sp.SpawnBatch(60, func(i int, a *systems.Spawned) {
				a.Position.Vec = r2.Vec{X: 20.5 + float64(i%24), Y: 20.5 + float64(i/24*10%24)}
			})
			flow := &systems.FlowField{Sectors: sectors}
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, flow,
				&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
			require.NoError(t, s.InitializeChecked(w))
			defer s.Finalize(w)
			s.Run(w, 40*60)
			f := generic.NewFilter2[components.Position, components.FlowFollower]()
			c := g.Center(goal)
			rim, arrived := 0.0, 0
			var far arche.Entity
			q := f.Query(w)
			for q.Next() {
				p, ff := q.Get()
				if ff.Arrived {
					arrived++
					if d := r2.Norm(r2.Sub(p.Vec, c)); d > rim {
						rim, far = d, q.Entity()
					}
				}
			}
			require.Equal(t, 60, arrived, "the crowd at rest")
			pos := generic.NewMap2[components.Position, components.FlowFollower](w)
			p, _ := pos.Get(far)
			out := r2.Scale(1/r2.Norm(r2.Sub(p.Vec, c)), r2.Sub(p.Vec, c))
			p.Vec = r2.Add(c, r2.Scale(rim+flow.Spacing/2, out))
			s.Update(w)
			_, ff := pos.Get(far)
			t.Logf("rim %.2f cells; nudged to %.2f: Arrived %v", rim, rim+flow.Spacing/2, ff.Arrived)
			require.True(t, ff.Arrived, "an agent at rest nudged half a Spacing beyond its crowd's farthest (%.2f cells from the goal)", rim)
		})
	}
}
