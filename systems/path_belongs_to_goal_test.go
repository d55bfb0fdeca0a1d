package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A Path belongs to the agent's current goal (newbie23's finding 3). A Mover on a 30×20
// map walks a path to goal A (16.5, 3.5), behind a wall at x = 10 (rows 0–14; the way
// round is the gap at rows 15–19). Its goal changes to B (3.5, 12.5), in sight on its
// side of the wall: it heads there directly, and the path to A, which serves B not at all,
// is let go the frame the goal changes (State PathNone, no waypoints, Goal B's cell), so
// Path.Next, a debugger or a program reading Path no longer shows A's route. Then the gap
// closes (a door), cutting A off: before, the edit asked for a path to A again, answered
// PathUnreachable though the agent's goal was in sight all along; now no request is made,
// State is never PathUnreachable, and the agent reaches B.
func TestAPathFollowsTheGoalWhenTheNewGoalIsInSight(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(30, 20)
	for y := int32(0); y < 15; y++ {
		g.SetCost(grid.Cell{X: 10, Y: y}, grid.Blocked)
	}
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	var e arche.Entity
	a, b := r2.Vec{X: 16.5, Y: 3.5}, r2.Vec{X: 3.5, Y: 12.5}
	sp.SpawnBatch(1, func(_ int, s *systems.Spawned) {
		s.Position.Vec = r2.Vec{X: 3.5, Y: 3.5}
		s.Intent.Move, s.Intent.Goal = true, a
		e = s.Entity
	})
	queue := &systems.PathQueue{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, queue, &systems.PathFollow{},
		&systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	defer s.Finalize(w)
	path := func() *components.Path { return (*components.Path)(w.Get(e, arche.ComponentID[components.Path](w))) }
	pos := func() r2.Vec { return (*components.Position)(w.Get(e, arche.ComponentID[components.Position](w))).Vec }

	s.Run(w, 30)
	require.Equal(t, components.PathReady, path().State, "a path to A, behind the wall")
	require.Equal(t, g.CellAt(a), path().Goal)
	require.Greater(t, len(path().Waypoints), 2)

	(*components.Intent)(w.Get(e, arche.ComponentID[components.Intent](w))).Goal = b
	s.Run(w, 1)
	p := path()
	assert.Equal(t, components.PathNone, p.State, "A's path let go")
	assert.Empty(t, p.Waypoints)
	assert.Equal(t, 0, p.Next)
	assert.False(t, p.Want)
	assert.Equal(t, g.CellAt(b), p.Goal)

	served := queue.TotalServed
	for y := int32(15); y < 20; y++ {
		g.SetCost(grid.Cell{X: 10, Y: y}, grid.Blocked) // the door closes: A is cut off
	}
	for f := range 300 {
		s.Run(w, 1)
		require.NotEqual(t, components.PathUnreachable, path().State, "frame %d: B is in sight", f)
		require.NotEqual(t, components.PathPending, path().State, "frame %d: nothing to search", f)
	}
	assert.Less(t, r2.Norm(r2.Sub(pos(), b)), 0.5, "at B")
	assert.Equal(t, served, queue.TotalServed, "no search for A after the goal changed")
}

// An unreachable answer for the agent's own goal cell does not stand while the goal
// is in sight (the agent walks straight to it): a program trusting PathUnreachable
// would give up on a goal it is reaching. Such an answer comes from a search out of a
// blocked start's pocket, or from a Path written by hand or an edited save; here it is
// written by hand, as PathQueue delivers one (the sight cache forgotten). The next
// frame it is let go (PathNone, Goal the goal's cell, no search asked), and the agent
// arrives.
func TestAnUnreachableAnswerForAGoalInSightIsLetGo(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(20, 20)
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	goal := r2.Vec{X: 15.5, Y: 4.5}
	e := sp.Spawn(r2.Vec{X: 3.5, Y: 4.5}, func(a *systems.Spawned) { a.MoveTo(goal) })
	queue := &systems.PathQueue{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, queue, &systems.PathFollow{},
		&systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	defer s.Finalize(w)
	path := func() *components.Path { return (*components.Path)(w.Get(e, arche.ComponentID[components.Path](w))) }
	s.Run(w, 5)
	require.Equal(t, components.PathNone, path().State, "in sight from the start: no path")
	*path() = components.Path{State: components.PathUnreachable, Goal: g.CellAt(goal)}
	served := queue.TotalServed
	s.Run(w, 1)
	assert.Equal(t, components.PathNone, path().State)
	assert.Equal(t, g.CellAt(goal), path().Goal)
	assert.False(t, path().Want)
	s.Run(w, 300)
	assert.Equal(t, components.PathNone, path().State)
	assert.Equal(t, served, queue.TotalServed, "no search")
	p := (*components.Position)(w.Get(e, arche.ComponentID[components.Position](w))).Vec
	assert.InDelta(t, 0, r2.Norm(r2.Sub(p, goal)), 1e-3)
}
