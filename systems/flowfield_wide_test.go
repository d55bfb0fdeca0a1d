package systems_test

import (
	"fmt"
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

// wallWithGaps returns a 30×20 grid walled at x = 15 but for the rows of
// gaps.
func wallWithGaps(gaps ...int32) *grid.Grid {
	g := grid.New(30, 20)
	for y := int32(0); y < 20; y++ {
		open := false
		for _, gy := range gaps {
			open = open || gy == y
		}
		if !open {
			g.SetCost(grid.Cell{X: 15, Y: y}, grid.Blocked)
		}
	}
	return g
}

func flowWorld(t *testing.T, g *grid.Grid, flow *systems.FlowField) (*arche.World, *ecs.Scheduler) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/30), &systems.Spatial{}, flow,
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	return w, s
}

// A follower of radius 1 (clearance 2) heads for a goal beyond a wall with a
// 1-cell gap straight ahead and a 3-cell gap 7 rows up: it goes round
// through the 3-cell one, and its centre never enters a cell of clearance
// below 2 on the way, where a point follower beside it takes the 1-cell gap.
func TestFlowFieldWideFollowerTakesTheWideGap(t *testing.T) {
	for _, budget := range []int{0, 150} { // fields built at once, or over frames
		t.Run(fmt.Sprint("budget", budget), func(t *testing.T) { wideGap(t, budget) })
	}
}

func wideGap(t *testing.T, budget int) {
	g := wallWithGaps(10, 2, 3, 4)
	w, s := flowWorld(t, g, &systems.FlowField{Budget: budget})
	goal := grid.Cell{X: 27, Y: 10}
	ogres, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal, Motion: systems.Motion{Radius: 1}})
	require.NoError(t, err)
	ogre := ogres.Spawn(r2.Vec{X: 3.5, Y: 10.5}, nil)
	imps, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal, Motion: systems.Motion{Radius: 0.3}})
	require.NoError(t, err)
	imp := imps.Spawn(r2.Vec{X: 3.5, Y: 12.5}, nil)
	s.Initialize(w)
	defer s.Finalize(w)
	pos := generic.NewMap1[components.Position](w)
	minY := map[arche.Entity]float64{ogre: 99, imp: 99}
	for frame := 0; frame < 900; frame++ {
		s.Run(w, 1)
		for _, e := range []arche.Entity{ogre, imp} {
			p := pos.Get(e).Vec
			if p.X > 14 && p.X < 17 {
				minY[e] = min(minY[e], p.Y)
			}
		}
		p := pos.Get(ogre).Vec
		require.GreaterOrEqual(t, g.Clearance(g.CellAt(p)), uint8(2), "frame %d: the wide follower at %v", frame, p)
	}
	require.Greater(t, pos.Get(ogre).X, 24.0, "the wide follower got across")
	require.Less(t, minY[ogre], 5.0, "through the 3-cell gap (rows 2 to 4)")
	require.Greater(t, pos.Get(imp).X, 24.0)
	require.Greater(t, minY[imp], 9.0, "the point follower takes the 1-cell gap (row 10)")
	require.Zero(t, systems.Diagnose(w).Counts[systems.CauseFlowFollowerWide])
}

// A mixed swarm, radii 0.3 and 1.2, crosses a wall through a 4-cell gap and
// a 1-cell one: all get within 6 cells of the goal, most of them at rest.
func TestFlowFieldMixedSwarmArrives(t *testing.T) {
	g := wallWithGaps(3, 4, 5, 6, 14)
	flow := &systems.FlowField{Spacing: 1.5} // room for the wide ones at the goal
	w, s := flowWorld(t, g, flow)
	goal := grid.Cell{X: 25, Y: 10}
	var all []arche.Entity
	for _, r := range []float64{0.3, 1.2} {
		sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal, Motion: systems.Motion{Radius: r}})
		require.NoError(t, err)
		for i := 0; i < 8; i++ {
			all = append(all, sp.Spawn(r2.Vec{X: 2.5 + float64(i%4)*2.5, Y: 8.5 + float64(i/4)*3 + r}, nil))
		}
	}
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 1800)
	ffs := generic.NewMap1[components.FlowFollower](w)
	pos := generic.NewMap1[components.Position](w)
	arrived := 0
	for _, e := range all {
		p := pos.Get(e).Vec
		if ffs.Get(e).Arrived {
			arrived++
		}
		// 16 agents at one per 1.5² cells: a disk of radius 4.1; an agent at
		// rest may stand farther out, in the keep: since the keep counts a
		// crowd at restShare (3/4) of the packing, one Spacing looser, it
		// reaches 46 steps (8.6 cells of path) for these 16 and an agent at
		// rest counts Spacing/2 nearer. 1.5 Spacings: a wide one was
		// measured at rest 7.87 cells out once Movement held small discs out
		// of walls (6.85 before; 6.0 + 1 Spacing, the bound before restShare)
		far := 6.0
		if ffs.Get(e).Arrived {
			far += 1.5 * flow.Spacing
		}
		require.Less(t, r2.Norm(r2.Sub(p, g.Center(goal))), far, "%v at %v", e, p)
	}
	// the arrival rule packs agents at one per Spacing²: the wide ones at the
	// rim may be held off by those at rest inside it, still heading in
	require.GreaterOrEqual(t, arrived, 12)
	require.Zero(t, flow.Waiting)
}

// A wide follower sealed off from its goal (a 1-cell gap only) stands
// (Steer false) and Diagnose counts it; a point follower beside it is served.
// The sealed follower's frames allocate nothing once its field is built.
func TestFlowFieldWideFollowerSealedOffIsCounted(t *testing.T) {
	g := wallWithGaps(10)
	w, s := flowWorld(t, g, &systems.FlowField{})
	goal := grid.Cell{X: 27, Y: 10}
	ogres, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal, Motion: systems.Motion{Radius: 1}})
	require.NoError(t, err)
	ogre := ogres.Spawn(r2.Vec{X: 3.5, Y: 10.5}, nil)
	imps, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal, Motion: systems.Motion{Radius: 0.3}})
	require.NoError(t, err)
	imps.Spawn(r2.Vec{X: 3.5, Y: 14.5}, nil)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 300)
	pos := generic.NewMap1[components.Position](w)
	ffs := generic.NewMap1[components.FlowFollower](w)
	require.Less(t, pos.Get(ogre).X, 14.0)
	require.False(t, ffs.Get(ogre).Steer)
	r := systems.Diagnose(w)
	require.Equal(t, 1, r.Counts[systems.CauseFlowFollowerWide], "%s", r)
	require.Contains(t, r.String(), "flow_follower_wide")
	allocs := testing.AllocsPerRun(20, func() { s.Run(w, 1) })
	require.Zero(t, allocs)
	// a door opens a wide way: the follower is led through, no longer counted
	for y := int32(11); y <= 12; y++ {
		g.SetCost(grid.Cell{X: 15, Y: y}, 1)
	}
	s.Run(w, 600)
	require.Greater(t, pos.Get(ogre).X, 20.0)
	require.Zero(t, systems.Diagnose(w).Counts[systems.CauseFlowFollowerWide])
}

// A door closing on wide followers and point followers alike (the wall's only
// gap, 3 cells wide): walls cut both off, and both are reported as
// flow_unreachable, naming their cell and goal, not the wide one as
// flow_follower_wide ("no way at least as wide as its disc"), as a newcomer
// found; while the door is open the wide one is led through and nothing is
// counted.
func TestFlowFieldWideFollowerWalledOffIsUnreachable(t *testing.T) {
	g := wallWithGaps(9, 10, 11)
	w, s := flowWorld(t, g, &systems.FlowField{})
	goal := grid.Cell{X: 27, Y: 10}
	ogres, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal, Motion: systems.Motion{Radius: 1}})
	require.NoError(t, err)
	ogre := ogres.Spawn(r2.Vec{X: 3.5, Y: 3.5}, nil)
	imps, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal, Motion: systems.Motion{Radius: 0.3}})
	require.NoError(t, err)
	imp := imps.Spawn(r2.Vec{X: 3.5, Y: 16.5}, nil)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 30)
	r := systems.Diagnose(w)
	require.Zero(t, r.Total(), "%s", r)
	for y := int32(9); y <= 11; y++ {
		g.SetCost(grid.Cell{X: 15, Y: y}, grid.Blocked)
	}
	s.Run(w, 60)
	r = systems.Diagnose(w)
	require.Equal(t, 2, r.Counts[systems.CauseFlowUnreachable], "%s", r)
	require.Zero(t, r.Counts[systems.CauseFlowFollowerWide], "%s", r)
	pos := generic.NewMap1[components.Position](w)
	require.Less(t, pos.Get(ogre).X, 14.0)
	require.Less(t, pos.Get(imp).X, 14.0)
	require.Contains(t, r.String(), "has no route to its flow goal cell (27, 10): walls cut it off")
}

// Sector mode serves wide followers as point agents, which Diagnose reports.
func TestFlowFieldWideFollowerInSectorModeIsReported(t *testing.T) {
	g := wallWithGaps(10)
	w, s := flowWorld(t, g, &systems.FlowField{Sectors: 8})
	sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 27, Y: 10}, Motion: systems.Motion{Radius: 1.2}})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 3.5, Y: 10.5}, nil)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 5)
	r := systems.Diagnose(w)
	require.Equal(t, 1, r.Counts[systems.CauseFlowFollowerWideSector], "%s", r)
	require.Zero(t, r.Counts[systems.CauseFlowFollowerWide], "%s", r)
}

// FlowField's saved state holds the wide field with its clearance, and loads
// back to the same state.
func TestFlowFieldWideFieldSavedAndLoaded(t *testing.T) {
	g := wallWithGaps(10, 2, 3, 4)
	flow := &systems.FlowField{}
	w, s := flowWorld(t, g, flow)
	sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 27, Y: 10}, Motion: systems.Motion{Radius: 1}})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 3.5, Y: 10.5}, nil)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 30)
	raw, err := flow.SaveState()
	require.NoError(t, err)
	require.Contains(t, string(raw), `"clearance":2`)
	require.Equal(t, 2, flow.Cache.Len(), "the point field and the wide one")
	require.NoError(t, flow.LoadState(raw))
	require.Equal(t, 2, flow.Cache.Len())
	again, err := flow.SaveState()
	require.NoError(t, err)
	require.JSONEq(t, string(raw), string(again))
}
