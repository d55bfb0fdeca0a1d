package systems

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestRingOpenMatchesGrid: ringOpen is true exactly when the cell and its
// eight neighbours are on the grid and open, except where the three columns
// straddle two words of the bitmap (x%64 of 0 or 63), where it is false; on a
// 150-cell-wide map (three words a row) with random walls, every cell, before
// and after edits.
func TestRingOpenMatchesGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	g := grid.New(150, 40)
	for range 500 {
		g.SetCost(grid.Cell{X: int32(rng.IntN(150)), Y: int32(rng.IntN(40))}, grid.Blocked)
	}
	var o openCells
	o.bitsOnly = true
	for round := range 2 {
		o.update(g)
		yes := 0
		for y := int32(-1); y <= 40; y++ {
			for x := int32(-1); x <= 150; x++ {
				want := true
				for dy := int32(-1); dy <= 1; dy++ {
					for dx := int32(-1); dx <= 1; dx++ {
						c := grid.Cell{X: x + dx, Y: y + dy}
						want = want && g.InBounds(c) && g.Passable(c)
					}
				}
				if x%64 == 0 || x%64 == 63 {
					want = false
				}
				require.Equal(t, want, o.ringOpen(x, y), "round %d, cell (%d, %d)", round, x, y)
				if want {
					yes++
				}
			}
		}
		assert.Greater(t, yes, 1000, "open neighbourhoods tested")
		for range 100 {
			c := grid.Cell{X: int32(rng.IntN(150)), Y: int32(rng.IntN(40))}
			if g.Passable(c) {
				g.SetCost(c, grid.Blocked)
			} else {
				g.SetCost(c, 1)
			}
		}
	}
}

// TestRestPointMatchesCellByCell: restPoint (with its ringOpen shortcut)
// gives, to the bit, what the rule gives read cell by cell from the grid
// (restPointByCells below), for random goals over a random map of 150×40
// cells: in open ground, beside walls and in corners, on cell sides and
// corners, at the map's edges and at the bitmap's word boundaries, for radii
// from 0 to over 0.5.
func TestRestPointMatchesCellByCell(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	g := grid.New(150, 40)
	for range 700 {
		g.SetCost(grid.Cell{X: int32(rng.IntN(150)), Y: int32(rng.IntN(40))}, grid.Blocked)
	}
	s := &PathFollow{grid: g}
	s.sight.bitsOnly = true
	s.sight.update(g)
	moved := 0
	for range 200000 {
		p := r2.Vec{X: rng.Float64() * 150, Y: rng.Float64() * 40}
		switch rng.IntN(8) {
		case 0:
			p.X = math.Floor(p.X) // on a cell's side
		case 1:
			p.X, p.Y = math.Floor(p.X), math.Floor(p.Y) // a corner
		case 2:
			p.X = float64(64*rng.IntN(3)) + rng.Float64()*2 - 1 // at a word boundary
		}
		r := []float64{0, 0.1, 0.3, 0.45, 0.5, 0.6}[rng.IntN(6)]
		got, want := s.restPoint(p, r), restPointByCells(g, p, r)
		if math.Float64bits(want.X) != math.Float64bits(got.X) || math.Float64bits(want.Y) != math.Float64bits(got.Y) { // testify only on a mismatch
			require.Equal(t, math.Float64bits(want.X), math.Float64bits(got.X), "goal %v, radius %g", p, r)
			require.Equal(t, math.Float64bits(want.Y), math.Float64bits(got.Y), "goal %v, radius %g", p, r)
		}
		if got != p {
			moved++
		}
	}
	assert.Greater(t, moved, 5000, "goals moved off a wall tested")
}

// restPointByCells is restPoint's rule with every cell read from the grid,
// no bitmap and no shortcut: the reference TestRestPointMatchesCellByCell
// holds restPoint to.
func restPointByCells(g *grid.Grid, p r2.Vec, r float64) r2.Vec {
	if !(r > 0) || r > 0.5 || !onGridCoords(p) {
		return p
	}
	cx, cy := math.Floor(p.X), math.Floor(p.Y)
	fx, fy := p.X-cx, p.Y-cy
	nearW, nearE, nearN, nearS := fx < r, fx > 1-r, fy < r, fy > 1-r
	x, y := int32(cx), int32(cy)
	open := func(dx, dy int32) bool {
		c := grid.Cell{X: x + dx, Y: y + dy}
		return g.InBounds(c) && g.Passable(c)
	}
	if !open(0, 0) {
		return p
	}
	ox, oy := int32(0), int32(0)
	switch {
	case nearW && !open(-1, 0):
		fx = r
	case nearE && !open(1, 0):
		fx = 1 - r
	case nearW:
		ox = -1
	case nearE:
		ox = 1
	}
	switch {
	case nearN && !open(0, -1):
		fy = r
	case nearS && !open(0, 1):
		fy = 1 - r
	case nearN:
		oy = -1
	case nearS:
		oy = 1
	}
	if ox != 0 && oy != 0 && !open(ox, oy) {
		kx, ky := float64(max(ox, 0)), float64(max(oy, 0))
		vx, vy := fx-kx, fy-ky
		if d2 := float64(vx*vx) + float64(vy*vy); d2 < r*r {
			if d2 == 0 {
				vx, vy, d2 = 0.5-kx, 0.5-ky, 0.5
			}
			d := math.Sqrt(d2)
			fx, fy = kx+float64(vx/d*r), ky+float64(vy/d*r)
		}
	}
	return r2.Vec{X: cx + fx, Y: cy + fy}
}
