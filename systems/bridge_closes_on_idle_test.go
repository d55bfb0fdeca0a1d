package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// A bridge closes under agents standing on it with no move intent (newbie21's finding
// 2): 24 idle Movers on a 3-cell-wide bridge (y = 18..20) across a 3-cell river (x =
// 18..20) of a 40² map, with, in "swarm", 300 flow followers crossing it. The bridge
// closes (Blocked) for 4 s and opens again, three times. No idle agent may be pushed
// from a blocked cell into one farther from open ground (checked frame by frame), every
// agent in the closed bridge walks out of it whatever its intent (alone: none is in a
// blocked cell 2 s after it closed; with the swarm crowding the banks, a few stand half
// a cell from the bank until there is room, logged), and none is in the river 4 s after
// it reopened. Before, the swarm pushed 7 into the river while the bridge was closed, 5
// of them still there 4 s after it reopened, and alone 18 stood in the closed bridge.
func TestIdleAgentsOnAClosingBridgeWalkOutAndStayOutOfTheRiver(t *testing.T) {
	for _, swarm := range []bool{false, true} {
		name := "alone"
		if swarm {
			name = "swarm"
		}
		t.Run(name, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			g := grid.New(40, 40)
			var bridge []grid.Cell
			for y := int32(0); y < 40; y++ {
				for x := int32(18); x <= 20; x++ {
					c := grid.Cell{X: x, Y: y}
					if y >= 18 && y <= 20 {
						bridge = append(bridge, c)
						continue
					}
					g.SetCost(c, grid.Blocked)
				}
			}
			arche.AddResource(w, g)
			sp, err := systems.NewSpawner(w, systems.Mover{})
			if err != nil {
				t.Fatal(err)
			}
			sp.SpawnBatch(24, func(i int, a *systems.Spawned) {
				a.Position.Vec = r2.Vec{X: 18.2 + 0.35*float64(i%8), Y: 18.3 + 0.8*float64(i/8)}
			})
			list := []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{}, &systems.PathQueue{}}
			if swarm {
				zs, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 3, Y: 19}})
				if err != nil {
					t.Fatal(err)
				}
				zs.SpawnBatch(300, func(i int, a *systems.Spawned) {
					a.Position.Vec = r2.Vec{X: 24.5 + float64(i%15), Y: 5.5 + float64(i/15)}
				})
				list = append(list, &systems.FlowField{})
			}
			s := ecs.NewScheduler(append(list, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})...)
			s.Initialize(w)
			defer s.Finalize(w)
			idle := generic.NewFilter2[components.Position, components.Path]()
			count := func() (river, blocked int) { // of the idle agents (those with a Path)
				q := idle.Query(w)
				for q.Next() {
					p, _ := q.Get()
					if c := g.CellAt(p.Vec); !g.Passable(c) {
						blocked++
						if c.Y < 18 || c.Y > 20 {
							river++
						}
					}
				}
				return river, blocked
			}
			// deeper counts the idle agents that moved since the last frame from a blocked
			// cell into a blocked cell farther from open ground
			last := map[arche.Entity]grid.Cell{}
			deeper := func() (n int) {
				q := idle.Query(w)
				for q.Next() {
					p, _ := q.Get()
					c := g.CellAt(p.Vec)
					if b, ok := last[q.Entity()]; ok && !g.Passable(b) && !g.Passable(c) && depthOf(g, c) > depthOf(g, b) {
						n++
					}
					last[q.Entity()] = c
				}
				return n
			}
			worstRiver, late, deep := 0, 0, 0
			for cycle := 0; cycle < 3; cycle++ {
				s.Run(w, 120)
				for _, c := range bridge {
					g.SetCost(c, grid.Blocked)
				}
				clear(last)
				for f := 0; f < 240; f++ {
					s.Update(w)
					river, blocked := count()
					worstRiver = max(worstRiver, river)
					deep += deeper()
					if f >= 120 {
						late = max(late, blocked)
					}
				}
				for _, c := range bridge {
					g.SetCost(c, 1)
				}
			}
			s.Run(w, 240)
			river, _ := count()
			t.Logf("%s: while closed at most %d in river cells, %d in a blocked cell 2 s or more after it closed, %d steps deeper into the wall; %d in the river 4 s after it reopened",
				name, worstRiver, late, deep, river)
			assert.Zero(t, deep, "pushed from a blocked cell deeper into the wall")
			if !swarm { // with the swarm, a few stand half a cell from the bank it crowds, until there is room
				assert.Zero(t, late, "still in the closed bridge (or river) 2 s after it closed")
			}
			assert.Zero(t, river, "in the river 4 s after the bridge reopened")
		})
	}
}

// depthOf is the Chebyshev distance from the blocked cell c to the nearest open cell of
// g (at most 9).
func depthOf(g *grid.Grid, c grid.Cell) int32 {
	for r := int32(1); r <= 8; r++ {
		for y := c.Y - r; y <= c.Y+r; y++ {
			for x := c.X - r; x <= c.X+r; x++ {
				if n := (grid.Cell{X: x, Y: y}); g.InBounds(n) && g.Passable(n) {
					return r
				}
			}
		}
	}
	return 9
}
