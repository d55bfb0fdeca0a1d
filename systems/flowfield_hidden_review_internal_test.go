package systems

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Review of hiddenNear on tiny and odd-width grids (1 to 3 rows, 1 to 3
// and 63 to 65 columns: the bitmap's word edge), half their cells blocked,
// with end points on cell corners, on grid lines, exactly on 45° diagonals
// through corners, on the map's edges and off the map: for every hint cell
// of the grid and a ring around it, a segment hiddenNear calls hidden has no
// line of sight, and the hint moves only to a blocked cell next to it.
func TestHiddenNearTinyGridsAndCorners(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	total := 0
	defer func() { require.Greater(t, total, 1000, "hidden segments met") }()
	for _, w := range []int{1, 2, 3, 63, 64, 65} {
		for _, h := range []int{1, 2, 3} {
			g := grid.New(w, h)
			for y := range h {
				for x := range w {
					if rng.IntN(2) == 0 {
						g.SetCost(grid.Cell{X: int32(x), Y: int32(y)}, grid.Blocked)
					}
				}
			}
			var o openCells
			o.bitsOnly = true
			o.update(g)
			point := func() r2.Vec {
				switch rng.IntN(5) {
				case 0: // a corner, on or off the map
					return r2.Vec{X: float64(rng.IntN(w+3) - 1), Y: float64(rng.IntN(h+3) - 1)}
				case 1: // a centre
					return r2.Vec{X: float64(rng.IntN(w)) + 0.5, Y: float64(rng.IntN(h)) + 0.5}
				case 2: // on the map's edge
					return r2.Vec{X: rng.Float64() * float64(w), Y: float64(h * rng.IntN(2))}
				}
				return r2.Vec{X: rng.Float64()*float64(w+2) - 1, Y: rng.Float64()*float64(h+2) - 1}
			}
			said := 0
			for range 400 {
				p, q := point(), point()
				if rng.IntN(4) == 0 { // a 45° diagonal from p, through corners when p is one
					k := float64(rng.IntN(4) + 1)
					q = r2.Vec{X: p.X + k*float64(1-2*rng.IntN(2)), Y: p.Y + k*float64(1-2*rng.IntN(2))}
				}
				los := g.LineOfSight(p, q)
				for y := int32(-2); y < int32(h)+2; y++ {
					for x := int32(-2); x < int32(w)+2; x++ {
						hint := grid.Cell{X: x, Y: y}
						if hiddenNear(&o, p, q, &hint) {
							said++
							if los || g.Passable(hint) || max(absInt32(hint.X-x), absInt32(hint.Y-y)) > 1 { // testify only on a mismatch
								require.False(t, los, "%dx%d: %v→%v near %v (moved to %v)", w, h, p, q, grid.Cell{X: x, Y: y}, hint)
								require.False(t, g.Passable(hint))
								require.LessOrEqual(t, max(absInt32(hint.X-x), absInt32(hint.Y-y)), int32(1))
							}
						} else if hint != (grid.Cell{X: x, Y: y}) {
							require.Equal(t, grid.Cell{X: x, Y: y}, hint)
						}
					}
				}
			}
			total += said
		}
	}
}
