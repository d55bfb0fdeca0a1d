package grid_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// gapGrid is 40×30 with a wall across row 15 pierced by a gap of 2 cells
// near the start (columns 5–6) and one of 4 cells far away (30–33).
func gapGrid() *grid.Grid {
	g := grid.New(40, 30)
	for x := int32(0); x < 40; x++ {
		if (x < 5 || x > 6) && (x < 30 || x > 33) {
			g.SetCost(grid.Cell{X: x, Y: 15}, grid.Blocked)
		}
	}
	return g
}

// minWallDistance returns the smallest distance from a point of the
// polyline through the path's cell centres to a blocked cell's square.
func minWallDistance(g *grid.Grid, path []grid.Cell) float64 {
	best := math.Inf(1)
	for i := 1; i < len(path); i++ {
		a, b := g.Center(path[i-1]), g.Center(path[i])
		for k := 0; k <= 20; k++ {
			t := float64(k) / 20
			px, py := a.X+(b.X-a.X)*t, a.Y+(b.Y-a.Y)*t
			for y := int32(-1); y <= int32(g.Height()); y++ {
				for x := int32(-1); x <= int32(g.Width()); x++ {
					if g.Passable(grid.Cell{X: x, Y: y}) {
						continue
					}
					dx := math.Max(0, math.Max(float64(x)-px, px-float64(x+1)))
					dy := math.Max(0, math.Max(float64(y)-py, py-float64(y+1)))
					best = math.Min(best, math.Hypot(dx, dy))
				}
			}
		}
	}
	return best
}

func TestClearanceFor(t *testing.T) {
	for _, tc := range []struct {
		r    float64
		want uint8
	}{{0, 1}, {0.3, 1}, {0.5, 1}, {0.51, 2}, {1, 2}, {1.5, 2}, {1.6, 3}, {math.NaN(), 1}, {1e9, 255}} {
		assert.Equal(t, tc.want, grid.ClearanceFor(tc.r), "r %v", tc.r)
	}
}

// A large agent's route never passes a gap narrower than its diameter: with
// the clearance of its radius the path takes the 4-cell gap, and every point
// of it stays at least the radius away from the walls; the A* of a
// non-uniform grid (float search) and JumpPoints (which then runs A*) agree.
func TestClearanceRouteAvoidsNarrowGap(t *testing.T) {
	start, goal := grid.Cell{X: 5, Y: 2}, grid.Cell{X: 5, Y: 27}
	const radius = 1.2 // diameter 2.4: fits the 4-cell gap, not the 2-cell one
	for _, tc := range []struct {
		name    string
		opt     grid.Options
		nonUnif bool
	}{
		{"astar", grid.Options{}, false},
		{"jps", grid.Options{JumpPoints: true}, false},
		{"float", grid.Options{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gapGrid()
			if tc.nonUnif {
				g.SetCost(grid.Cell{X: 39, Y: 0}, 2)
			}
			s := grid.NewSearchOptions(g, tc.opt)
			small, smallCost, err := s.Path(start, goal, nil)
			require.NoError(t, err)
			assert.InDelta(t, 25, smallCost, 1e-9, "a small agent goes straight through the near gap")
			assert.Less(t, minWallDistance(g, small), radius)

			opt := tc.opt
			opt.Clearance = grid.ClearanceFor(radius)
			require.NoError(t, s.SetOptions(opt))
			path, cost, err := s.Path(start, goal, nil)
			require.NoError(t, err)
			assert.Greater(t, cost, 40.0, "detours to the far gap")
			assert.GreaterOrEqual(t, minWallDistance(g, path), radius)
			for _, c := range path[1:] {
				assert.GreaterOrEqual(t, g.Clearance(c), opt.Clearance)
			}
			crossed := false
			for _, c := range path {
				if c.Y == 15 {
					crossed = true
					assert.True(t, c.X >= 30 && c.X <= 33, "crossed row 15 at %v", c)
				}
			}
			assert.True(t, crossed)

			// no route wide enough: unreachable, as is a goal by a wall
			opt.Clearance = grid.ClearanceFor(1.6)
			require.NoError(t, s.SetOptions(opt))
			_, _, err = s.Path(start, goal, nil)
			assert.ErrorIs(t, err, grid.ErrUnreachable)
			opt.Clearance = 2
			require.NoError(t, s.SetOptions(opt))
			_, _, err = s.Path(start, grid.Cell{X: 0, Y: 27}, nil)
			assert.ErrorIs(t, err, grid.ErrUnreachable, "the goal itself is too narrow")
			// the start is exempt: an agent by a wall can leave it
			_, _, err = s.Path(grid.Cell{X: 0, Y: 2}, goal, nil)
			assert.NoError(t, err)
		})
	}
}

// SmoothWide shortens a wide path without bringing it closer to the walls
// than the radius its clearance was chosen for.
func TestSmoothWideKeepsTheRadius(t *testing.T) {
	g := gapGrid()
	opt := grid.Options{Clearance: grid.ClearanceFor(1.2)}
	s := grid.NewSearchOptions(g, opt)
	path, _, err := s.Path(grid.Cell{X: 5, Y: 2}, grid.Cell{X: 5, Y: 27}, nil)
	require.NoError(t, err)
	smooth := grid.SmoothWide(g, path, nil, opt.Clearance)
	assert.Less(t, len(smooth), len(path)/3, "it shortens")
	assert.Equal(t, path[0], smooth[0])
	assert.Equal(t, path[len(path)-1], smooth[len(smooth)-1])
	assert.GreaterOrEqual(t, minWallDistance(g, smooth[1:]), 1.2)
	// plain Smooth cuts closer to the walls
	assert.Less(t, minWallDistance(g, grid.Smooth(g, path, nil)[1:]), 1.2)
	assert.Equal(t, grid.Smooth(g, path, nil), grid.SmoothWide(g, path, nil, 1))
	// LineOfSightWide: through the 4-cell gap's middle with clearance 2, not 3
	a, b := r2Vec(32, 10), r2Vec(32, 20)
	assert.True(t, g.LineOfSightWide(a, b, 2))
	assert.False(t, g.LineOfSightWide(a, b, 3))
	assert.Equal(t, g.LineOfSight(a, b), g.LineOfSightWide(a, b, 1))
}

func r2Vec(x, y float64) r2.Vec { return r2.Vec{X: x, Y: y} }
