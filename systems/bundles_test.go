package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// walledWorld returns a world with a 16×16 grid resource walled at its border, with a
// wall at x = 8 from y = 0 to 12 (a gap below).
func walledWorld() (*arche.World, *grid.Grid) {
	world := arche.NewWorld()
	g := grid.New(16, 16)
	for i := int32(0); i < 16; i++ {
		for _, c := range []grid.Cell{{X: i, Y: 0}, {X: i, Y: 15}, {X: 0, Y: i}, {X: 15, Y: i}} {
			g.SetCost(c, grid.Blocked)
		}
	}
	for y := int32(0); y < 13; y++ {
		g.SetCost(grid.Cell{X: 8, Y: y}, grid.Blocked)
	}
	arche.AddResource(&world, g)
	return &world, g
}

// movementSystems returns the systems a moving agent needs, in frame order.
func movementSystems() *ecs.Scheduler {
	return ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
}

func TestMoverDefaultsReachTheGoalAroundAWall(t *testing.T) {
	w, g := walledWorld()
	movers, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	goal := r2.Vec{X: 13.5, Y: 2.5}
	e := movers.Spawn(r2.Vec{X: 2.5, Y: 2.5}, func(a *systems.Spawned) { a.MoveTo(goal) })
	s := movementSystems()
	s.Initialize(w)
	pos := generic.NewMap[components.Position](w)
	for range 600 {
		s.Update(w)
		require.True(t, g.Passable(g.CellAt(pos.Get(e).Vec)), "inside a wall at %v", pos.Get(e).Vec)
	}
	assert.InDelta(t, 0, r2.Norm(r2.Sub(pos.Get(e).Vec, goal)), 0.05, "at the goal after 10 s, around the wall")
}

func TestMoversOnOnePointSpreadOut(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(40, 40))
	movers, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	movers.SpawnBatch(200, func(i int, a *systems.Spawned) { a.Position.Vec = r2.Vec{X: 20.5, Y: 20.5} })
	s := movementSystems()
	s.Initialize(w)
	s.Run(w, 300) // 5 s
	distinct := map[[2]float64]bool{}
	near := 0
	q := generic.NewFilter1[components.Position]().Query(w)
	for q.Next() {
		p := q.Get().Vec
		distinct[[2]float64{math.Round(p.X * 2), math.Round(p.Y * 2)}] = true // half-cell bins
		if r2.Norm(r2.Sub(p, r2.Vec{X: 20.5, Y: 20.5})) < 0.5 {
			near++
		}
	}
	assert.GreaterOrEqual(t, len(distinct), 100, "200 movers on one point spread over at least 100 half-cells")
	assert.Less(t, near, 10, "few are left on the spawn point")
}

func TestWandererDefaultsMove(t *testing.T) {
	w, g := walledWorld()
	wanderers, err := systems.NewSpawner(w, systems.Wanderer{})
	require.NoError(t, err)
	wanderers.Seed = 5
	start := r2.Vec{X: 4.5, Y: 8.5}
	e := wanderers.Spawn(start, nil)
	s := movementSystems()
	s.Initialize(w)
	pos := generic.NewMap[components.Position](w)
	far, cells := 0.0, map[grid.Cell]bool{}
	for range 600 {
		s.Update(w)
		p := pos.Get(e).Vec
		require.True(t, g.Passable(g.CellAt(p)), "inside a wall at %v", p)
		far = max(far, r2.Norm(r2.Sub(p, start)))
		cells[g.CellAt(p)] = true
	}
	assert.Greater(t, far, 4.0, "wandered away from the start")
	assert.Greater(t, len(cells), 20, "visited many cells in 10 s")
}

func TestThinkerTicksItsTreeWithABlackboard(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	reg := bt.NewRegistry(blackboard.NewSchema())
	ticks := 0
	tree, err := bt.Compile("count", bt.Action("count", func(*bt.Context) bt.Status { ticks++; return bt.Running }))
	require.NoError(t, err)
	thinkers, err := systems.NewSpawner(w, systems.Thinker{Tree: tree, Registry: reg})
	require.NoError(t, err)
	thinkers.SpawnBatch(60, nil)

	f := generic.NewFilter3[components.Think, components.Brain, components.Blackboard]()
	q := f.Query(w)
	phases := map[int]bool{}
	for q.Next() {
		th, b, bb := q.Get()
		assert.Equal(t, systems.DefaultThinkInterval, th.Interval)
		assert.GreaterOrEqual(t, th.Next, 0.0)
		assert.Less(t, th.Next, th.Interval, "staggered within one interval")
		phases[int(th.Next*60)] = true
		assert.Equal(t, tree.Len(), b.Memory.Len(), "fresh memory for the tree")
		require.NotNil(t, bb.Store)
		assert.Same(t, reg.Schema(), bb.Store.Schema(), "the registry's schema")
	}
	assert.Len(t, phases, 6, "60 agents spread over the 6 frames of one interval")

	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Decision{})
	s.Initialize(w)
	s.Run(w, 60)
	assert.Equal(t, 60*10, ticks, "60 agents at 10 Hz for 1 s")
}

func TestSpawnerSeedsReplay(t *testing.T) {
	states := func(seed uint64) []uint64 {
		world := arche.NewWorld()
		sp, err := systems.NewSpawner(&world, systems.Wanderer{})
		require.NoError(t, err)
		sp.Seed = seed
		sp.SpawnBatch(3, nil)
		sp.Spawn(r2.Vec{}, nil)
		var out []uint64
		q := generic.NewFilter2[components.Rand, components.Wanderer]().Query(&world)
		for q.Next() {
			r, wa := q.Get()
			out = append(out, r.State, math.Float64bits(wa.Angle))
		}
		return out
	}
	a := states(9)
	assert.Equal(t, a, states(9), "same seed, same agents")
	assert.NotEqual(t, a, states(10))
	assert.Len(t, a, 8)
	assert.NotEqual(t, a[0], a[2], "each agent its own seed")

	world := arche.NewWorld()
	sp, err := systems.NewSpawner(&world, systems.Thinker{Tree: mustTree(t)})
	require.NoError(t, err)
	sp.Seed = 42
	var got uint64
	sp.Spawn(r2.Vec{}, func(a *systems.Spawned) { got = a.Seed })
	assert.Equal(t, uint64(42), got, "Seed is the next agent's seed")
	assert.NotEqual(t, uint64(42), sp.Seed, "and advances")
}

func mustTree(t *testing.T) *bt.Tree {
	tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	return tree
}

func TestBundleDefaultsAndOverrides(t *testing.T) {
	m := systems.DefaultMover()
	assert.InDelta(t, 0.9, m.SeparationRadius, 1e-12, "3·Radius")
	m.SeparationRadius = 0
	assert.Equal(t, systems.Motion{MaxSpeed: 4, MaxForce: 20, Radius: 0.3, Wall: 1, Separation: 1,
		NeighbourRadius: 3}, m.Motion)
	assert.InDelta(t, 0.75, systems.DefaultFlowFollower().SeparationRadius, 1e-12)
	assert.Equal(t, 1.5, systems.DefaultFlowFollower().Separation)
	wd := systems.DefaultWanderer()
	assert.Equal(t, [4]float64{2, 1, 0.3, 0.25}, [4]float64{wd.WanderDistance, wd.WanderRadius, wd.Jitter, wd.WanderResponse})

	world := arche.NewWorld()
	sp, err := systems.NewSpawner(&world, systems.Mover{Motion: systems.Motion{MaxSpeed: 2, Radius: 0.5, Separation: -1}},
		systems.Combatant{Team: 3})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 1, Y: 2}, nil)
	m4 := generic.NewMap4[components.Kinematics, components.SteeringWeights, components.Faction, components.Position](&world)
	kin, wt, fac, pos := m4.Get(e)
	assert.Equal(t, components.Kinematics{MaxSpeed: 2, MaxForce: 20, Radius: 0.5}, *kin)
	assert.Equal(t, 0.0, wt.Separation, "a negative weight turns separation off")
	assert.Equal(t, 1.5, wt.SeparationRadius, "3·Radius")
	assert.Equal(t, 1.0, wt.Wall)
	assert.Equal(t, uint8(3), fac.Team)
	assert.Equal(t, r2.Vec{X: 1, Y: 2}, pos.Vec)
}

func TestNewSpawnerRejectsBadBundles(t *testing.T) {
	world := arche.NewWorld()
	tree := mustTree(t)
	fb := fsm.NewBuilder("m")
	fb.State("idle", fsm.Hooks{})
	machine, err := fb.Build()
	require.NoError(t, err)
	for name, b := range map[string]systems.Bundle{
		"negative speed":    systems.Mover{Motion: systems.Motion{MaxSpeed: -1}},
		"NaN force":         systems.FlowFollower{Motion: systems.Motion{MaxForce: math.NaN()}},
		"infinite weight":   systems.Mover{Motion: systems.Motion{Wall: math.Inf(1)}},
		"NaN jitter":        systems.Wanderer{Jitter: math.NaN()},
		"negative response": systems.Wanderer{WanderResponse: -0.1},
		"no model":          systems.Thinker{},
		"two models":        systems.Thinker{Tree: tree, Machine: machine},
		"negative interval": systems.Thinker{Tree: tree, Interval: -1},
		"negative health":   systems.Combatant{MaxHealth: -5},
		"nil bundle":        nil,
	} {
		_, err := systems.NewSpawner(&world, b)
		assert.Error(t, err, name)
	}
	_, err = systems.NewSpawner(&world)
	assert.Error(t, err, "no bundle")
}

func TestRecycledAgentsReuseBuffersAndAllocateNothing(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	reg := bt.NewRegistry(blackboard.NewSchema())
	tree := mustTree(t)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree, Registry: reg})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
	m := generic.NewMap3[components.Brain, components.Path, components.Blackboard](w)
	b, p, bb := m.Get(e)
	b.Memory.Nodes()[0].Status = bt.Running
	p.Waypoints = append(p.Waypoints, grid.Cell{X: 1, Y: 1})
	mem, wp, store := &b.Memory.Nodes()[0], &p.Waypoints[0], bb.Store

	sp.Recycle(e)
	w.RemoveEntity(e)
	e = sp.Spawn(r2.Vec{X: 2, Y: 2}, nil)
	b, p, bb = m.Get(e)
	assert.Same(t, mem, &b.Memory.Nodes()[0], "the removed agent's memory")
	assert.Equal(t, bt.Idle, b.Memory.Status(0), "cleared")
	assert.Empty(t, p.Waypoints)
	assert.Same(t, wp, &p.Waypoints[:1][0], "the removed agent's waypoint buffer")
	assert.Same(t, store, bb.Store, "the removed agent's blackboard")

	allocs := testing.AllocsPerRun(50, func() {
		sp.Recycle(e)
		w.RemoveEntity(e)
		e = sp.Spawn(r2.Vec{X: 3, Y: 3}, nil)
	})
	assert.Zero(t, allocs, "replacing an agent allocates nothing")
	assert.Nil(t, systems.Component[components.Weapon](&systems.Spawned{World: w, Entity: e}), "no such component")
}
