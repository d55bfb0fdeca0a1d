package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// goalMoveRun is a crowd of 400 FlowFollowers on an open 96² map whose
// goal moves, on workers workers (1: none).
type goalMoveRun struct {
	w    *arche.World
	s    *ecs.Scheduler
	filt *generic.Filter2[components.Position, components.FlowFollower]
}

func newGoalMoveRun(t *testing.T, workers int, goal grid.Cell) *goalMoveRun {
	world := arche.NewWorld()
	w := &world
	g := grid.New(96, 96)
	for y := int32(20); y < 76; y++ { // a wall with a gap, so some ways detour
		if y < 44 || y > 52 {
			g.SetCost(grid.Cell{X: 48, Y: y}, grid.Blocked)
		}
	}
	arche.AddResource(w, g)
	if workers > 1 {
		arche.AddResource(w, ecs.NewWorkers(workers))
	}
	sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal})
	require.NoError(t, err)
	rng := steer.NewRand(7)
	for k := 0; k < 400; {
		p := r2.Vec{X: rng.Float64() * 96, Y: rng.Float64() * 96}
		if g.Passable(g.CellAt(p)) {
			sp.Spawn(p, nil)
			k++
		}
	}
	r := &goalMoveRun{w: w, filt: generic.NewFilter2[components.Position, components.FlowFollower]()}
	r.s = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.FlowField{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	r.s.Initialize(w)
	t.Cleanup(func() { r.s.Finalize(w) })
	return r
}

func (r *goalMoveRun) setGoal(goal grid.Cell) {
	q := r.filt.Query(r.w)
	for q.Next() {
		_, ff := q.Get()
		ff.Goal = goal
	}
}

// state lists every agent's position and Arrived, in query order.
func (r *goalMoveRun) state() (ps []r2.Vec, arrived []bool) {
	q := r.filt.Query(r.w)
	for q.Next() {
		p, ff := q.Get()
		ps, arrived = append(ps, p.Vec), append(arrived, ff.Arrived)
	}
	return ps, arrived
}

// TestFlowGoalMovesSameOnWorkers: a crowd at rest whose goal moves a cell,
// three cells, jumps across a wall and back, flickers for one frame, gives
// the same positions and Arrived, bit for bit, on 1 and 2 workers, and at
// rest it has agents Arrived (a rule that never let any arrive would pass
// the comparison alone).
func TestFlowGoalMovesSameOnWorkers(t *testing.T) {
	goals := []struct {
		frame int
		goal  grid.Cell
	}{{0, grid.Cell{X: 30, Y: 48}}, {240, grid.Cell{X: 31, Y: 48}}, {300, grid.Cell{X: 34, Y: 49}},
		{360, grid.Cell{X: 70, Y: 30}}, {361, grid.Cell{X: 34, Y: 49}}, {420, grid.Cell{X: 70, Y: 30}}, {540, grid.Cell{X: 30, Y: 48}}}
	const frames = 600
	var ps [2][]r2.Vec
	var arr [2][]bool
	var atRest [2]int
	for i, workers := range []int{1, 2} {
		r := newGoalMoveRun(t, workers, goals[0].goal)
		k := 1
		for f := 1; f <= frames; f++ {
			if k < len(goals) && goals[k].frame == f {
				r.setGoal(goals[k].goal)
				k++
			}
			r.s.Update(r.w)
			if f == 239 {
				_, a := r.state()
				for _, v := range a {
					if v {
						atRest[i]++
					}
				}
			}
		}
		ps[i], arr[i] = r.state()
	}
	require.Greater(t, atRest[0], 40, "agents Arrived after 4 s around a goal in the open")
	require.Equal(t, atRest[0], atRest[1])
	require.Equal(t, arr[0], arr[1])
	require.Equal(t, ps[0], ps[1])
}
