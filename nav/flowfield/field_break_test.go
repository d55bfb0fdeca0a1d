package flowfield

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// TestBuildExactOnTinyAndEditedGrids: one field per grid, rebuilt after
// edits (walls in and out anywhere, the edge rows and columns included, and
// second costs), on grids from 1×1 to 1×N, N×1 and small squares, with goals
// that are blocked, off the grid, repeated or absent, built at once or spread
// over steps of random budgets, some after a build abandoned half-way for
// other goals, some with a grid edit between steps (the build finishes on
// the costs it started with and reports Stale). Every complete build must
// equal Dijkstra and the heap build, with every direction a legal move
// downhill (requireCompactDirs).
func TestBuildExactOnTinyAndEditedGrids(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	sizes := [][2]int{{1, 1}, {1, 2}, {2, 1}, {1, 7}, {9, 1}, {2, 2}, {3, 3}, {5, 2}, {2, 6}, {8, 8}, {13, 5}, {64, 1}, {1, 64}, {100, 80}}
	costSets := [][]float32{{1}, {1, 2}, {0.25, 7}, {1e-30, 1e-29}, {1e30, 3e30}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}
	for _, sz := range sizes {
		w, h := sz[0], sz[1]
		for ci, costs := range costSets {
			g := grid.New(w, h)
			for i := range w * h { // (no cost of 1 beside 1e30: float32 sums absorb it)
				g.SetCost(grid.Cell{X: int32(i % w), Y: int32(i / w)}, costs[0])
			}
			f := New(g)
			for round := range 25 {
				// edits: walls and costs anywhere, the edge rows and columns included
				for range 1 + rng.IntN(min(w*h, 40)) {
					c := grid.Cell{X: int32(rng.IntN(w)), Y: int32(rng.IntN(h))}
					if rng.IntN(4) == 0 {
						g.SetCost(c, grid.Blocked)
					} else {
						g.SetCost(c, costs[rng.IntN(len(costs))])
					}
				}
				var goals []grid.Cell
				for range rng.IntN(4) {
					goals = append(goals, grid.Cell{X: int32(rng.IntN(w+2)) - 1, Y: int32(rng.IntN(h+2)) - 1})
				}
				// compare on the costs the build starts with
				want := dijkstra64(g, goals...)
				ref := newRef(g)
				ref.build(goals...)
				if rng.IntN(2) == 0 {
					f.Build(goals...)
				} else {
					if rng.IntN(2) == 0 { // a build abandoned half-way for other goals
						f.Start(grid.Cell{X: int32(rng.IntN(w)), Y: int32(rng.IntN(h))})
						f.Step(1 + rng.IntN(w*h))
					}
					f.Start(goals...)
					v0, edited := g.Version(), false
					for !f.Step(1 + rng.IntN(5+w*h/20)) {
						for _, c := range []grid.Cell{{X: 0, Y: 0}, {X: int32(w - 1), Y: int32(h - 1)}} {
							// settled cells read their values, the others +Inf
							if v := f.Integration(c); !math.IsInf(v, 1) {
								_, ok := f.Next(c)
								require.True(t, ok)
							}
						}
						if !edited && rng.IntN(3) == 0 {
							c := grid.Cell{X: int32(rng.IntN(w)), Y: int32(rng.IntN(h))}
							g.SetCost(c, []float32{grid.Blocked, costs[0]}[rng.IntN(2)])
							edited = true
						}
					}
					require.Equal(t, g.Version() != v0, f.Stale(), "stale exactly when a cost changed during the build")
				}
				requireSameOnCosts(t, f, w, want, ref, sz, ci, round)
			}
		}
	}
}

// requireSameOnCosts is requireSame without the grid (which may have
// changed since the build started), with the case in the message.
func requireSameOnCosts(t *testing.T, f *Field, w int, want []float64, ref *refField, sz [2]int, ci, round int) {
	t.Helper()
	for i, d := range want {
		c := grid.Cell{X: int32(i % w), Y: int32(i / w)}
		got, old := f.Integration(c), float64(ref.integ[i])
		if math.IsInf(old, 1) && !math.IsInf(d, 1) {
			d = old // costs near MaxFloat32: float32 sums overflow, as the heap build's
		}
		if math.IsInf(d, 1) {
			if !math.IsInf(got, 1) { // testify (a stack walk) only on a mismatch
				require.True(t, math.IsInf(got, 1), "%v costs %d round %d cell %v: want unreachable, got %v", sz, ci, round, c, got)
			}
			continue
		}
		tol := 1e-5 * d
		if !(math.Abs(got-d) <= tol && math.Abs(got-old) <= tol) {
			require.True(t, math.Abs(got-d) <= tol && math.Abs(got-old) <= tol,
				"%v costs %d round %d cell %v: got %v, float64 Dijkstra %v, heap build %v", sz, ci, round, c, got, d, old)
		}
	}
	requireCompactDirs(t, f)
}
