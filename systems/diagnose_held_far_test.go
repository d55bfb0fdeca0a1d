package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// heldFarWorld is a newcomer's scene: on a 96×64 grid, with a wall at column 48
// open only in rows 50–55 (a 6-cell gap) unless open, n Movers of radius 0.6
// (nothing else set) in rows 1.5 cells apart, all ordered to (75.5, 58.5).
func heldFarWorld(t *testing.T, n int, open bool) (*arche.World, *ecs.Scheduler, r2.Vec) {
	t.Helper()
	g := grid.New(96, 64)
	for y := range int32(64) {
		if !open && (y < 50 || y > 55) {
			g.SetCost(grid.Cell{X: 48, Y: y}, grid.Blocked)
		}
	}
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)
	goal := r2.Vec{X: 75.5, Y: 58.5}
	wide, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: 0.6}})
	require.NoError(t, err)
	for i := range n {
		wide.Spawn(r2.Vec{X: 22.5 + float64(i%6)*1.5, Y: 30.5 + float64(i/6)*1.5}, func(a *systems.Spawned) { a.MoveTo(goal) })
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	t.Cleanup(func() { s.Finalize(w) })
	return w, s, goal
}

// heldFarBeyond counts the agents holding (DesiredHold) at rest (under 0.1
// cells/s, a twentieth of the Mover's MaxSpeed) farther than bound from goal,
// and the farthest of them.
func heldFarBeyond(w *arche.World, goal r2.Vec, bound float64) (int, float64) {
	n, far := 0, 0.0
	q := generic.NewFilter3[components.Position, components.Velocity, components.Desired]().Query(w)
	for q.Next() {
		p, v, d := q.Get()
		dist := math.Hypot(p.X-goal.X, p.Y-goal.Y)
		if d.Mode == components.DesiredHold && math.Hypot(v.X, v.Y) <= 0.1 && dist > bound {
			n++
			far = max(far, dist)
		}
	}
	return n, far
}

// TestDiagnoseHeldFarFromGoalThroughAGap: 80 Movers of radius 0.6 ordered
// through a 6-cell gap to one point settled in a queue back through it (each
// holder settling beside the one before it): after 120 s, 43 held more than
// 12 cells from the goal, up to 27.7, and Diagnose reported nothing. The room
// the 80 need (a quarter of the area of the open cells about the goal;
// the grid's edge 5.5 cells below it takes part of the plain disc of
// sqrt(80·0.36/0.25) = 10.73 cells) is 12.32 cells; Diagnose now counts
// every holder at rest beyond it plus a diameter and a cell (14.52 cells
// from the goal: 31 agents, the same the test counts), and names the distance,
// the room and the 80 agents in its note. Whatever settle does, the two
// counts agree: none beyond, none counted.
func TestDiagnoseHeldFarFromGoalThroughAGap(t *testing.T) {
	w, s, goal := heldFarWorld(t, 80, false)
	s.Run(w, 120*60)
	room := systems.HeldFarRoom(ecs.Resource[grid.Grid](w), goal, 80*0.36)
	require.InDelta(t, 12.32, room, 0.01)
	far, farthest := heldFarBeyond(w, goal, room+1.2+1)
	r := systems.Diagnose(w)
	t.Logf("%d beyond %.2f cells (farthest %.1f): %s", far, room+2.2, farthest, r)
	require.Equal(t, far, r.Counts[systems.CauseHeldFarFromGoal], "%s", r)
	if far > 0 {
		require.Contains(t, r.String(), "cells from its goal, while the 80 agents sent there would fit within 12.32")
	}
}

// TestDiagnoseHeldFarFromGoalInTheOpen: 30 Movers of radius 0.6 sent across
// an open field settle about their point, 5 of them 8.9 to 11.5 cells from it
// after 60 s, the room they need 6.76 cells (sqrt(30·0.36/0.25) = 6.57 on a
// plane; the grid's edge takes a little): the 4 beyond it plus a diameter and
// a cell (8.96) are counted, and no other agent (whatever settle does, the
// counts agree). Their Path holds no route (PathNone, Goal the zero cell on
// the grid's edge): that is not taken for a goal too narrow for them.
func TestDiagnoseHeldFarFromGoalInTheOpen(t *testing.T) {
	w, s, goal := heldFarWorld(t, 30, true)
	s.Run(w, 60*60)
	room := systems.HeldFarRoom(ecs.Resource[grid.Grid](w), goal, 30*0.36)
	require.InDelta(t, 6.76, room, 0.01)
	far, farthest := heldFarBeyond(w, goal, room+1.2+1)
	r := systems.Diagnose(w)
	t.Logf("%d beyond %.2f (farthest %.2f)", far, room+2.2, farthest)
	require.Equal(t, far, r.Counts[systems.CauseHeldFarFromGoal], "%s", r)
}
