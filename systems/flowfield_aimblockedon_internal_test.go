package systems

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// aimBlockedOn answers as aimBlocked for agents anywhere, the cell given
// being the agent's (cellAt): on and near grid lines, off the grid (a cell
// just past its last column or row, whose way back in aimBlocked finds
// blocked: the shortcut read that cell as open, 2026-12-06 09:17), in
// blocked cells, NaN, infinite or huge.
func TestAimBlockedOnEqualsAimBlocked(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	g := grid.New(130, 70)
	for range 1500 {
		g.SetCost(grid.Cell{X: rng.Int32N(130), Y: rng.Int32N(70)}, grid.Blocked)
	}
	var sight openCells
	sight.bitsOnly = true
	sight.update(g)
	vals := func(n float64) float64 {
		switch rng.IntN(9) {
		case 6:
			return math.NaN()
		case 7:
			return []float64{math.Inf(1), math.Inf(-1), 1 << 31, -1 << 31, 1<<31 - 0.5, -0.0, 1e300}[rng.IntN(7)]
		case 0:
			return math.Floor(rng.Float64()*(n+4) - 2)
		case 1:
			return math.Floor(rng.Float64()*(n+4)-2) + 1e-13*float64(rng.IntN(3)-1)
		case 2:
			return math.Nextafter(math.Floor(rng.Float64()*(n+4)-2), math.Inf(1))
		}
		return rng.Float64()*(n+4) - 2
	}
	bad := 0
	for range 300000 {
		p := r2.Vec{X: vals(130), Y: vals(70)}
		ff := components.FlowFollower{Steer: true, Aim: r2.Vec{X: p.X + 16*rng.Float64() - 8, Y: p.Y + 16*rng.Float64() - 8}}
		if rng.IntN(3) == 0 {
			ff.Aim = r2.Vec{X: vals(130), Y: vals(70)}
		}
		c := cellAt(g, p)
		a, b := aimBlocked(g, &ff, p, c), aimBlockedOn(&sight, &ff, p, c)
		if a != b {
			bad++
			if bad < 10 {
				t.Errorf("p %v aim %v c %v: aimBlocked %v, aimBlockedOn %v", p, ff.Aim, c, a, b)
			}
		}
	}
	// past the last column, its way back in (the case the shortcut missed)
	ff := components.FlowFollower{Steer: true, Aim: r2.Vec{X: 126.2, Y: 5.5}}
	p := r2.Vec{X: 130.4, Y: 5.5}
	require.True(t, aimBlocked(g, &ff, p, cellAt(g, p)))
	require.True(t, aimBlockedOn(&sight, &ff, p, cellAt(g, p)))
}
