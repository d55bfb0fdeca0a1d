package grid_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/internal/gridtest"
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// segBoxDist: distance between segment pq and box [x0,x1]×[y0,y1] (0 if they meet).
func segBoxDist(p, q r2.Vec, x0, y0, x1, y1 float64) float64 {
	// Liang-Barsky intersection
	t0, t1 := 0.0, 1.0
	dx, dy := q.X-p.X, q.Y-p.Y
	inter := true
	for _, e := range [4][2]float64{{-dx, p.X - x0}, {dx, x1 - p.X}, {-dy, p.Y - y0}, {dy, y1 - p.Y}} {
		pp, qq := e[0], e[1]
		if pp == 0 {
			if qq < 0 {
				inter = false
				break
			}
			continue
		}
		r := qq / pp
		if pp < 0 {
			t0 = math.Max(t0, r)
		} else {
			t1 = math.Min(t1, r)
		}
		if t0 > t1 {
			inter = false
			break
		}
	}
	if inter {
		return 0
	}
	ptBox := func(a r2.Vec) float64 {
		ddx := math.Max(0, math.Max(x0-a.X, a.X-x1))
		ddy := math.Max(0, math.Max(y0-a.Y, a.Y-y1))
		return math.Hypot(ddx, ddy)
	}
	ptSeg := func(a r2.Vec) float64 {
		l2 := dx*dx + dy*dy
		t := 0.0
		if l2 > 0 {
			t = ((a.X-p.X)*dx + (a.Y-p.Y)*dy) / l2
			t = math.Max(0, math.Min(1, t))
		}
		return math.Hypot(p.X+t*dx-a.X, p.Y+t*dy-a.Y)
	}
	d := math.Min(ptBox(p), ptBox(q))
	for _, c := range []r2.Vec{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}} {
		d = math.Min(d, ptSeg(c))
	}
	return d
}

// minWallDist: distance from the segment to the nearest blocked cell or the outside of the grid
func minWallDist(g *grid.Grid, p, q r2.Vec) (float64, grid.Cell) {
	best, at := math.Inf(1), grid.Cell{}
	for y := -1; y <= g.Height(); y++ {
		for x := -1; x <= g.Width(); x++ {
			c := grid.Cell{X: int32(x), Y: int32(y)}
			if g.Passable(c) {
				continue
			}
			x0, y0 := float64(x), float64(y)
			x1, y1 := x0+1, y0+1
			// the outside extends to infinity
			if x == -1 {
				x0 = -1e9
			}
			if y == -1 {
				y0 = -1e9
			}
			if x == g.Width() {
				x1 = 1e9
			}
			if y == g.Height() {
				y1 = 1e9
			}
			if d := segBoxDist(p, q, x0, y0, x1, y1); d < best {
				best, at = d, c
			}
		}
	}
	return best, at
}

// crossesStrictly: for radius 0 — segment enters a blocked cell's interior, or passes a corner between two diagonally opposite blocked cells.
func badThin(g *grid.Grid, p, q r2.Vec) string {
	// sample densely
	n := 2000
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		x, y := p.X+t*(q.X-p.X), p.Y+t*(q.Y-p.Y)
		// interior test with small inset
		fx, fy := math.Floor(x), math.Floor(y)
		if x-fx > 1e-9 && y-fy > 1e-9 && !g.Passable(grid.Cell{X: int32(fx), Y: int32(fy)}) {
			return "enters a blocked cell"
		}
	}
	// corners: check each integer corner point on the segment
	for y := 0; y <= g.Height(); y++ {
		for x := 0; x <= g.Width(); x++ {
			c := r2.Vec{X: float64(x), Y: float64(y)}
			// is c on segment?
			dx, dy := q.X-p.X, q.Y-p.Y
			cr := (c.X-p.X)*dy - (c.Y-p.Y)*dx
			if math.Abs(cr) > 1e-9 {
				continue
			}
			dot := (c.X-p.X)*dx + (c.Y-p.Y)*dy
			if dot <= 1e-12 || dot >= dx*dx+dy*dy-1e-12 {
				continue
			}
			if dx == 0 || dy == 0 {
				continue
			}
			X, Y := int32(x), int32(y)
			// the segment passes the corner diagonally: it goes from one quadrant to the opposite one
			var a, b grid.Cell
			if (dx > 0) == (dy > 0) {
				a, b = grid.Cell{X: X, Y: Y - 1}, grid.Cell{X: X - 1, Y: Y}
			} else {
				a, b = grid.Cell{X: X - 1, Y: Y - 1}, grid.Cell{X: X, Y: Y}
			}
			if !g.Passable(a) || !g.Passable(b) {
				return "cuts a corner"
			}
		}
	}
	return ""
}

// Smooth never crosses a blocked cell nor squeezes between two blocked cells sharing a
// corner; SmoothWide at clearance c (and the grid path itself) keeps every segment at least
// c − 0.5 from every blocked cell and the grid's edge (exact segment-to-square distances),
// the start exempt.
func TestSmoothedPathsKeepTheirRadiusOffTheWalls(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		r := rand.New(rand.NewPCG(seed, 11))
		w, h := 3+r.IntN(20), 3+r.IntN(20)
		g := gridtest.RandomGrid(r, w, h, []float64{0.05, 0.1, 0.2, 0.3}[r.IntN(4)], 0)
		for _, c := range []uint8{1, 2, 3, 4} {
			s := grid.NewSearchOptions(g, grid.Options{Clearance: c})
			for q := 0; q < 10; q++ {
				a := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
				b := grid.Cell{X: int32(r.IntN(w)), Y: int32(r.IntN(h))}
				p, _, err := s.Path(a, b, nil)
				if err != nil {
					continue
				}
				var sm []grid.Cell
				if c <= 1 {
					sm = grid.Smooth(g, p, nil)
				} else {
					sm = grid.SmoothWide(g, p, nil, c)
				}
				for i := 1; i < len(sm); i++ {
					pa, pb := g.Center(sm[i-1]), g.Center(sm[i])
					if c <= 1 {
						if why := badThin(g, pa, pb); why != "" {
							t.Fatalf("seed %d: smoothed segment %v→%v %s\npath %v\nsmoothed %v\n%s", seed, sm[i-1], sm[i], why, p, sm, gridtest.Dump(g))
						}
						continue
					}
					// first and last segments: start exempt
					if i == 1 && gridtest.Clearance(g, sm[0]) < int(c) {
						continue
					}
					d, at := minWallDist(g, pa, pb)
					if d < float64(c)-0.5-1e-9 {
						t.Fatalf("seed %d c %d: smoothed segment %v→%v passes %v at %v (< %v)\npath %v\nsmoothed %v\n%s", seed, c, sm[i-1], sm[i], at, d, float64(c)-0.5, p, sm, gridtest.Dump(g))
					}
				}
				// the grid path itself
				if c > 1 {
					for i := 1; i < len(p); i++ {
						if i == 1 {
							continue
						}
						d, at := minWallDist(g, g.Center(p[i-1]), g.Center(p[i]))
						if d < float64(c)-0.5-1e-9 {
							t.Fatalf("seed %d c %d: grid step %v→%v passes %v at %v", seed, c, p[i-1], p[i], at, d)
						}
					}
				}
			}
		}
	}
}
