package systems

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenCellsPatchEqualsRebuild edits random cells between updates (doors
// opening and closing, cells toggled back, cost changes that keep a cell
// open, bursts of more edits than pend holds and than the grid remembers)
// and checks, for the full table and the bitmap-only one, that the patched
// bitmap equals a rebuilt one and that every rectangle's answer equals a
// count of the grid's blocked cells.
func TestOpenCellsPatchEqualsRebuild(t *testing.T) {
	const w, h = 70, 45 // a width that is not a multiple of 64: two words a row
	for _, bitsOnly := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(3, 4))
		g := grid.New(w, h)
		for range 300 {
			g.SetCost(grid.Cell{X: int32(rng.IntN(w)), Y: int32(rng.IntN(h))}, grid.Blocked)
		}
		o := openCells{bitsOnly: bitsOnly}
		o.update(g)
		patched, rebuilt := 0, 0
		for round := range 400 {
			n := rng.IntN(5)
			switch round % 40 {
			case 13:
				n = openPendMax + 5 // more changes than pend holds
			case 29:
				n = grid.MaxEditLog + 10 // more than the grid remembers
			}
			for range n {
				c := grid.Cell{X: int32(rng.IntN(w)), Y: int32(rng.IntN(h))}
				switch rng.IntN(3) {
				case 0:
					g.SetCost(c, grid.Blocked)
				case 1:
					g.SetCost(c, 1)
				default:
					g.SetCost(c, 2.5) // open, another cost: no change for the table
				}
			}
			before := o.sum
			if len(before) > 0 {
				before = slices.Clone(o.sum)
			}
			o.update(g)
			if len(before) > 0 && slices.Equal(before, o.sum) && len(o.pend) > 0 {
				patched++
			} else if len(o.pend) == 0 {
				rebuilt++
			}
			fresh := openCells{bitsOnly: bitsOnly}
			fresh.update(g)
			require.Equal(t, fresh.bits, o.bits, "bitsOnly %v round %d", bitsOnly, round)
			if bitsOnly {
				continue
			}
			require.LessOrEqual(t, len(o.pend), openPendMax)
			for range 50 {
				x0, x1 := rng.IntN(w), rng.IntN(w)
				y0, y1 := rng.IntN(h), rng.IntN(h)
				x0, x1 = min(x0, x1), max(x0, x1)+1
				y0, y1 = min(y0, y1), max(y0, y1)+1
				want := false
				for y := y0; y < y1 && !want; y++ {
					for x := x0; x < x1; x++ {
						if !g.Passable(grid.Cell{X: int32(x), Y: int32(y)}) {
							want = true
							break
						}
					}
				}
				require.Equal(t, want, o.blockedIn(x0, x1, y0, y1), "round %d [%d,%d)×[%d,%d)", round, x0, x1, y0, y1)
			}
		}
		if !bitsOnly {
			assert.Greater(t, patched, 100, "most updates patch")
			assert.Greater(t, rebuilt, 5, "bursts rebuild")
		}
	}
}

// TestOpenCellsDoorToggleStaysPatched: a door closed and opened again many
// times leaves at most its own cell pending and never rebuilds the table
// (the table's backing array is the one first built).
func TestOpenCellsDoorToggleStaysPatched(t *testing.T) {
	g := grid.New(100, 80)
	var o openCells
	o.update(g)
	o.sum[0] = 0xbeef // a mark a rebuild would overwrite
	door := grid.Cell{X: 50, Y: 40}
	for i := range 1000 {
		cost := grid.Blocked
		if i%2 == 1 {
			cost = 1
		}
		g.SetCost(door, cost)
		o.update(g)
		assert.Equal(t, i%2 == 0, o.blockedIn(49, 52, 39, 42))
		assert.Equal(t, 1-i%2, len(o.pend))
	}
	assert.Equal(t, uint16(0xbeef), o.sum[0])
}

// TestPerceptionAndORCAShareWalls: the two systems read one table of the
// world's blocked cells.
func TestPerceptionAndORCAShareWalls(t *testing.T) {
	w := arche.NewWorld()
	g := grid.New(32, 32)
	arche.AddResource(&w, g)
	per, orca := &Perception{}, &ORCA{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, per, &Steer{}, orca, &Movement{})
	s.Initialize(&w)
	require.NotNil(t, per.sight)
	assert.Same(t, per.sight, orca.walls)
	assert.Same(t, per.sight, &ecs.Resource[wallTable](&w).openCells)
}

// TestOpenCellsPatchAllocatesNothing: once warm, a door toggle's patch and
// the corrected queries allocate nothing.
func TestOpenCellsPatchAllocatesNothing(t *testing.T) {
	g := grid.New(200, 100)
	var o openCells
	o.update(g)
	door := grid.Cell{X: 50, Y: 40}
	i := 0
	toggle := func() {
		cost := grid.Blocked
		if i%2 == 1 {
			cost = 1
		}
		i++
		g.SetCost(door, cost)
		o.update(g)
		_ = o.blockedIn(0, 200, 0, 100)
	}
	toggle()
	toggle()
	assert.Zero(t, testing.AllocsPerRun(100, toggle))
}
