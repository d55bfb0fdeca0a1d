package grid

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

func mustMap(t *testing.T, rows ...string) *Grid {
	t.Helper()
	src := "type octile\nheight " + itoa(len(rows)) + "\nwidth " + itoa(len(rows[0])) + "\nmap\n" + strings.Join(rows, "\n") + "\n"
	g, err := ReadMap(strings.NewReader(src), "test.map")
	require.NoError(t, err)
	return g
}

func itoa(v int) string {
	if v < 10 {
		return string(rune('0' + v))
	}
	return itoa(v/10) + string(rune('0'+v%10))
}

func TestGridBasics(t *testing.T) {
	g := New(5, 3)
	assert.Equal(t, 5, g.Width())
	assert.Equal(t, 3, g.Height())
	assert.True(t, g.InBounds(Cell{4, 2}))
	assert.False(t, g.InBounds(Cell{5, 2}))
	assert.False(t, g.InBounds(Cell{4, 3}))
	assert.False(t, g.InBounds(Cell{-1, 0}))
	assert.Equal(t, float32(1), g.Cost(Cell{0, 0}))
	assert.Equal(t, Blocked, g.Cost(Cell{-1, 0}))
	assert.False(t, g.Passable(Cell{0, -1}))
	assert.True(t, math.IsInf(float64(Blocked), 1))

	v := g.Version()
	g.SetCost(Cell{2, 1}, 4)
	assert.Equal(t, float32(4), g.Cost(Cell{2, 1}))
	assert.NotEqual(t, v, g.Version())
	v = g.Version()
	g.SetCost(Cell{2, 1}, 4)
	assert.Equal(t, v, g.Version(), "same value is not a change")
	g.SetCost(Cell{2, 1}, Blocked)
	assert.False(t, g.Passable(Cell{2, 1}))

	assert.Panics(t, func() { g.SetCost(Cell{5, 0}, 1) })
	assert.Panics(t, func() { g.SetCost(Cell{0, 0}, 0) })
	assert.Panics(t, func() { g.SetCost(Cell{0, 0}, -1) })
	assert.Panics(t, func() { g.SetCost(Cell{0, 0}, float32(math.NaN())) })
	assert.Panics(t, func() { New(0, 3) })
}

func TestGridMinCost(t *testing.T) {
	g := New(3, 3)
	assert.Equal(t, float32(1), g.MinCost())
	g.SetCost(Cell{0, 0}, 0.5)
	assert.Equal(t, float32(0.5), g.MinCost())
	g.SetCost(Cell{1, 0}, 0.25)
	assert.Equal(t, float32(0.25), g.MinCost())
	g.SetCost(Cell{1, 0}, Blocked)
	assert.Equal(t, float32(0.5), g.MinCost(), "raising the minimum cell recomputes")
	g.SetCost(Cell{0, 0}, 3)
	assert.Equal(t, float32(1), g.MinCost())
}

func TestCellAtCenter(t *testing.T) {
	g := New(4, 4)
	assert.Equal(t, Cell{2, 3}, g.CellAt(r2.Vec{X: 2.99, Y: 3}))
	assert.Equal(t, Cell{0, 0}, g.CellAt(r2.Vec{X: 0, Y: 0.5}))
	assert.Equal(t, Cell{-1, -2}, g.CellAt(r2.Vec{X: -0.1, Y: -1.5}), "floor, not truncation")
	assert.Equal(t, r2.Vec{X: 2.5, Y: 3.5}, g.Center(Cell{2, 3}))
	assert.Equal(t, Cell{2, 3}, g.CellAt(g.Center(Cell{2, 3})))
	assert.False(t, g.InBounds(g.CellAt(r2.Vec{X: math.NaN(), Y: 1})))
	assert.False(t, g.InBounds(g.CellAt(r2.Vec{X: 1e300, Y: 1})))
}

func TestConnected(t *testing.T) {
	g := mustMap(t,
		"..@..",
		"..@..",
		"@@.@@", // (2,2) touches the four rooms only diagonally
		"..@..",
	)
	c := func(x, y int32) Cell { return Cell{x, y} }
	assert.True(t, g.Connected(c(0, 0), c(1, 1)))
	assert.False(t, g.Connected(c(0, 0), c(3, 0)), "wall between")
	assert.False(t, g.Connected(c(1, 1), c(2, 2)), "diagonal through a corner squeeze")
	assert.True(t, g.Connected(c(2, 2), c(2, 2)), "a passable cell is connected to itself")
	assert.False(t, g.Connected(c(2, 0), c(2, 0)), "blocked cells connect to nothing")
	assert.False(t, g.Connected(c(-1, 0), c(0, 0)))
	assert.Equal(t, int32(-1), g.Component(c(2, 0)))
	assert.NotEqual(t, g.Component(c(0, 0)), g.Component(c(4, 3)))

	// Opening (2,1) joins the top rooms and the centre cell.
	g.SetCost(c(2, 1), 1)
	assert.True(t, g.Connected(c(0, 0), c(3, 0)))
	assert.True(t, g.Connected(c(1, 1), c(2, 2)))
	assert.False(t, g.Connected(c(0, 0), c(0, 3)))
	// A cost change that keeps passability keeps the labels.
	g.SetCost(c(2, 1), 7)
	assert.True(t, g.Connected(c(0, 0), c(3, 0)))
}

func TestLineOfSight(t *testing.T) {
	g := mustMap(t,
		"..........",
		"....@.....",
		"....@.....",
		"..........",
		"......@...",
		".......@..",
		"..........",
	)
	ctr := func(x, y int32) r2.Vec { return g.Center(Cell{x, y}) }

	// Open space.
	assert.True(t, g.LineOfSight(ctr(0, 0), ctr(9, 0)))
	assert.True(t, g.LineOfSight(ctr(0, 6), ctr(5, 3)))
	assert.False(t, g.LineOfSight(ctr(0, 6), ctr(9, 3)), "clips (6,4)")
	assert.True(t, g.LineOfSight(ctr(2, 2), ctr(2, 2)))
	assert.True(t, g.LineOfSight(r2.Vec{X: 0.1, Y: 0.1}, r2.Vec{X: 3.9, Y: 6.9}))

	// A wall.
	assert.False(t, g.LineOfSight(ctr(2, 1), ctr(7, 2)))
	assert.False(t, g.LineOfSight(ctr(7, 2), ctr(2, 1)), "symmetric")
	assert.False(t, g.LineOfSight(ctr(4, 0), ctr(4, 3)), "vertical through the wall")
	// Grazing the wall's corner region but passing through a blocked cell interior.
	assert.False(t, g.LineOfSight(r2.Vec{X: 3.5, Y: 0.5}, r2.Vec{X: 5.5, Y: 2.0}))
	// Passing beside it is fine.
	assert.True(t, g.LineOfSight(ctr(3, 0), ctr(3, 3)))
	assert.True(t, g.LineOfSight(ctr(5, 0), ctr(5, 3)))

	// Diagonal squeeze between (6,4) and (7,5), which share the corner (7,5).
	assert.False(t, g.LineOfSight(ctr(5, 3), ctr(8, 6)), "through the shared corner")
	assert.False(t, g.LineOfSight(ctr(8, 6), ctr(5, 3)), "reverse direction")
	assert.False(t, g.LineOfSight(ctr(6, 5), ctr(7, 4)), "one diagonal step squeezing between them")
	assert.False(t, g.LineOfSight(ctr(7, 4), ctr(6, 5)))
	// The other diagonal direction, alongside the blocked pair, is clear.
	assert.True(t, g.LineOfSight(ctr(5, 5), ctr(6, 6)))

	// A single blocked cell touched only at its corner also stops a diagonal
	// (same rule as A*: both orthogonal neighbours must be passable).
	assert.False(t, g.LineOfSight(ctr(3, 2), ctr(5, 0)), "corner (4,1)/(5,1)... of the wall")
	assert.False(t, g.LineOfSight(ctr(5, 3), ctr(4, 2)), "end in a blocked cell")

	// Off-grid end points.
	assert.False(t, g.LineOfSight(ctr(0, 0), r2.Vec{X: -0.5, Y: 0.5}))
	assert.False(t, g.LineOfSight(ctr(0, 0), r2.Vec{X: 10.5, Y: 0.5}))

	// Along a grid line: y = 1 borders rows 0 and 1; row 1 has the wall at x=4.
	assert.False(t, g.LineOfSight(r2.Vec{X: 0.5, Y: 1}, r2.Vec{X: 8.5, Y: 1}))
	assert.True(t, g.LineOfSight(r2.Vec{X: 0.5, Y: 1}, r2.Vec{X: 3.5, Y: 1}))
	assert.False(t, g.LineOfSight(r2.Vec{X: 4, Y: 6.5}, r2.Vec{X: 4, Y: 0.5}), "x = 4 borders the wall column")
	assert.False(t, g.LineOfSight(r2.Vec{X: 5, Y: 6.5}, r2.Vec{X: 5, Y: 0.5}), "x = 5 also borders it")
	assert.True(t, g.LineOfSight(r2.Vec{X: 3, Y: 6.5}, r2.Vec{X: 3, Y: 0.5}))
}

// TestLineOfSightMatchesSampling compares against dense sampling of the
// segment on random maps, away from exact corner hits (where sampling is
// blind to the squeeze rule).
func TestLineOfSightMatchesSampling(t *testing.T) {
	rng := newRand(11)
	for trial := 0; trial < 30; trial++ {
		g := New(16, 16)
		for i := 0; i < 30; i++ {
			g.SetCost(Cell{int32(rng.Intn(16)), int32(rng.Intn(16))}, Blocked)
		}
		for q := 0; q < 200; q++ {
			a := r2.Vec{X: rng.Float64() * 16, Y: rng.Float64() * 16}
			b := r2.Vec{X: rng.Float64() * 16, Y: rng.Float64() * 16}
			want := true
			const steps = 20000
			for k := 0; k <= steps; k++ {
				p := r2.Add(a, r2.Scale(float64(k)/steps, r2.Sub(b, a)))
				if !g.Passable(g.CellAt(p)) {
					want = false
					break
				}
			}
			got := g.LineOfSight(a, b)
			if want != got {
				t.Errorf("trial %d: LineOfSight(%v, %v) = %v, sampling says %v", trial, a, b, got, want)
			}
		}
	}
}

func TestLineOfSightZeroAllocs(t *testing.T) {
	g := New(64, 64)
	allocs := testing.AllocsPerRun(100, func() {
		g.LineOfSight(r2.Vec{X: 0.5, Y: 0.5}, r2.Vec{X: 60.2, Y: 33.7})
	})
	assert.Zero(t, allocs)
}

// TestLineOfSightAgreesWithMoves: between the centres of neighbouring cells,
// line of sight holds exactly when A* may make that move.
func TestLineOfSightAgreesWithMoves(t *testing.T) {
	rng := newRand(3)
	g := New(20, 20)
	for i := 0; i < 120; i++ {
		g.SetCost(Cell{int32(rng.Intn(20)), int32(rng.Intn(20))}, Blocked)
	}
	for y := int32(0); y < 20; y++ {
		for x := int32(0); x < 20; x++ {
			a := Cell{x, y}
			for dy := int32(-1); dy <= 1; dy++ {
				for dx := int32(-1); dx <= 1; dx++ {
					b := Cell{x + dx, y + dy}
					legal := g.Passable(a) && g.Passable(b) &&
						(dx == 0 || dy == 0 || (g.Passable(Cell{x + dx, y}) && g.Passable(Cell{x, y + dy})))
					require.Equalf(t, legal, g.LineOfSight(g.Center(a), g.Center(b)), "%v->%v", a, b)
				}
			}
		}
	}
}

// Two grids never share a version, so a cache that knew one by its Version finds
// a grid copied over it in place (*g = *other, made before or after it) a version
// it cannot follow: EditsSince and EditedSince report false (rebuild), not a few
// edits or none.
func TestAGridCopiedOverAnotherIsNotSeenAsEdits(t *testing.T) {
	older := New(8, 8)
	g := New(8, 8)
	newer := New(8, 8)
	g.SetCost(Cell{X: 1, Y: 1}, 2)
	v := g.Version()
	assert.NotEqual(t, v, older.Version())
	assert.NotEqual(t, v, newer.Version())
	for _, other := range []*Grid{older, newer} {
		c := *other // what *g = *other leaves in g
		_, ok := c.EditsSince(v, nil)
		assert.False(t, ok)
		_, ok = c.EditedSince(v)
		assert.False(t, ok)
	}
	got, ok := g.EditsSince(v-1, nil)
	assert.True(t, ok, "its own versions are followed as before")
	assert.Equal(t, []Cell{{X: 1, Y: 1}}, got)
}

// *g = *other leaves g and other sharing their costs: a door opened in g by
// SetCost opened in other too, its Version unchanged, and copying other over g
// again to close the door left it open. Clone gives costs and versions of its own,
// so *g = *closed.Clone() closes the door every time.
func TestCloneIsAMapOfItsOwn(t *testing.T) {
	door := Cell{X: 4, Y: 4}
	closed := New(8, 8)
	closed.SetCost(door, Blocked)
	v := closed.Version()
	g := New(8, 8)
	*g = *closed.Clone()
	assert.False(t, g.Passable(door))
	assert.NotEqual(t, v, g.Version(), "a version of its own")
	_, ok := g.EditsSince(v, nil)
	assert.False(t, ok, "closed's version is not followed as edits of the clone")
	g.SetCost(door, 1) // the door opens
	assert.False(t, closed.Passable(door), "the kept map is untouched")
	assert.Equal(t, v, closed.Version())
	w := g.Version()
	*g = *closed.Clone() // it closes again
	assert.False(t, g.Passable(door))
	_, ok = g.EditsSince(w, nil)
	assert.False(t, ok)

	c := closed.Clone()
	assert.Equal(t, closed.Costs(), c.Costs())
	assert.True(t, closed.Connected(Cell{X: 0, Y: 0}, Cell{X: 7, Y: 7}))
	c.SetCost(Cell{X: 3, Y: 3}, 2)
	assert.Equal(t, float32(1), closed.Cost(Cell{X: 3, Y: 3}))
	assert.Equal(t, float32(1), c.MinCost())
	assert.Equal(t, float32(2), c.MaxCost())
}
