package systems

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// sightPoint returns a random point of a w×h grid's area and a little
// beyond, a sixth of them on a vertical or horizontal grid line and some
// on a corner, as the line-of-sight shortcuts must handle.
func sightPoint(rng *rand.Rand, w, h int) r2.Vec {
	p := r2.Vec{X: rng.Float64()*float64(w+2) - 1, Y: rng.Float64()*float64(h+2) - 1}
	switch rng.IntN(8) {
	case 0:
		p.X = float64(int(p.X))
	case 1:
		p.Y = float64(int(p.Y))
	case 2:
		p.X, p.Y = float64(int(p.X)), float64(int(p.Y))
	}
	return p
}

// TestHiddenImpliesNoLineOfSight: whenever hidden says a blocked hint cell
// hides the goal, the grid's walk agrees, for random segments (some on grid
// lines or through corners) and hints (blocked, open, off the grid, and the
// cell that really stopped the walk, as FlowField keeps it); and the hint
// answers often. A segment grazing a blocked cell's side or corner is no
// proof: hidden leaves it to the walk.
func TestHiddenImpliesNoLineOfSight(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const w, h = 40, 30
	g := grid.New(w, h)
	for range 200 {
		g.SetCost(grid.Cell{X: int32(rng.IntN(w)), Y: int32(rng.IntN(h))}, grid.Blocked)
	}
	var o openCells
	o.bitsOnly = true
	o.update(g)
	hits, blocked := 0, 0
	for range 20000 {
		p, q := sightPoint(rng, w, h), sightPoint(rng, w, h)
		b, clear := g.LineOfSightBlocker(p, q)
		require.Equal(t, g.LineOfSight(p, q), clear)
		if !clear {
			blocked++
			// the blocker hides a nearby segment as the walk says
			p2 := r2.Add(p, r2.Vec{X: rng.Float64()*0.6 - 0.3, Y: rng.Float64()*0.6 - 0.3})
			if hidden(&o, p2, q, b) {
				hits++
				require.False(t, g.LineOfSight(p2, q), "%v→%v through %v", p2, q, b)
			}
		}
		c := grid.Cell{X: int32(rng.IntN(w+4) - 2), Y: int32(rng.IntN(h+4) - 2)}
		if hidden(&o, p, q, c) {
			require.False(t, g.LineOfSight(p, q), "%v→%v through %v", p, q, c)
			require.False(t, g.Passable(c))
		}
	}
	assert.Greater(t, hits, blocked/3, "the last blocker hides most nearby segments")
	// grazing: a segment along a blocked cell's side, or through its corner
	g2 := grid.New(5, 5)
	g2.SetCost(grid.Cell{X: 2, Y: 2}, grid.Blocked)
	o.update(g2)
	assert.False(t, hidden(&o, r2.Vec{X: 0.5, Y: 2}, r2.Vec{X: 4.5, Y: 2}, grid.Cell{X: 2, Y: 2}))
	assert.False(t, hidden(&o, r2.Vec{X: 1.5, Y: 1.5}, r2.Vec{X: 3, Y: 2}, grid.Cell{X: 2, Y: 2}))
	assert.True(t, hidden(&o, r2.Vec{X: 0.5, Y: 2.5}, r2.Vec{X: 4.5, Y: 2.5}, grid.Cell{X: 2, Y: 2}))
}

// TestAimWithSameAsAim: the shortcuts of aimWith (the open box around the
// look-ahead cells, the blocking hint) give aim's answer at random points of
// a field over a random map, whatever the hint holds.
func TestAimWithSameAsAim(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const w, h = 48, 36
	g := grid.New(w, h)
	for range 260 {
		g.SetCost(grid.Cell{X: int32(rng.IntN(w)), Y: int32(rng.IntN(h))}, grid.Blocked)
	}
	goal := grid.Cell{X: 24, Y: 18}
	g.SetCost(goal, 1)
	f := flowfield.New(g)
	f.Build(goal)
	var o openCells
	o.bitsOnly = true
	o.update(g)
	mc := maxFiniteCost(g)
	hint := grid.Cell{X: -1, Y: -1}
	for range 20000 {
		p := sightPoint(rng, w, h)
		if !g.Passable(g.CellAt(p)) {
			continue
		}
		if rng.IntN(10) == 0 {
			hint = grid.Cell{X: int32(rng.IntN(w)), Y: int32(rng.IntN(h))}
		}
		a, d, ok := aim(f, g, p, mc)
		a2, d2, ok2 := aimWith(f, g, p, mc, &o, &hint)
		require.Equal(t, [3]any{a, d, ok}, [3]any{a2, d2, ok2}, "at %v", p)
	}
}

// TestHiddenNear: the hint's neighbours hide a segment only when the grid's
// walk agrees, the hint moves to the blocked neighbour that hides it, and a
// segment shifted past the hint onto the next cell of the same wall is
// caught without a walk.
func TestHiddenNear(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const w, h = 40, 30
	g := grid.New(w, h)
	for range 200 {
		g.SetCost(grid.Cell{X: int32(rng.IntN(w)), Y: int32(rng.IntN(h))}, grid.Blocked)
	}
	var o openCells
	o.bitsOnly = true
	o.update(g)
	moved := 0
	for range 20000 {
		p, q := sightPoint(rng, w, h), sightPoint(rng, w, h)
		hint := grid.Cell{X: int32(rng.IntN(w+4) - 2), Y: int32(rng.IntN(h+4) - 2)}
		if b, clear := g.LineOfSightBlocker(p, q); !clear && rng.IntN(2) == 0 {
			hint = grid.Cell{X: b.X + int32(rng.IntN(3)-1), Y: b.Y + int32(rng.IntN(3)-1)}
		}
		was := hint
		if hiddenNear(&o, p, q, &hint) {
			require.False(t, g.LineOfSight(p, q), "%v→%v near %v", p, q, was)
			require.False(t, g.Passable(hint))
			require.LessOrEqual(t, max(absInt32(hint.X-was.X), absInt32(hint.Y-was.Y)), int32(1))
			require.True(t, hidden(&o, p, q, hint))
			if hint != was {
				moved++
			}
		} else {
			require.Equal(t, was, hint, "the hint stays when nothing hides the segment")
		}
	}
	assert.Greater(t, moved, 100, "a neighbour of the hint hides many segments")
	// a wall along row 5 from x=2 to x=8; the hint is its cell (4, 5)
	g2 := grid.New(12, 12)
	for x := int32(2); x <= 8; x++ {
		g2.SetCost(grid.Cell{X: x, Y: 5}, grid.Blocked)
	}
	o.update(g2)
	hint := grid.Cell{X: 4, Y: 5}
	p, q := r2.Vec{X: 5.5, Y: 1.5}, r2.Vec{X: 5.5, Y: 10.5} // through (5, 5), next to the hint
	require.False(t, hidden(&o, p, q, hint))
	require.True(t, hiddenNear(&o, p, q, &hint))
	assert.Equal(t, grid.Cell{X: 5, Y: 5}, hint)
	hint = grid.Cell{X: 4, Y: 5}
	p = r2.Vec{X: 10.5, Y: 1.5} // past the wall's end: (9, 5) and (10, 5) are open
	q = r2.Vec{X: 10.5, Y: 10.5}
	assert.False(t, hiddenNear(&o, p, q, &hint))
	assert.Equal(t, grid.Cell{X: 4, Y: 5}, hint)
}
