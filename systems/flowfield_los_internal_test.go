package systems

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestLineOfSightFromBitmap: lineOfSight over the bitmap of blocked cells
// answers exactly as grid.Grid.LineOfSightBlocker (the same blocker and
// the same verdict) for random segments, segments along grid lines, through
// grid corners, from and to cell centres, leaving the grid, and with NaN
// or huge coordinates; and after an edit, once the bitmap is updated.
func TestLineOfSightFromBitmap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	g := grid.New(70, 45)
	for range 500 {
		g.SetCost(grid.Cell{X: int32(rng.IntN(70)), Y: int32(rng.IntN(45))}, grid.Blocked)
	}
	for y := int32(5); y < 40; y++ {
		g.SetCost(grid.Cell{X: 33, Y: y}, grid.Blocked)
	}
	var sight openCells
	sight.bitsOnly = true
	point := func() r2.Vec {
		switch rng.IntN(6) {
		case 0: // a cell centre
			return g.Center(grid.Cell{X: int32(rng.IntN(70)), Y: int32(rng.IntN(45))})
		case 1: // a grid corner
			return r2.Vec{X: float64(rng.IntN(71)), Y: float64(rng.IntN(46))}
		case 2: // on a grid line
			return r2.Vec{X: float64(rng.IntN(71)), Y: rng.Float64() * 45}
		case 3: // around the grid
			return r2.Vec{X: rng.Float64()*90 - 10, Y: rng.Float64()*65 - 10}
		default:
			return r2.Vec{X: rng.Float64() * 70, Y: rng.Float64() * 45}
		}
	}
	check := func(a, b r2.Vec) {
		wantCell, want := g.LineOfSightBlocker(a, b)
		gotCell, got := lineOfSight(&sight, g, a, b)
		require.Equal(t, want, got, "%v to %v", a, b)
		require.Equal(t, wantCell, gotCell, "%v to %v", a, b)
	}
	clear, blocked := 0, 0
	for pass := range 2 {
		if pass == 1 { // an edit: a door opened in the wall, others closed
			for y := int32(18); y < 24; y++ {
				g.SetCost(grid.Cell{X: 33, Y: y}, 1)
			}
			for x := int32(10); x < 30; x++ {
				g.SetCost(grid.Cell{X: x, Y: 12}, grid.Blocked)
			}
		}
		sight.update(g)
		for range 40000 {
			a, b := point(), point()
			switch rng.IntN(8) {
			case 0: // along the same row or column
				b.Y = a.Y
			case 1:
				b.X = a.X
			case 2: // a diagonal through corners
				d := float64(rng.IntN(20) - 10)
				a = r2.Vec{X: math.Floor(a.X), Y: math.Floor(a.Y)}
				b = r2.Vec{X: a.X + d, Y: a.Y + d}
			}
			if _, ok := g.LineOfSightBlocker(a, b); ok {
				clear++
			} else {
				blocked++
			}
			check(a, b)
		}
	}
	require.Greater(t, clear, 3000)
	require.Greater(t, blocked, 5000)
	for _, a := range []r2.Vec{{X: math.NaN(), Y: 3}, {X: 3, Y: math.NaN()}, {X: 1e300, Y: 2}, {X: -1e300, Y: -5}, {X: 35, Y: 20}} {
		check(a, r2.Vec{X: 10.5, Y: 20.5})
		check(r2.Vec{X: 10.5, Y: 20.5}, a)
	}
}

// TestUnitAsR2: unit gives r2.Unit's bits for vectors of every scale
// (subnormal to huge), signs, on the axes, and zero, infinite or NaN.
func TestUnitAsR2(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
	}
	vs := []r2.Vec{{}, {X: 1}, {Y: -2}, {X: 3, Y: 4}, {X: math.Inf(1), Y: 2}, {X: 1, Y: math.NaN()},
		{X: 5e-324, Y: 0}, {X: 1e308, Y: 1e308}, {X: -1e-310, Y: 3e-310}, {X: math.MaxFloat64, Y: -math.MaxFloat64}}
	for range 200000 {
		v := r2.Vec{X: rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20)), Y: rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))}
		switch rng.IntN(5) {
		case 0:
			v.Y = v.X * float64(rng.IntN(3)-1)
		case 1:
			v.X = 0
		}
		vs = append(vs, v)
	}
	for _, v := range vs {
		want, got := r2.Unit(v), unit(v)
		require.True(t, same(want.X, got.X) && same(want.Y, got.Y), "%v: %v, want %v", v, got, want)
	}
}
