package systems_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/internal/gridtest"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// The PathQueue under churn: 30 requesters of radii 0.3 to 1.6 (goals on and off the grid),
// requesters removed and spawned, goals changed with and without Want, cells opened and
// closed, a budget of 1 to 60 expansions a frame: once the churn stops every requester is
// answered, and each answer is right for the grid as it is (PathUnreachable exactly when
// brute-force Dijkstra with its clearance finds no route; a path's ends, cells, clearance
// and smoothed segments legal).
func TestPathQueueUnderChurnAnswersRight(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		r := rand.New(rand.NewPCG(seed, 4))
		world := arche.NewWorld()
		w := &world
		W, H := 30, 25
		g := grid.New(W, H)
		for k := 0; k < 120; k++ {
			g.SetCost(grid.Cell{X: int32(r.IntN(W)), Y: int32(r.IntN(H))}, grid.Blocked)
		}
		arche.AddResource(w, g)
		pq := &systems.PathQueue{Budget: 1 + r.IntN(60), Smooth: seed%2 == 0}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), pq)
		s.Initialize(w)
		m := generic.NewMap3[components.Path, components.Position, components.Kinematics](w)
		type ag struct {
			e     arche.Entity
			r     float64
			dirty bool
		}
		var agents []ag
		spawn := func() {
			e := m.New()
			p, pos, k := m.Get(e)
			pos.Vec = r2.Vec{X: 0.5 + float64(r.IntN(W)), Y: 0.5 + float64(r.IntN(H))}
			k.Radius = []float64{0.3, 0.3, 1.0, 1.6}[r.IntN(4)]
			p.Want = true
			p.Goal = grid.Cell{X: int32(r.IntN(W+2)) - 1, Y: int32(r.IntN(H+2)) - 1}
			agents = append(agents, ag{e, k.Radius, false})
		}
		for k := 0; k < 30; k++ {
			spawn()
		}
		for f := 0; f < 3000; f++ {
			if f < 250 {
				switch r.IntN(6) {
				case 0:
					if len(agents) > 0 {
						i := r.IntN(len(agents))
						w.RemoveEntity(agents[i].e)
						agents = append(agents[:i], agents[i+1:]...)
					}
				case 1:
					spawn()
				case 2:
					c := grid.Cell{X: int32(r.IntN(W)), Y: int32(r.IntN(H))}
					if g.Passable(c) {
						g.SetCost(c, grid.Blocked)
					} else {
						g.SetCost(c, 1)
					}
				case 3:
					if len(agents) > 0 {
						a := &agents[r.IntN(len(agents))]
						p, _, _ := m.Get(a.e)
						p.Goal = grid.Cell{X: int32(r.IntN(W)), Y: int32(r.IntN(H))}
						p.Want = r.IntN(3) != 0
						a.dirty = a.dirty || (!p.Want && p.State != components.PathPending)
					}
				}
			}
			s.Update(w)
		}
		// quiescent: every agent answered, and the answer is right
		for _, a := range agents {
			p, pos, _ := m.Get(a.e)
			if a.dirty || (p.State == components.PathNone && !p.Want) {
				continue // never asked again after a goal change without Want
			}
			if p.State == components.PathPending || p.Want {
				t.Fatalf("seed %d budget %d waiting %d: agent still pending after quiet frames: %+v", seed, pq.Budget, pq.Waiting, *p)
			}
			start := g.CellAt(pos.Vec)
			clr := grid.ClearanceFor(a.r)
			if !g.Passable(start) {
				continue // exit rule, not checked here
			}
			d := gridtest.From(g, start, false, clr)
			want := math.Inf(1)
			if g.InBounds(p.Goal) && g.Passable(p.Goal) && (clr <= 1 || g.Clearance(p.Goal) >= clr || p.Goal == start) {
				want = d[int(p.Goal.Y)*W+int(p.Goal.X)]
				if p.Goal == start {
					want = 0
				}
			}
			switch p.State {
			case components.PathUnreachable:
				if !math.IsInf(want, 1) {
					t.Fatalf("seed %d: r %v from %v to %v unreachable, but %v", seed, a.r, start, p.Goal, want)
				}
			case components.PathReady:
				if math.IsInf(want, 1) {
					t.Fatalf("seed %d: r %v from %v to %v ready %v, but unreachable", seed, a.r, start, p.Goal, p.Waypoints)
				}
				wp := p.Waypoints
				if wp[0] != start || wp[len(wp)-1] != p.Goal {
					t.Fatalf("seed %d: ends %v (start %v goal %v)", seed, wp, start, p.Goal)
				}
				for i := 1; i < len(wp); i++ {
					if !g.Passable(wp[i]) {
						t.Fatalf("seed %d: waypoint %v blocked in %v", seed, wp[i], wp)
					}
					if !pq.Smooth {
						if clr > 1 && g.Clearance(wp[i]) < clr {
							t.Fatalf("seed %d: r %v waypoint %v too narrow", seed, a.r, wp[i])
						}
					} else {
						k := clr + 1
						if clr <= 1 {
							if !g.LineOfSight(g.Center(wp[i-1]), g.Center(wp[i])) {
								t.Fatalf("seed %d: smoothed segment %v→%v blocked", seed, wp[i-1], wp[i])
							}
						} else if i > 1 && i < len(wp)-1 && !g.LineOfSightWide(g.Center(wp[i-1]), g.Center(wp[i]), k) {
							// grid steps between consecutive cells are allowed at c
							dx, dy := wp[i].X-wp[i-1].X, wp[i].Y-wp[i-1].Y
							if dx*dx > 1 || dy*dy > 1 {
								t.Fatalf("seed %d: r %v smoothed segment %v→%v not wide", seed, a.r, wp[i-1], wp[i])
							}
						}
					}
				}
			default:
				t.Fatalf("seed %d: state %v", seed, p.State)
			}
		}
		s.Finalize(w)
	}
}
