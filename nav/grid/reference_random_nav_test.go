package grid_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/internal/gridtest"
	"github.com/archai-go/archai/nav/grid"
)

// checkPath validates a path's moves and recomputes its cost.
func checkPath(t *testing.T, g *grid.Grid, p []grid.Cell, moves4 bool, clr uint8) float64 {
	t.Helper()
	ok := func(c grid.Cell) bool {
		return g.Passable(c) && (clr <= 1 || gridtest.Clearance(g, c) >= int(clr))
	}
	sum := 0.0
	for i := 1; i < len(p); i++ {
		a, b := p[i-1], p[i]
		dx, dy := b.X-a.X, b.Y-a.Y
		if max(dx, -dx) > 1 || max(dy, -dy) > 1 || (dx == 0 && dy == 0) {
			t.Fatalf("bad step %v→%v", a, b)
		}
		if !ok(b) {
			t.Fatalf("enters %v (clearance %d, want %d)", b, gridtest.Clearance(g, b), clr)
		}
		c := float64(g.Cost(b))
		if dx != 0 && dy != 0 {
			if moves4 {
				t.Fatalf("diagonal with Moves4")
			}
			if !ok(grid.Cell{X: a.X + dx, Y: a.Y}) || !ok(grid.Cell{X: a.X, Y: a.Y + dy}) {
				t.Fatalf("cuts a corner %v→%v", a, b)
			}
			c *= math.Sqrt2
		}
		sum += c
	}
	return sum
}

func costsUpTo(costs bool) int {
	if costs {
		return 4
	}
	return 0
}

type cfg struct {
	name  string
	opt   grid.Options
	costs bool // one in three open cells cost 1 to 4
}

// A*, jump points, 4-connected, other heuristics and wide searches (also with costs) on
// small random grids, whole and sliced with an edit between steps, and after random edits:
// cost equal to brute-force Dijkstra, unreachable exactly when it finds no route, paths
// legal and costing what is reported.
func TestSearchMatchesBruteForceDijkstraAcrossOptionsAndEdits(t *testing.T) {
	cfgs := []cfg{
		{"astar", grid.Options{}, false},
		{"astar-costs", grid.Options{}, true},
		{"jps", grid.Options{JumpPoints: true}, false},
		{"m4", grid.Options{Moves: grid.Moves4}, false},
		{"m4-costs", grid.Options{Moves: grid.Moves4}, true},
		{"eucl", grid.Options{Heuristic: grid.EuclideanHeuristic}, true},
		{"zero", grid.Options{Heuristic: grid.ZeroHeuristic}, false},
		{"hf", grid.Options{HeuristicFunc: func(a, b grid.Cell) float64 { return grid.Octile(a, b) * 0.5 }}, false},
		{"c2", grid.Options{Clearance: 2}, false},
		{"c3", grid.Options{Clearance: 3}, false},
		{"c2-costs", grid.Options{Clearance: 2}, true},
		{"c2-m4", grid.Options{Clearance: 2, Moves: grid.Moves4}, false},
		{"c2-jps", grid.Options{Clearance: 2, JumpPoints: true}, false},
	}
	for _, cf := range cfgs {
		t.Run(cf.name, func(t *testing.T) {
			for seed := uint64(0); seed < 60; seed++ {
				r := rand.New(rand.NewPCG(seed, 7))
				w, h := 1+r.IntN(14), 1+r.IntN(14)
				dens := []float64{0, 0.1, 0.2, 0.3, 0.45}[r.IntN(5)]
				if cf.opt.Clearance > 1 {
					w, h = 4+r.IntN(16), 4+r.IntN(16)
					dens /= 3
				}
				g := gridtest.RandomGrid(r, w, h, dens, costsUpTo(cf.costs))
				s := grid.NewSearchOptions(g, cf.opt)
				m4 := cf.opt.Moves == grid.Moves4
				for round := 0; round < 6; round++ {
					for q := 0; q < 8; q++ {
						a := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
						b := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
						var p []grid.Cell
						var cost float64
						var err error
						if q%2 == 1 {
							// sliced with an edit in the middle sometimes
							err = s.Start(a, b)
							if err == nil {
								for steps := 0; ; steps++ {
									if steps == 2 && r.IntN(2) == 0 {
										e := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
										if e != a && e != b {
											if g.Passable(e) {
												g.SetCost(e, grid.Blocked)
											} else {
												g.SetCost(e, 1)
											}
										}
									}
									if _, done := s.Step(1 + r.IntN(3)); done {
										break
									}
								}
								p, cost, err = s.Result(nil)
							}
						} else {
							p, cost, err = s.Path(a, b, nil)
						}
						if !g.Passable(a) || !g.Passable(b) {
							if !errors.Is(err, grid.ErrBlocked) {
								// an edit during a sliced search may block start/goal
								t.Fatalf("seed %d %v→%v: blocked end, err %v", seed, a, b, err)
							}
							continue
						}
						if cf.opt.JumpPoints && cf.costs {
							continue
						}
						d := gridtest.From(g, a, m4, cf.opt.Clearance)
						want := d[int(b.Y)*w+int(b.X)]
						if a == b {
							want = 0
						}
						if cf.opt.Clearance > 1 && a != b && gridtest.Clearance(g, b) < int(cf.opt.Clearance) {
							want = math.Inf(1)
						}
						if math.IsInf(want, 1) {
							if !errors.Is(err, grid.ErrUnreachable) {
								t.Fatalf("seed %d round %d %v→%v: want unreachable, got %v cost %v path %v\n%s", seed, round, a, b, err, cost, p, gridtest.Dump(g))
							}
							continue
						}
						if err != nil {
							t.Fatalf("seed %d round %d %v→%v: err %v, want %v\n%s", seed, round, a, b, err, want, gridtest.Dump(g))
						}
						if p[0] != a || p[len(p)-1] != b {
							t.Fatalf("ends %v", p)
						}
						got := checkPath(t, g, p, m4, cf.opt.Clearance)
						if math.Abs(got-cost) > 1e-6*max(1, cost) {
							t.Fatalf("seed %d: reported cost %v, path's %v", seed, cost, got)
						}
						if math.Abs(want-cost) > 1e-6*max(1, want) {
							t.Fatalf("seed %d round %d %v→%v %s: cost %v want %v path %v\n%s", seed, round, a, b, cf.name, cost, want, p, gridtest.Dump(g))
						}
					}
					// random edits
					for k := 0; k < 1+r.IntN(4); k++ {
						e := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
						switch r.IntN(3) {
						case 0:
							g.SetCost(e, grid.Blocked)
						case 1:
							g.SetCost(e, 1)
						case 2:
							if cf.costs {
								g.SetCost(e, float32(1+r.IntN(5)))
							} else {
								g.SetCost(e, 1)
							}
						}
					}
				}
			}
		})
	}
}
