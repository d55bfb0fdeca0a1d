package grid

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// segmentClear checks a segment independently of LineOfSight by dense
// sampling: every sample's cell must be passable, and where the segment
// passes within eps of a grid corner, the cells on both sides of the corner
// too (a diagonal squeeze between two blocked cells is a wall).
func segmentClear(g *Grid, a, b r2.Vec) bool {
	const step, eps = 1e-3, 2e-3
	n := int(math.Ceil(r2.Norm(r2.Sub(b, a))/step)) + 1
	for i := 0; i <= n; i++ {
		p := r2.Add(a, r2.Scale(float64(i)/float64(n), r2.Sub(b, a)))
		if !g.Passable(g.CellAt(p)) {
			return false
		}
		fx, fy := math.Round(p.X), math.Round(p.Y)
		if math.Abs(p.X-fx) < eps && math.Abs(p.Y-fy) < eps {
			x, y := int32(fx), int32(fy)
			// the four cells around the corner: both diagonal pairs must not be blocked together
			c00, c10 := g.Passable(Cell{x - 1, y - 1}), g.Passable(Cell{x, y - 1})
			c01, c11 := g.Passable(Cell{x - 1, y}), g.Passable(Cell{x, y})
			if (!c10 && !c01) || (!c00 && !c11) {
				return false
			}
		}
	}
	return true
}

func TestSmoothNeverCrossesWalls(t *testing.T) {
	rng := newRand(21)
	total, kept := 0, 0
	for trial := 0; trial < 40; trial++ {
		g := randomGrid(rng, 48, 36, 15+trial%25, false)
		s := NewSearch(g)
		for q := 0; q < 25; q++ {
			a := Cell{int32(rng.Intn(48)), int32(rng.Intn(36))}
			b := Cell{int32(rng.Intn(48)), int32(rng.Intn(36))}
			path, _, err := s.Path(a, b, nil)
			if err != nil {
				continue
			}
			sm := Smooth(g, path, nil)
			require.Equal(t, a, sm[0])
			require.Equal(t, b, sm[len(sm)-1])
			for i := 1; i < len(sm); i++ {
				require.True(t, segmentClear(g, g.Center(sm[i-1]), g.Center(sm[i])),
					"trial %d: segment %v->%v crosses a wall", trial, sm[i-1], sm[i])
			}
			// waypoints are a subsequence of the path, and the smoothed length is no longer
			var l0, l1 float64
			for i := 1; i < len(path); i++ {
				l0 += Euclidean(path[i-1], path[i])
			}
			for i := 1; i < len(sm); i++ {
				l1 += Euclidean(sm[i-1], sm[i])
			}
			require.LessOrEqual(t, l1, l0+1e-9)
			inPlace := Smooth(g, path, path)
			require.Equal(t, sm, inPlace)
			total += len(path)
			kept += len(sm)
		}
	}
	t.Logf("smoothing kept %d of %d cells", kept, total)
}

func TestSmoothCornerRule(t *testing.T) {
	// ..@
	// .@.
	// ...   (0,0)->(2,2) through the gap between (2,0)... the diagonal
	//       (1,0)->(2,1) squeezes between blocked (1,1) and (2,0): not allowed.
	g := New(3, 3)
	g.SetCost(Cell{2, 0}, Blocked)
	g.SetCost(Cell{1, 1}, Blocked)
	path := []Cell{{0, 0}, {0, 1}, {0, 2}, {1, 2}, {2, 2}}
	sm := Smooth(g, path, nil)
	assert.Equal(t, []Cell{{0, 0}, {0, 2}, {2, 2}}, sm)
	assert.Equal(t, []Cell{{0, 0}, {1, 1}}, Smooth(g, []Cell{{0, 0}, {1, 1}}, nil))
}
