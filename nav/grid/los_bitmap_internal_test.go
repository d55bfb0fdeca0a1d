package grid

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestLineOfSightFromBitmap: LineOfSightBlocker on a prepared grid (the walk
// reads the bitmap of blocked cells Prepare built and SetCost keeps) answers
// exactly as on a grid never prepared (the walk reads the costs): the same
// blocker and verdict for random segments, segments along grid lines, through
// grid corners, from and to cell centres, leaving the grid, and with NaN
// or huge coordinates; and after edits, which the prepared grid's bitmap follows without another Prepare.
func TestLineOfSightFromBitmap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	g, costs := New(70, 45), New(70, 45) // g prepared, costs never
	set := func(c Cell, cost float32) { g.SetCost(c, cost); costs.SetCost(c, cost) }
	for range 500 {
		set(Cell{X: int32(rng.IntN(70)), Y: int32(rng.IntN(45))}, Blocked)
	}
	for y := int32(5); y < 40; y++ {
		set(Cell{X: 33, Y: y}, Blocked)
	}
	g.Prepare()
	require.NotNil(t, g.blocked)
	require.Nil(t, costs.blocked)
	point := func() r2.Vec {
		switch rng.IntN(6) {
		case 0: // a cell centre
			return g.Center(Cell{X: int32(rng.IntN(70)), Y: int32(rng.IntN(45))})
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
		wantCell, want := costs.LineOfSightBlocker(a, b)
		gotCell, got := g.LineOfSightBlocker(a, b)
		if got != want || gotCell != wantCell { // testify (a stack walk) only on a mismatch
			require.Equal(t, want, got, "%v to %v", a, b)
			require.Equal(t, wantCell, gotCell, "%v to %v", a, b)
		}
	}
	clear, blocked := 0, 0
	for pass := range 2 {
		if pass == 1 { // an edit: a door opened in the wall, others closed
			for y := int32(18); y < 24; y++ {
				set(Cell{X: 33, Y: y}, 1)
			}
			for x := int32(10); x < 30; x++ {
				set(Cell{X: x, Y: 12}, Blocked)
			}
		}
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
