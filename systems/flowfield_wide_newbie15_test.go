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

// TestFlowFieldLeadsAWideAgentThroughANarrowGap pins FlowField's documented
// limit: flow fields are for point agents, so a flow follower of radius 1.0
// is led through a gap one cell wide (its disc over both walls on the way),
// where a Mover of that radius gets no route (PathUnreachable: its clearance),
// and Diagnose counts it (CauseFlowFollowerWide).
func TestFlowFieldLeadsAWideAgentThroughANarrowGap(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(30, 15)
	for y := int32(0); y < 15; y++ {
		if y != 7 {
			g.SetCost(grid.Cell{X: 15, Y: y}, grid.Blocked)
		}
	}
	arche.AddResource(w, g)
	flow, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 27, Y: 7}, Motion: systems.Motion{Radius: 1}})
	require.NoError(t, err)
	ogre := flow.Spawn(r2.Vec{X: 3.5, Y: 7.5}, nil)
	movers, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{Radius: 1}})
	require.NoError(t, err)
	walker := movers.Spawn(r2.Vec{X: 3.5, Y: 2.5}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 27.5, Y: 2.5}) })
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/30), &systems.Spatial{}, &systems.FlowField{}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 600)
	pos := generic.NewMap1[components.Position](w)
	require.Greater(t, pos.Get(ogre).X, 25.0, "the wide flow follower went through the 1-cell gap")
	paths := generic.NewMap1[components.Path](w)
	require.Equal(t, components.PathUnreachable, paths.Get(walker).State, "the wide Mover gets no route through it")
	require.Less(t, pos.Get(walker).X, 15.0)
	// not in silence: Diagnose counts the wide follower, and only it
	r := systems.Diagnose(w)
	require.Equal(t, 1, r.Counts[systems.CauseFlowFollowerWide], "%s", r)
	require.Contains(t, r.String(), "flow_follower_wide")
}

// TestFlowFollowerWideNotCountedOnAnOpenGrid: on a grid without blocked cells
// no gap is narrow, so a wide flow follower is well set up and not counted.
func TestFlowFollowerWideNotCountedOnAnOpenGrid(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(20, 20)
	arche.AddResource(w, g)
	flow, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 17, Y: 10}, Motion: systems.Motion{Radius: 1.5}})
	require.NoError(t, err)
	flow.Spawn(r2.Vec{X: 3.5, Y: 10.5}, nil)
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/30), &systems.Spatial{}, &systems.FlowField{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 10)
	r := systems.Diagnose(w)
	require.Zero(t, r.Counts[systems.CauseFlowFollowerWide], "%s", r)
	g.SetCost(grid.Cell{X: 10, Y: 0}, grid.Blocked) // one wall: now a gap may be too narrow
	r = systems.Diagnose(w)
	require.Equal(t, 1, r.Counts[systems.CauseFlowFollowerWide], "%s", r)
}
