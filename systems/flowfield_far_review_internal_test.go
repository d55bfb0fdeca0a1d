package systems

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Review of jobFar (farReach): over frames in which Spacing (the arrival
// radius) changes, goals move, agents jump across the far boundary, sit on
// it, hold NaN, infinite or huge positions, and arrive, every agent's
// distance step is what measuring its position with distance gives: no
// agent that could join a disk is skipped.
func TestFlowFieldFarAgentsMeasuredAsDistanceSays(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	world := arche.NewWorld()
	w := &world
	g := grid.New(96, 96)
	for y := int32(10); y < 60; y++ {
		g.SetCost(grid.Cell{X: 40, Y: y}, grid.Blocked)
	}
	arche.AddResource(w, g)
	goals := []grid.Cell{{X: 48, Y: 48}, {X: 20, Y: 30}, {X: 60, Y: 20}}
	odd := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300, 5e9, -5e9}
	b := generic.NewMap2[components.Position, components.FlowFollower](w)
	const n = 400
	ents := make([]arche.Entity, n)
	for i := range ents {
		ents[i] = b.NewWith(&components.Position{}, &components.FlowFollower{Goal: goals[i%len(goals)]})
	}
	ff := &FlowField{Workers: 2}
	ff.Initialize(w)
	defer ff.Finalize(w)
	place := func(goal grid.Cell) r2.Vec {
		c := g.Center(goal)
		switch rng.IntN(8) {
		case 0:
			return r2.Vec{X: odd[rng.IntN(len(odd))], Y: c.Y}
		case 1: // on or next to the far boundary, on either axis
			k := float64(ff.farCells) + float64(rng.IntN(3)-1) + rng.Float64() - 0.5
			if rng.IntN(2) == 0 {
				return r2.Vec{X: c.X + k, Y: c.Y + rng.Float64()*k}
			}
			return r2.Vec{X: c.X - rng.Float64()*k, Y: c.Y - k}
		case 2, 3, 4: // near the goal: a crowd gathers
			return r2.Vec{X: c.X + rng.NormFloat64()*3, Y: c.Y + rng.NormFloat64()*3}
		}
		return r2.Vec{X: rng.Float64()*110 - 7, Y: rng.Float64()*110 - 7}
	}
	checked, far := 0, 0
	spacings := []float64{0.75, 0.1, 3, 0.75, 12, 0.5}
	for frame := range 60 {
		if frame%10 == 0 {
			ff.Spacing = spacings[frame/10]
		}
		if frame%7 == 3 { // a goal moves
			goals[rng.IntN(len(goals))] = grid.Cell{X: int32(rng.IntN(80) + 8), Y: int32(rng.IntN(80) + 8)}
		}
		for i, e := range ents {
			p, f := b.Get(e)
			if frame%7 == 3 {
				f.Goal = goals[i%len(goals)]
			}
			if frame == 0 || rng.IntN(3) == 0 {
				p.Vec = place(f.Goal)
			}
		}
		ff.Update(w)
		q := ff.filter.Query(w)
		for i := 0; q.Next(); i++ {
			p, _ := q.Get()
			j := ff.jobs[i]
			want := wantStep(ff, p.Vec, j)
			if j.goal >= 0 {
				checked++
				if j.state&jobFar != 0 {
					far++
				}
			}
			require.Equal(t, want, j.step, "frame %d agent at %v, far %v, farCells %d", frame, p.Vec, j.state&jobFar != 0, ff.farCells)
		}
	}
	require.Greater(t, checked, n*30)
	require.Greater(t, far, checked/10, "far agents met")
}

// wantStep is the arrival step the FlowField's measure should give job j of
// an agent at p, computed the plain way (the distance along the way, the
// hold of an agent already arrived), times arrivalSectors plus the agent's
// sector around the goal: −1 without a field or out of reach.
func wantStep(ff *FlowField, p r2.Vec, j flowJob) int32 {
	if j.goal < 0 {
		return -1
	}
	gl := &ff.goals[j.goal]
	step := ff.Spacing / arrivalSteps
	reach, hold := float64(gl.hi-gl.lo)*step, 0.0
	if j.state&jobArrived != 0 {
		hold = ff.Spacing * arrivalHold
	}
	if d := ff.distance(p, gl.goal, gl.field, reach+hold) - hold; d < reach {
		c := ff.grid.Center(gl.goal)
		return int32(min(int(max(d, 0)/step), gl.hi-gl.lo-1)*arrivalSectors + sectorOf(p.X-c.X, p.Y-c.Y))
	}
	return -1
}
