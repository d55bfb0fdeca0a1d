package systems

import (
	"strconv"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
)

// sectorMaze is a 96×96 map of 16-cell sectors with long walls that force
// detours through several sectors: walls across the map at y = 30 (open at
// the right end) and y = 62 (open at the left end).
func sectorMaze() *grid.Grid {
	g := grid.New(96, 96)
	for x := int32(0); x < 96; x++ {
		if x < 88 {
			g.SetCost(grid.Cell{X: x, Y: 30}, grid.Blocked)
		}
		if x > 8 {
			g.SetCost(grid.Cell{X: x, Y: 62}, grid.Blocked)
		}
	}
	return g
}

// sectorSwarm spawns n flow followers on open cells of g heading for goal
// and initializes the swarm's systems with FlowField in sector mode.
func sectorSwarm(t *testing.T, g *grid.Grid, n int, goal grid.Cell) (*arche.World, *ecs.Scheduler, *FlowField, []arche.Entity) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)
	flow := &FlowField{Sectors: 16, Budget: 4 * 16 * 16, Workers: 2}
	sp, err := NewSpawner(w, FlowFollower{Goal: goal})
	require.NoError(t, err)
	rng := steer.NewRand(5)
	var es []arche.Entity
	for range n {
		for {
			c := grid.Cell{X: int32(rng.Intn(96)), Y: int32(rng.Intn(96))}
			if g.Passable(c) {
				es = append(es, sp.Spawn(g.Center(c), nil))
				break
			}
		}
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{CellSize: 1}, flow,
		&PathFollow{Workers: 2}, &Steer{Workers: 2}, &Movement{Workers: 2})
	s.Initialize(w)
	t.Cleanup(func() { s.Finalize(w) })
	return w, s, flow, es
}

// TestFlowFieldSectorsLeadSwarmAroundWalls: in sector mode every follower
// has a direction from the first frame (before its sector is built), and a
// swarm spawned all over a map whose walls force detours across sectors
// gathers at the goal. After the goal moves, every follower follows the new
// goal's field in the same frame.
func TestFlowFieldSectorsLeadSwarmAroundWalls(t *testing.T) {
	g := sectorMaze()
	goal := grid.Cell{X: 10, Y: 90}
	w, s, flow, es := sectorSwarm(t, g, 300, goal)
	m := generic.NewMap2[components.Position, components.FlowFollower](w)
	dist := func() (mean float64, steering int) {
		f := flowfield.New(g)
		f.Build(goal)
		for _, e := range es {
			p, ff := m.Get(e)
			mean += f.Integration(g.CellAt(p.Vec))
			if ff.Steer || ff.Arrived {
				steering++
			}
		}
		return mean / float64(len(es)), steering
	}
	s.Update(w)
	start, steering := dist()
	require.Equal(t, len(es), steering, "every follower has a direction at once")
	require.NotNil(t, ecs.Resource[flowfield.Sectors](w), "the sector layer is a resource")
	for range 60 * 40 {
		s.Update(w)
	}
	end, _ := dist()
	arrived := 0
	for _, e := range es {
		if _, ff := m.Get(e); ff.Arrived {
			arrived++
		}
	}
	t.Logf("mean distance along the way %.1f -> %.1f cells, %d of %d arrived", start, end, arrived, len(es))
	require.Greater(t, start, 60.0)
	require.Less(t, end, 0.1*start, "the swarm gathers at the goal")
	require.GreaterOrEqual(t, arrived, len(es)/2)

	// the goal moves: every follower switches in the same frame
	next := grid.Cell{X: 90, Y: 5}
	for _, e := range es {
		_, ff := m.Get(e)
		ff.Goal = next
	}
	s.Update(w)
	for _, e := range es {
		_, ff := m.Get(e)
		require.Equal(t, next, ff.Active)
		require.True(t, ff.Steer, "a direction at once towards the new goal")
		require.False(t, ff.Arrived)
	}
	require.Zero(t, flow.Cache.Len(), "no whole-grid field in sector mode")
}

// TestFlowFieldSectorsPanicsOnBadSize: a sector side outside 4..256 is a
// panic at Initialize naming the fix.
func TestFlowFieldSectorsPanicsOnBadSize(t *testing.T) {
	for _, size := range []int{-1, 2, 300} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(32, 32))
		f := &FlowField{Sectors: size, Workers: 1}
		require.PanicsWithError(t, "systems: FlowField.Sectors is "+strconv.Itoa(size)+"; set a sector side of 4 to 256 cells (64 is the usual), or 0 for whole-grid fields",
			func() { f.Initialize(w) })
		f.Finalize(w) // stop the workers Initialize started
	}
}
