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

// TestQuietFusedMatchesQuietLoop: quietFused, the collect pass's quiet run
// when it measures too, stops at the same agent as quietLoop's general loop
// with fuse, and writes the same jobs (and no other), on runs of agents
// that break off every way one can: another Goal, Active or Has (one
// coordinate only), Arrived, a new cell, a position off the grid's side of
// the axes, NaN or huge, an agent within farCells of the goal on either
// axis, or at its edge; and agents with an Aim, some of whose first eighth
// of the way leaves their cell across a wall (aimBlocked), which stop the
// run when they are checked (from index check on, every aimTurns).
func TestQuietFusedMatchesQuietLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 18))
	to := grid.Cell{X: 40, Y: 30}
	key := goalKeyOf{goal: to, active: grid.Cell{X: 41, Y: 30}, has: true, valid: true}
	const farCells = 9
	g := grid.New(90, 70)
	for range 600 {
		g.SetCost(grid.Cell{X: rng.Int32N(90), Y: rng.Int32N(70)}, grid.Blocked)
	}
	var sight openCells
	sight.bitsOnly = true
	sight.update(g)
	breaks, blocked, stops := 0, 0, 0
	for round := range 3000 {
		n := 1 + rng.IntN(24)
		ffs := make([]components.FlowFollower, n)
		pos := make([]components.Position, n)
		for k := range ffs {
			// mostly quiet agents: far, in their cell, the key's goals
			x := float64(to.X) + float64(farCells+rng.IntN(30))*float64(1-2*rng.IntN(2)) + rng.Float64()
			y := float64(to.Y) + float64(rng.IntN(60)-30) + rng.Float64()
			p := r2.Vec{X: x, Y: y}
			ff := components.FlowFollower{Goal: key.goal, Active: key.active, Has: key.has,
				Cell: grid.Cell{X: int32(math.Floor(x)), Y: int32(math.Floor(y))}}
			if rng.IntN(2) == 0 { // an Aim up to 6 cells off on each axis
				ff.Steer = true
				ff.Aim = r2.Vec{X: x + 12*rng.Float64() - 6, Y: y + 12*rng.Float64() - 6}
				if aimBlocked(g, &ff, p, ff.Cell) {
					blocked++
				}
				require.Equal(t, aimBlocked(g, &ff, p, ff.Cell), aimBlockedOn(&sight, &ff, p, ff.Cell), "%v at %v", ff.Aim, p)
			}
			if rng.IntN(4) == 0 { // one way to break the run
				breaks++
				switch rng.IntN(12) {
				case 0:
					ff.Goal.X++
				case 1:
					ff.Goal.Y--
				case 2:
					ff.Active.Y++
				case 3:
					ff.Has = false
				case 4:
					ff.Arrived = true
				case 5:
					ff.Cell.X++
				case 6:
					p.X = -0.25 // cell 0 by truncation, another by the grid
					ff.Cell.X = 0
				case 7:
					p.Y = math.NaN()
				case 8:
					p.X = 1 << 31
				case 9: // within farCells on both axes
					p = r2.Vec{X: float64(to.X) + float64(rng.IntN(2*farCells-1)-farCells+1) + 0.5, Y: float64(to.Y) + 0.5}
					ff.Cell = grid.Cell{X: int32(p.X), Y: int32(p.Y)}
				case 10: // at the edge: farCells off on one axis
					p = r2.Vec{X: float64(to.X) - farCells + 0.5, Y: float64(to.Y) + float64(rng.IntN(7)-3) + 0.5}
					ff.Cell = grid.Cell{X: int32(p.X), Y: int32(p.Y)}
				case 11: // one inside the edge
					p = r2.Vec{X: float64(to.X) + 0.5, Y: float64(to.Y) + farCells - 0.5}
					ff.Cell = grid.Cell{X: int32(p.X), Y: int32(p.Y)}
				}
			}
			ffs[k], pos[k] = ff, components.Position{Vec: p}
		}
		m := goalMemo{key: key, gi: 2, to: to, quiet: true}
		stale := flowJob{goal: 7, step: 5, state: jobMoved, hint: grid.Cell{X: 3, Y: 4}}
		want, got := make([]flowJob, n), make([]flowJob, n)
		for k := range want {
			want[k], got[k] = stale, stale
		}
		check := rng.IntN(aimTurns + 8)
		kw := quietLoop(ffs, pos, want, &m, farCells, true, &sight, check)
		kg := quietFused(ffs, pos, got, &m, farCells, &sight, check)
		require.Equal(t, kw, kg, "round %d: the run's length", round)
		require.Equal(t, want, got, "round %d: jobs", round)
		if round == 0 {
			require.Equal(t, kg, quietRun(ffs, pos, got, &m, farCells, true, &sight, check))
		}
		// a checked agent the run reached whose Aim is blocked ends it
		for k := check; k < kw; k += aimTurns {
			require.False(t, aimBlocked(g, &ffs[k], pos[k].Vec, ffs[k].Cell), "round %d: agent %d checked", round, k)
		}
		if kw < n && (kw-check)%aimTurns == 0 && kw >= check && aimBlocked(g, &ffs[kw], pos[kw].Vec, ffs[kw].Cell) {
			stops++
		}
	}
	require.Greater(t, breaks, 5000)
	require.Greater(t, blocked, 500)
	require.Greater(t, stops, 20, "runs ended by a checked agent's blocked Aim")
}
