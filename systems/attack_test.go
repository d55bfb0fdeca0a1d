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
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestORCADegenerateInputs: 60 ORCA agents spawned on one point with
// MaxNeighbours 0, MaxInt and 1<<20, radius 0, NeighbourDist 1e300, and 10
// more of radius 0 on one point in a blocked cell with a NaN goal: no panic,
// no position goes NaN or infinite, and 1 and 3 workers give the same state.
func TestORCADegenerateInputs(t *testing.T) {
	var hashes []uint64
	for _, workers := range []int{1, 3} {
		s := newAvoidScene(t, 20, 20, workers, func(g *grid.Grid) {
			g.SetCost(grid.Cell{X: 10, Y: 10}, grid.Blocked)
		})
		for i := range 60 {
			e := s.Spawner.Spawn(r2.Vec{X: 5.5, Y: 5.5}, func(a *systems.Spawned) {
				a.MoveTo(r2.Vec{X: 15.5, Y: 15.5})
				o := systems.Component[components.ORCA](a)
				switch i % 5 {
				case 0:
					o.MaxNeighbours = 0
				case 1:
					o.MaxNeighbours = math.MaxInt
				case 2:
					o.MaxNeighbours = 1 << 20
				case 3:
					systems.Component[components.Kinematics](a).Radius = 0
				case 4:
					o.NeighbourDist = 1e300
				}
			})
			s.agents = append(s.agents, e)
			s.goals = append(s.goals, r2.Vec{X: 15.5, Y: 15.5})
		}
		// zero-radius ones coincide too, in the blocked cell
		for range 10 {
			e := s.Spawner.Spawn(r2.Vec{X: 10.5, Y: 10.5}, func(a *systems.Spawned) {
				a.MoveTo(r2.Vec{X: math.NaN(), Y: 3})
				systems.Component[components.Kinematics](a).Radius = 0
			})
			s.agents = append(s.agents, e)
			s.goals = append(s.goals, r2.Vec{X: 3, Y: 3})
		}
		s.run(3, func() {
			for _, e := range s.agents {
				p := s.pos.Get(e).Vec
				if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) {
					t.Fatalf("position %v", p)
				}
			}
		})
		hashes = append(hashes, systems.StateHash(s.World))
	}
	assert.Equal(t, hashes[0], hashes[1], "1 and 3 workers")
}

// TestAgentsInBorderWallsAndACyclingDoor: agents spawned in a border
// wall two cells thick (in the corner, on the grid's edge, at x = 0.01), in a
// door and before it, reach a goal beyond the door while the door closes and
// opens every 10 frames for 10 s, for each kind of follower. (A door
// toggled every frame or two stalls flow followers and ORCA agents before it:
// a limit, see the review22 report.)
func TestAgentsInBorderWallsAndACyclingDoor(t *testing.T) {
	for _, kind := range []string{"flow", "sectors", "mover", "orca"} {
		t.Run(kind, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			g := grid.New(40, 20)
			// border wall two thick on the west and north
			for y := int32(0); y < 20; y++ {
				g.SetCost(grid.Cell{X: 0, Y: y}, grid.Blocked)
				g.SetCost(grid.Cell{X: 1, Y: y}, grid.Blocked)
			}
			for x := int32(0); x < 40; x++ {
				g.SetCost(grid.Cell{X: x, Y: 0}, grid.Blocked)
				g.SetCost(grid.Cell{X: x, Y: 1}, grid.Blocked)
			}
			for y := int32(0); y < 20; y++ {
				if y < 8 || y > 11 {
					g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
					g.SetCost(grid.Cell{X: 21, Y: y}, grid.Blocked)
				}
			}
			arche.AddResource(w, g)
			goal := r2.Vec{X: 35.5, Y: 9.5}
			sp, err := systems.NewSpawner(w, escapeBundles(kind, g.CellAt(goal))...)
			require.NoError(t, err)
			in := []r2.Vec{{X: 0.01, Y: 0.01}, {X: 0.5, Y: 10.5}, {X: 1.9, Y: 1.9}, {X: 10.5, Y: 0.2}, {X: 20.2, Y: 8.5}, {X: 21.5, Y: 10.5}, {X: 18.5, Y: 9.5}}
			var es []arche.Entity
			for _, p := range in {
				es = append(es, sp.Spawn(p, func(a *systems.Spawned) {
					if kind == "mover" || kind == "orca" {
						a.MoveTo(goal)
					}
				}))
			}
			s := ecs.NewScheduler(escapeSystems(kind)...)
			s.Initialize(w)
			defer s.Finalize(w)
			pos := generic.NewMap1[components.Position](w)
			for f := range 1200 {
				c := float32(1)
				if f/10%2 == 0 {
					c = grid.Blocked
				}
				for y := int32(8); y <= 11; y++ {
					g.SetCost(grid.Cell{X: 20, Y: y}, c)
					g.SetCost(grid.Cell{X: 21, Y: y}, c)
				}
				s.Update(w)
			}
			for i, e := range es {
				p := pos.Get(e).Vec
				assert.Less(t, r2.Norm(r2.Sub(p, goal)), 2.0, "agent %d from %v at %v", i, in[i], p)
			}
		})
	}
}

// TestGatherKernelSameUnderChurn: Steer's gather gives the same
// state frame after frame with its assembly kernel and with its Go loop, for
// 1 to 3 workers, while agents of two kinds (odd counts) are removed and
// spawned, some lose their SteeringWeights (an archetype change), and some
// get a NaN or infinite position.
func TestGatherKernelSameUnderChurn(t *testing.T) {
	run := func(kernel bool, workers int) []uint64 {
		old := systems.SetGatherKernel(kernel)
		defer systems.SetGatherKernel(old)
		s := newAvoidScene(t, 30, 30, workers, nil)
		s.Sched = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{CellSize: 2}, &systems.PathQueue{},
			&systems.PathFollow{Workers: workers}, &systems.Steer{Workers: workers}, &systems.Movement{Workers: workers})
		sp, err := systems.NewSpawner(s.World, systems.Mover{})
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(1, 2))
		var live []arche.Entity
		spawn := func() {
			from := r2.Vec{X: 1 + 28*r.Float64(), Y: 1 + 28*r.Float64()}
			to := r2.Vec{X: 1 + 28*r.Float64(), Y: 1 + 28*r.Float64()}
			var e arche.Entity
			if r.IntN(3) == 0 {
				e = s.Spawner.Spawn(from, func(a *systems.Spawned) { a.MoveTo(to) })
			} else {
				e = sp.Spawn(from, func(a *systems.Spawned) {
					a.MoveTo(to)
					if r.IntN(4) == 0 {
						systems.Component[components.Kinematics](a).Radius *= 1.5
					}
				})
			}
			live = append(live, e)
		}
		for range 37 {
			spawn()
		}
		s.Sched.Initialize(s.World)
		defer s.Sched.Finalize(s.World)
		var hashes []uint64
		for f := range 240 {
			switch {
			case f%7 == 3 && len(live) > 0:
				k := r.IntN(len(live))
				s.World.RemoveEntity(live[k])
				live = append(live[:k], live[k+1:]...)
			case f%5 == 1:
				spawn()
			case f%11 == 4 && len(live) > 0:
				p := s.pos.Get(live[r.IntN(len(live))])
				if f%2 == 0 {
					p.X = math.NaN()
				} else {
					p.Y = math.Inf(1)
				}
			case f%13 == 6 && len(live) > 0:
				e := live[r.IntN(len(live))]
				if s.World.Has(e, arche.ComponentID[components.SteeringWeights](s.World)) {
					s.World.Remove(e, arche.ComponentID[components.SteeringWeights](s.World))
				}
			}
			s.Sched.Update(s.World)
			hashes = append(hashes, systems.StateHash(s.World))
		}
		return hashes
	}
	want := run(false, 1)
	for _, w := range []int{1, 2, 3} {
		assert.Equal(t, want, run(true, w), "kernel, %d workers", w)
		assert.Equal(t, want, run(false, w), "Go, %d workers", w)
	}
}
