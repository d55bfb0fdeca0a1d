package systems_test

import (
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

// TestWideAgentWalksAlongACorridorNarrowerThanItsDisc: an agent of radius
// 0.7 spawned at (0.5, 0.5) in a corridor one cell wide (a 1×30 grid: its
// disc 0.2 over both long edges and the end) and pushed along it by a
// steady force (0, 20) never moved: the step along the corridor could not
// be pushed clear of both edges, and the slide "x only" (no x part: the
// agent where it stood) was taken before the slide along y, with the
// velocity's y part zeroed. Movement promises an overlapping disc never
// goes deeper, not that it stands: the step itself, no deeper, is taken
// when no push clears it, so the agent walks along the corridor with its
// overlap of 0.2 never deeper.
func TestWideAgentWalksAlongACorridorNarrowerThanItsDisc(t *testing.T) {
	const r = 0.7
	world := arche.NewWorld()
	w := &world
	g := grid.New(1, 30)
	arche.AddResource(w, g)
	build := generic.NewMap4[components.Position, components.Velocity, components.Kinematics, components.Steering](w)
	e := build.NewWith(&components.Position{Vec: r2.Vec{X: 0.5, Y: 0.5}}, &components.Velocity{},
		&components.Kinematics{MaxSpeed: 4, MaxForce: 20, Radius: r}, &components.Steering{Force: r2.Vec{Y: 20}})
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Movement{Workers: 1})
	s.Initialize(w)
	defer s.Finalize(w)
	deepest := 0.0
	pos := generic.NewMap1[components.Position](w)
	for range 120 {
		s.Run(w, 1)
		deepest = max(deepest, discDepth(g, pos.Get(e).Vec, r))
	}
	p := pos.Get(e).Vec
	require.Greater(t, p.Y, 5.0, "stood at %v", p)
	require.InDelta(t, 0.5, p.X, 1e-9)
	require.LessOrEqual(t, deepest, 0.2+1e-9)
}

// TestWideAgentPassesAGapOfExactlyItsDiameter: a Mover of radius 1.5 sent
// from (10.5, 12) through a 3-cell gap (rows 11–13) in a wall across column
// 20, the widest radius such a gap lets through (⌈3/2⌉ − 0.5), had its path
// (PathReady) and stood for good at the gap's mouth, (19.9991, 12.4999997),
// at rest and with no finding: its disc 2.6e-7 off the gap's centre line,
// every step into the gap overlapped a corner, and the pushes out of one
// side, each leaving wideMargin to spare, put it wideMargin into the other.
// A push that ends within 2·wideMargin of touching both sides is taken; the
// agent goes through and arrives.
func TestWideAgentPassesAGapOfExactlyItsDiameter(t *testing.T) {
	const r = 1.5
	world := arche.NewWorld()
	w := &world
	g := grid.New(40, 24)
	for y := int32(0); y < 24; y++ {
		if y < 11 || y > 13 {
			g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
		}
	}
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: r}})
	require.NoError(t, err)
	goal := r2.Vec{X: 32, Y: 12}
	e := sp.Spawn(r2.Vec{X: 10.5, Y: 12}, func(a *systems.Spawned) { a.MoveTo(goal) })
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	defer s.Finalize(w)
	pos := generic.NewMap1[components.Position](w)
	deepest := 0.0
	for range 1200 {
		s.Update(w)
		deepest = max(deepest, r-distToWall(g, pos.Get(e).Vec))
	}
	p := pos.Get(e).Vec
	require.Less(t, r2.Norm(r2.Sub(p, goal)), 0.5, "stood at %v with its path ready", p)
	require.LessOrEqual(t, deepest, 2.5e-9, "its disc went %v into a wall", deepest)
}
