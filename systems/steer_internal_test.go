package systems

import (
	"math"
	"testing"
	"unsafe"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/nav/spatial"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// wallyGrid returns a 30×30 grid with scattered walls and a border of open
// cells, seeded.
func wallyGrid(seed uint64) *grid.Grid {
	g := grid.New(30, 30)
	rng := steer.NewRand(seed)
	for range 150 {
		g.SetCost(grid.Cell{X: int32(rng.Intn(30)), Y: int32(rng.Intn(30))}, grid.Blocked)
	}
	for y := int32(5); y < 25; y++ {
		g.SetCost(grid.Cell{X: 15, Y: y}, grid.Blocked)
	}
	return g
}

// TestWallBitsMatchWallAvoidance: the bitmap feelers give steer.WallAvoidance's
// force to the bit (also from cell faces and corners, along axes and
// diagonals, with feelers ending on a face, where clearAlong's box is
// tight), and nearWall never skips an agent whose feelers touch a wall.
func TestWallBitsMatchWallAvoidance(t *testing.T) {
	g := wallyGrid(3)
	s := &Steer{grid: g}
	b := &s.walls // nearWall reads its tables
	b.update(g)
	blocked := func(x, y int32) bool { return !g.Passable(grid.Cell{X: x, Y: y}) }
	rng := steer.NewRand(9)
	hits := 0
	for range 40000 {
		p := r2.Vec{X: rng.Float64()*32 - 1, Y: rng.Float64()*32 - 1}
		a := rng.Float64() * 2 * math.Pi
		sp := rng.Float64() * 6
		if rng.Intn(8) == 0 {
			sp = 0
		}
		switch rng.Intn(4) {
		case 0: // on a cell's face or corner
			p = r2.Vec{X: math.Round(p.X), Y: math.Round(p.Y*2) / 2}
		case 1: // along an axis or a diagonal
			a = float64(rng.Intn(8)) * math.Pi / 4
		}
		v := r2.Vec{X: sp * math.Cos(a), Y: sp * math.Sin(a)}
		if rng.Intn(6) == 0 { // feelers that end on a face
			v = r2.Vec{X: float64(rng.Intn(9) - 4), Y: float64(rng.Intn(3)-1) * 2}
		}
		radius := 0.1 + rng.Float64()
		if rng.Intn(10) == 0 { // Radius ≤ 0 steers too (feelers shorter than 0.25)
			radius = -radius
		}
		want := steer.WallAvoidance(p, v, blocked, feelerTime, 2*radius+0.25, math.Pi/4, 20)
		clear, more, near := s.nearWall(p, v, radius)
		onGrid := g.InBounds(g.CellAt(p))
		if onGrid {
			require.Equal(t, g.Clearance(g.CellAt(p)), uint8(clear), "clearance at %v", p)
		} else { // off the grid: no feelers (they would push it away from the grid it walks back onto)
			require.Equal(t, []any{0.0, uint8(0), false}, []any{clear, more, near}, "off the grid at %v", p)
		}
		got := b.avoid(p, v, feelerTime, radius, 20, clear, more, nil)
		require.Equal(t, want, got, "at %v, velocity %v", p, v)
		if want != (r2.Vec{}) && onGrid {
			hits++
			_, _, near := s.nearWall(p, v, radius)
			require.True(t, near, "a feeler at %v touches a wall; nearWall must not skip it", p)
		}
	}
	assert.Greater(t, hits, 1000, "the case is about walls")
	g.SetCost(grid.Cell{X: 1, Y: 1}, grid.Blocked)
	b.update(g)
	assert.True(t, b.blocked(1, 1), "rebuilt after the grid changed")
	assert.True(t, b.blocked(-1, 3) && b.blocked(3, 30), "off the grid is blocked")
}

// TestAimMatchesSample: aim is f.Sample's rule with the goal's line of sight
// walked once (and only where the integration value allows it): the same
// point, Direct and Steer as the rule on Sample, on a grid of one cost and on
// one of several.
func TestAimMatchesSample(t *testing.T) {
	plain, costly := wallyGrid(5), wallyGrid(5)
	rng := steer.NewRand(8)
	for range 300 {
		c := grid.Cell{X: int32(rng.Intn(30)), Y: int32(rng.Intn(30))}
		if costly.Passable(c) {
			costly.SetCost(c, float32(1+rng.Intn(4)))
		}
	}
	for _, g := range []*grid.Grid{plain, costly} {
		aimMatchesSample(t, g)
	}
}

func aimMatchesSample(t *testing.T, g *grid.Grid) {
	old := func(f *flowfield.Field, p r2.Vec) (r2.Vec, bool, bool) {
		// inside a wall (Sample has no direction there): walk out to escapeCell
		// (TestAgentsInAClosingDoorWalkOut, TestEscapeCell)
		if c := g.CellAt(p); g.InBounds(c) && !g.Passable(c) {
			if out, ok := escapeCell(f, g, p); ok {
				return g.Center(out), false, true
			}
			return r2.Vec{}, false, false
		}
		dir, ok := f.Sample(p)
		if !ok || (dir.X == 0 && dir.Y == 0) {
			return r2.Vec{}, false, false
		}
		if goals := f.Goals(); len(goals) > 0 {
			if t := g.Center(goals[0]); g.LineOfSight(p, t) {
				return t, true, true
			}
		}
		return r2.Add(p, r2.Scale(flowfield.LookAhead+1, dir)), false, true
	}
	rng := steer.NewRand(2)
	for _, goals := range [][]grid.Cell{{{X: 25, Y: 12}}, {{X: 3, Y: 27}, {X: 26, Y: 3}}, {{X: 15, Y: 10}, {X: 2, Y: 2}}} {
		f := flowfield.New(g)
		f.Build(goals...)
		direct := 0
		for range 5000 {
			p := r2.Vec{X: rng.Float64() * 30, Y: rng.Float64() * 30}
			if rng.Intn(20) == 0 { // on a goal's centre
				p = r2.Add(g.Center(goals[0]), r2.Vec{X: 0.01})
			}
			wp, wd, ws := old(f, p)
			gp, gd, gs := aim(f, g, p, maxFiniteCost(g))
			require.Equal(t, [3]any{wp, wd, ws}, [3]any{gp, gd, gs}, "at %v, goals %v", p, goals)
			if gd {
				direct++
			}
		}
		if g.Passable(goals[0]) {
			assert.Positive(t, direct, "goals %v: some agents see the goal", goals)
		}
	}
}

// TestSteerAgentIsOneCacheLine: the hot state stays 64 bytes.
func TestSteerAgentIsOneCacheLine(t *testing.T) {
	assert.Equal(t, uintptr(64), unsafe.Sizeof(steerAgent{}))
}

// TestBudgetMatchesAccumulator: Steer's budget (add and addLast) gives
// steer.Accumulator's sum and answers to the bit, over random forces and
// weights (some at the limit, tiny, NaN, infinite or zero of either sign).
func TestBudgetMatchesAccumulator(t *testing.T) {
	rng := steer.NewRand(6)
	odd := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1)}
	for range 20000 {
		m := 1 + rng.Float64()*30
		acc := steer.Accumulator{Max: m}
		b := budget{max: m}
		for range 1 + rng.Intn(6) {
			a := rng.Float64() * 2 * math.Pi
			l := m * rng.Float64() * 1.2
			f := r2.Vec{X: l * math.Cos(a), Y: l * math.Sin(a)}
			if rng.Intn(6) == 0 {
				f.X = odd[rng.Intn(len(odd))]
			}
			if rng.Intn(10) == 0 { // lengths that underflow when squared
				f = r2.Scale(1e-170, f)
			}
			w := []float64{1, 1.5, 0.5, rng.Float64() * 3}[rng.Intn(4)]
			if rng.Intn(4) == 0 { // the last force
				acc.Add(f, w)
				b.addLast(f, w)
				require.Equal(t, math.Float64bits(acc.Sum.X), math.Float64bits(b.sum.X))
				require.Equal(t, math.Float64bits(acc.Sum.Y), math.Float64bits(b.sum.Y))
				break
			}
			want, got := acc.Add(f, w), b.add(f, w)
			require.Equal(t, want, got, "add(%v, %v)", f, w)
			require.Equal(t, math.Float64bits(acc.Sum.X), math.Float64bits(b.sum.X))
			require.Equal(t, math.Float64bits(acc.Sum.Y), math.Float64bits(b.sum.Y))
			if !got {
				break
			}
		}
	}
}

// TestSeparationMatchesQuery: Steer's fused separation gives, to the bit,
// steer.Separation over the hash query's neighbours (the agent left out),
// in a crowd with coincident agents (the fallback directions, which depend
// on the neighbours' order) and for agents that moved since the hash was
// built.
func TestSeparationMatchesQuery(t *testing.T) {
	world := arche.NewWorld()
	const n = 600
	rng := steer.NewRand(7)
	pos := make([]r2.Vec, n)
	ents := make([]arche.Entity, n)
	for i := range pos {
		pos[i] = r2.Vec{X: rng.Float64() * 14, Y: rng.Float64() * 14}
		if i%9 == 4 || i%9 == 5 { // stacks of three
			pos[i] = pos[i-1]
		}
		ents[i] = world.NewEntity()
	}
	h := spatial.NewHash(2, 14, 14)
	h.BuildFrom(pos, 1, nil)
	s := &Steer{nb: &Neighbours{Hash: h, Entities: ents}}
	ids, _ := h.Sorted()
	bits := func(v r2.Vec) [2]uint64 { return [2]uint64{math.Float64bits(v.X), math.Float64bits(v.Y)} }
	var qids []int32
	var near []r2.Vec
	fallbacks := 0
	for slot, id := range ids {
		for _, radius := range []float64{0.75, 1.3, 2.5} {
			p := pos[id]
			if slot%5 == 0 { // moved since the hash was built
				p = r2.Add(p, r2.Vec{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5})
			}
			qids, near = h.QueryPositions(p, radius, qids[:0], near[:0])
			k := 0
			for i, q := range qids {
				if q != id {
					near[k] = near[i]
					k++
					if near[i] == p {
						fallbacks++
					}
				}
			}
			want := steer.Separation(p, near[:k], radius, 20, uint64(ents[id].ID()))
			got := s.separation(p, slot, radius, 20)
			require.Equal(t, bits(want), bits(got), "slot %d at %v, radius %v", slot, p, radius)
		}
	}
	assert.Greater(t, fallbacks, 100, "the case has coincident agents")
}

// TestSeparationMatchesQueryAtExtremes: the fused separation's loop without
// a distance branch gives steer.Separation's force to the bit where its
// trick does not hold and it falls back: radii whose square is subnormal or
// zero, and candidates so far away that pos−q overflows (all agents in one
// bucket, at ±1.7·10³⁰⁸ and near 0).
func TestSeparationMatchesQueryAtExtremes(t *testing.T) {
	huge := []r2.Vec{{X: 1.7e308, Y: 0.5}, {X: 1.7e308, Y: 0.9}, {X: -1.7e308, Y: 0.5}, {X: 0.5, Y: 0.5},
		{X: 0.5 + 1e-200, Y: 0.5}, {X: 0.5, Y: 0.5 + 3e-201}, {X: 1, Y: 1}, {X: -1.7e308, Y: 0.7}}
	tiny := []r2.Vec{{X: 0.5, Y: 0.5}, {X: 0.5 + 1e-200, Y: 0.5}, {X: 0.5, Y: 0.5 + 3e-161}, {X: 1, Y: 1},
		{X: 1.5, Y: 0.2}, {X: 0.5 + 7e-162, Y: 0.5 - 2e-161}}
	for _, pos := range [][]r2.Vec{huge, tiny} {
		world := arche.NewWorld()
		ents := make([]arche.Entity, len(pos))
		for i := range ents {
			ents[i] = world.NewEntity()
		}
		h := spatial.NewHash(2, 2, 2) // one bucket
		h.BuildFrom(pos, 1, nil)
		s := &Steer{nb: &Neighbours{Hash: h, Entities: ents}}
		ids, _ := h.Sorted()
		bits := func(v r2.Vec) [2]uint64 { return [2]uint64{math.Float64bits(v.X), math.Float64bits(v.Y)} }
		var qids []int32
		var near []r2.Vec
		for slot, id := range ids {
			for _, radius := range []float64{1, 0.75, 1e-200, 1e-160, 1.3e-160, 7.1e-162, 3.3e-158, 0x1p-500, 0x1p-501, 1e300} {
				p := pos[id]
				qids, near = h.QueryPositions(p, radius, qids[:0], near[:0])
				k := 0
				for i, q := range qids {
					if q != id {
						near[k] = near[i]
						k++
					}
				}
				want := steer.Separation(p, near[:k], radius, 20, uint64(ents[id].ID()))
				got := s.separation(p, slot, radius, 20)
				require.Equal(t, bits(want), bits(got), "slot %d at %v, radius %v", slot, p, radius)
			}
		}
	}
}

// TestWallBitsQuadrantsMatchBruteForce: for every cell of a grid with
// scattered walls (and of one with none, whose only walls are off the
// grid), the clearance plus the excess wallBits keeps for each quadrant is
// the Chebyshev distance to the nearest blocked cell of that quadrant (cells
// off the grid blocked; the cell itself included), cut at the clearance + 3.
func TestWallBitsQuadrantsMatchBruteForce(t *testing.T) {
	for _, g := range []*grid.Grid{wallyGrid(5), grid.New(13, 7)} {
		var b wallBits
		b.update(g)
		w, h := g.Width(), g.Height()
		for y := range h {
			for x := range w {
				c := int(g.Clearance(grid.Cell{X: int32(x), Y: int32(y)}))
				for q := range 4 {
					sx, sy := 1, 1
					if q&1 != 0 {
						sx = -1
					}
					if q&2 != 0 {
						sy = -1
					}
					want := 1 << 30
					for k := 0; k < want; k++ { // the ring of cells k away in the quadrant
						for i := 0; i <= k; i++ {
							for _, d := range [2][2]int{{k, i}, {i, k}} {
								if b.blocked(int32(x+sx*d[0]), int32(y+sy*d[1])) {
									want = min(want, k)
								}
							}
						}
					}
					got := c + int(b.more[y*w+x]>>(2*q)&3)
					require.Equal(t, min(want, c+3), got, "cell (%d, %d), quadrant %d", x, y, q)
					require.Equal(t, 2*q, int(quadShift(r2.Vec{X: float64(-(q & 1)), Y: float64(-(q >> 1))})), "quadShift")
				}
			}
		}
	}
}

// TestBudgetAddZeroMatchesAdd: addZero answers as add of a zero force (+0
// or −0 either way) and leaves the budget as add does, to the empty budget
// and to one holding a force (one that fills it to within 10⁻¹², or past
// it, among them), for limits at and around add's 10⁻¹² and weights finite
// or not.
func TestBudgetAddZeroMatchesAdd(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, m := range []float64{20, 1, 2e-12, 1e-12, 5e-13, 1e-300, 0, negZero, -1, math.NaN(), math.Inf(1)} {
		for _, first := range []r2.Vec{{}, {X: 3, Y: -4}, {X: -1e-12}, {Y: 20}, {X: 12, Y: 16}, {X: 0.6, Y: 0.8}, {X: 1 - 5e-13}} {
			for _, w := range []float64{1, 0.5, 3, math.MaxFloat64, 1e-300, -2, math.Inf(1), math.Inf(-1), math.NaN()} {
				for _, f := range []r2.Vec{{}, {X: negZero}, {Y: negZero}, {X: negZero, Y: negZero}} {
					want, got := budget{max: m}, budget{max: m}
					if first != (r2.Vec{}) {
						want.add(first, 1)
						got.add(first, 1)
					}
					require.Equal(t, want.add(f, w), got.addZero(w), "max %v, after %v, weight %v, force %v", m, first, w, f)
					require.Equal(t, math.Float64bits(want.sum.X), math.Float64bits(got.sum.X))
					require.Equal(t, math.Float64bits(want.sum.Y), math.Float64bits(got.sum.Y))
					require.Equal(t, math.Float64bits(want.norm), math.Float64bits(got.norm))
				}
			}
		}
	}
}

// TestEscapeCell: an agent in a blocked cell walks out to the open cell of least
// integration value in the nearest ring that has one with a path; none within
// escapeRadius (or none with a path) leaves it without a direction.
func TestEscapeCell(t *testing.T) {
	g := grid.New(20, 9)
	for y := int32(0); y < 9; y++ {
		for x := int32(8); x < 11; x++ { // a wall three cells thick
			g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
		}
	}
	f := flowfield.New(g)
	f.Build(grid.Cell{X: 18, Y: 4})
	// the west side has no path (the wall is whole): the east side's cells win, from
	// anywhere in the wall; from the middle column the nearest ring reaches both sides
	out, ok := escapeCell(f, g, g.Center(grid.Cell{X: 9, Y: 4}))
	assert.True(t, ok)
	assert.Equal(t, grid.Cell{X: 11, Y: 4}, out)
	out, ok = escapeCell(f, g, g.Center(grid.Cell{X: 8, Y: 0}))
	assert.True(t, ok)
	assert.Equal(t, grid.Cell{X: 11, Y: 3}, out, "ring 3 (the west ring 1 cells have no path): nearest the goal")
	// a goal on the west: the west side is nearer in ring and in value
	f.Build(grid.Cell{X: 1, Y: 4})
	out, ok = escapeCell(f, g, g.Center(grid.Cell{X: 8, Y: 4}))
	assert.True(t, ok)
	assert.Equal(t, grid.Cell{X: 7, Y: 4}, out)
	// a wall thicker than 2·escapeRadius−1 cells: no way out found from its middle
	h := grid.New(20, 20)
	for y := int32(0); y < 20; y++ {
		for x := int32(0); x < 12; x++ {
			h.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
		}
	}
	f = flowfield.New(h)
	f.Build(grid.Cell{X: 18, Y: 10})
	_, ok = escapeCell(f, h, h.Center(grid.Cell{X: 2, Y: 10}))
	assert.False(t, ok)
	_, ok = escapeCell(f, h, h.Center(grid.Cell{X: 9, Y: 10}))
	assert.True(t, ok)
}
