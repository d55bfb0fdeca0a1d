package systems

import (
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// arenaMapPath is the MovingAI arena map, beside the repository.
const arenaMapPath = "../../shared/maps/arena.map"

// loadArena loads arena.map (49×49, 2,054 open cells), skipping the test
// when the shared maps are absent, except on CI (CI=true), where that fails.
func loadArena(t *testing.T) *grid.Grid {
	t.Helper()
	if _, err := os.Stat(arenaMapPath); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI: the MovingAI maps are missing at %s", arenaMapPath)
		}
		t.Skipf("no MovingAI maps at %s", arenaMapPath)
	}
	g, err := grid.LoadMap(arenaMapPath)
	require.NoError(t, err)
	return g
}

// arenaGoal is a cell in the open middle of arena.map.
var arenaGoal = grid.Cell{X: 24, Y: 24}

// crowd is a world of swarm agents heading for one goal, spawned from the
// public FlowFollower bundle with its defaults.
type crowd struct {
	w      *arche.World
	g      *grid.Grid
	s      *ecs.Scheduler
	flow   *FlowField
	goal   grid.Cell
	agents []arche.Entity
	m      generic.Map7[components.Position, components.Velocity, components.Kinematics,
		components.Steering, components.Intent, components.SteeringWeights, components.FlowFollower]
}

// newCrowd spawns n agents on random open cells of g (a fixed seed), each
// anywhere within its cell, all following the flow field to goal, and
// initializes the swarm's systems (finalized when the test ends).
func newCrowd(tb testing.TB, g *grid.Grid, n int, goal grid.Cell, seed uint64, workers int) *crowd {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)
	c := &crowd{w: w, g: g, goal: goal, flow: &FlowField{Workers: workers}}
	c.m = generic.NewMap7[components.Position, components.Velocity, components.Kinematics,
		components.Steering, components.Intent, components.SteeringWeights, components.FlowFollower](w)
	var open []grid.Cell
	for y := range g.Height() {
		for x := range g.Width() {
			if cell := (grid.Cell{X: int32(x), Y: int32(y)}); g.Passable(cell) {
				open = append(open, cell)
			}
		}
	}
	rng := steer.NewRand(seed)
	spawner, err := NewSpawner(w, FlowFollower{Goal: goal}) // the bundle's defaults
	require.NoError(tb, err)
	for range n {
		p := r2.Add(g.Center(open[rng.Intn(len(open))]), r2.Vec{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5})
		c.agents = append(c.agents, spawner.Spawn(p, nil))
	}
	c.s = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{CellSize: 1}, c.flow,
		&PathFollow{Workers: workers}, &Steer{Workers: workers}, &Movement{Workers: workers})
	c.s.Initialize(w)
	tb.Cleanup(func() { c.s.Finalize(w) })
	return c
}

// alongField returns the agents' mean distance to the goal along the flow
// field (the integration value of their cells over the grid's minimum cost,
// in cells), on a field of its own.
func (c *crowd) alongField() float64 {
	f := flowfield.New(c.g)
	f.Build(c.goal)
	sum := 0.0
	for _, e := range c.agents {
		pos, _, _, _, _, _, _ := c.m.Get(e)
		sum += f.Integration(c.g.CellAt(pos.Vec)) / float64(c.g.MinCost())
	}
	return sum / float64(len(c.agents))
}

// arrival returns the number of agents marked arrived, r: the largest
// straight-line distance of one of them to the goal's centre (cells), and
// the number of agents (arrived or not) within r of it.
func (c *crowd) arrival() (arrived int, r float64, inside int) {
	goal := c.g.Center(c.goal)
	for _, e := range c.agents {
		pos, _, _, _, _, _, ff := c.m.Get(e)
		if ff.Arrived {
			arrived++
			r = math.Max(r, r2.Norm(r2.Sub(pos.Vec, goal)))
		}
	}
	for _, e := range c.agents {
		pos, _, _, _, _, _, _ := c.m.Get(e)
		if r2.Norm(r2.Sub(pos.Vec, goal)) <= r {
			inside++
		}
	}
	return arrived, r, inside
}

// requirePacked asserts that the agents marked arrived lie in packed half
// disks (the arrival rule's wedges): for the farthest arrived agent of each
// of the 16 sectors around the goal, r cells from it, one of the half disks
// of radius r around the goal that hold its sector holds at least 80% of
// πr²/(2·Spacing²) agents. (Before the rule counted by direction, the check
// was the whole disk's πr²/Spacing²: a crowd packed on one side of its goal
// did not count as packed.)
func (c *crowd) requirePacked(t *testing.T, when string) (arrived int, r float64) {
	t.Helper()
	goal := c.g.Center(c.goal)
	var far [arrivalSectors]float64
	var count [arrivalSectors][]float64 // every agent's distance, by sector
	for _, e := range c.agents {
		pos, _, _, _, _, _, ff := c.m.Get(e)
		d := r2.Sub(pos.Vec, goal)
		k := sectorOf(d.X, d.Y)
		count[k] = append(count[k], r2.Norm(d))
		if ff.Arrived {
			arrived++
			far[k] = math.Max(far[k], r2.Norm(d))
			r = math.Max(r, r2.Norm(d))
		}
	}
	for k, rk := range far {
		if rk == 0 {
			continue
		}
		best := 0
		for w := k - arrivalWedge + 1; w <= k; w++ { // the wedges holding sector k
			inside := 0
			for j := w; j < w+arrivalWedge; j++ {
				for _, d := range count[(j+arrivalSectors)%arrivalSectors] {
					if d <= rk {
						inside++
					}
				}
			}
			best = max(best, inside)
		}
		packed := math.Pi * rk * rk / (2 * c.flow.Spacing * c.flow.Spacing)
		require.GreaterOrEqual(t, float64(best), 0.8*packed,
			"%s: agents arrived up to r = %.2f cells from the goal in sector %d, but no half disk of radius r holding it holds 80%% of %.0f agents (at most %d)",
			when, rk, k, packed, best)
	}
	return arrived, r
}

// long reports whether the long runs are asked for (ARCHAI_LONG=1, set by .ci/run).
func long() bool { return os.Getenv("ARCHAI_LONG") != "" }

// TestFlowArrivalGathersSwarmOnArena: a swarm spread over the arena keeps
// moving until it is packed around the goal; those that stop stop in a
// packed disk, never where they stand.
func TestFlowArrivalGathersSwarmOnArena(t *testing.T) {
	g := loadArena(t)
	const n, frames = 1000, 1200 // 20 s
	c := newCrowd(t, g, n, arenaGoal, 9, 2)
	start := c.alongField()
	for f := 1; f <= frames; f++ {
		c.s.Update(c.w)
		if f%60 == 0 {
			c.requirePacked(t, "frame "+strconv.Itoa(f))
		}
	}
	end := c.alongField()
	arrived, r := c.requirePacked(t, "end")
	t.Logf("%d agents: mean distance along the field %.2f -> %.2f cells; %d arrived within %.2f cells", n, start, end, arrived, r)
	assert.LessOrEqual(t, end, 0.6*start, "the swarm gathers around the goal")
	assert.Greater(t, start, 15.0, "spawned all over the arena")
	assert.GreaterOrEqual(t, arrived, 9*n/10, "the swarm has arrived, packed")
}

// TestFlowArrivalOvercrowdedArena: more agents than the arena holds packed
// (5,000 at one per Spacing² would need 2,812 cells; it has 2,054). None is
// marked arrived outside a packed disk; the others keep heading in. 4 s of
// simulation; 20 s with ARCHAI_LONG=1.
func TestFlowArrivalOvercrowdedArena(t *testing.T) {
	t.Parallel()
	g := loadArena(t)
	n, frames := 5000, 1200
	if !long() {
		frames = 240
	}
	c := newCrowd(t, g, n, arenaGoal, 11, 2)
	start := c.alongField()
	for f := 0; f < frames; f++ {
		c.s.Update(c.w)
		if f%20 == 0 || f == frames-1 {
			c.requirePacked(t, "frame "+strconv.Itoa(f))
		}
	}
	arrived, r := c.requirePacked(t, "end")
	waiting, heading := 0, 0
	for _, e := range c.agents {
		_, _, _, _, _, _, ff := c.m.Get(e)
		if !ff.Arrived {
			waiting++
			if ff.Steer {
				heading++
			}
		}
	}
	end := c.alongField()
	t.Logf("%d agents: %d arrived within %.2f cells, %d waiting (%d with a direction); mean distance along the field %.2f -> %.2f cells",
		n, arrived, r, waiting, heading, start, end)
	open := 0
	for y := range g.Height() {
		for x := range g.Width() {
			if g.Passable(grid.Cell{X: int32(x), Y: int32(y)}) {
				open++
			}
		}
	}
	require.Equal(t, 2054, open)
	holds := float64(open) / (c.flow.Spacing * c.flow.Spacing) // 3,651
	assert.LessOrEqual(t, float64(arrived), holds, "no more arrive than the arena holds packed")
	assert.Greater(t, float64(arrived), 0.8*holds, "the arena around the goal is packed")
	assert.Equal(t, waiting, heading, "every agent not arrived still follows the field in")
	assert.Less(t, end, start-0.5, "the crowd moves in")
}

// lattice places agents on a square lattice of the given spacing (cells)
// over the open 40×40 grid of w, centred on the centre of goal, and returns
// them in storage order.
func lattice(w *arche.World, spacing float64, goal grid.Cell) []arche.Entity {
	m := generic.NewMap2[components.Position, components.FlowFollower](w)
	var es []arche.Entity
	k := int(20 / spacing)
	for i := -k; i <= k; i++ {
		for j := -k; j <= k; j++ {
			p := r2.Vec{X: float64(goal.X) + 0.5 + float64(i)*spacing, Y: float64(goal.Y) + 0.5 + float64(j)*spacing}
			if p.X < 0 || p.Y < 0 || p.X >= 40 || p.Y >= 40 {
				continue
			}
			es = append(es, m.NewWith(&components.Position{Vec: p}, &components.FlowFollower{Goal: goal}))
		}
	}
	return es
}

// standStill runs only the flow-field system for frames frames on agents
// that do not move, and returns who has arrived, in es's order.
func standStill(t *testing.T, w *arche.World, flow *FlowField, es []arche.Entity, frames int) []bool {
	t.Helper()
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), flow)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, frames)
	m := generic.NewMap1[components.FlowFollower](w)
	out := make([]bool, len(es))
	for i, e := range es {
		out[i] = m.Get(e).Arrived
	}
	return out
}

// TestFlowArrivalSparseCrowdKeepsMoving: a crowd standing still at one
// agent per (1.5·Spacing)² cells is not packed: only the agent on the goal
// arrives (the next ones, 1.125 cells away, are beyond the rim of a disk
// of one agent, 0.75·√(1/π) + 0.375 = 0.80 cells). The former rule grew its
// disk with every agent it had marked: 1 + 0.75·√(n/π) cells, n the agents
// arrived, took in the neighbours, then theirs, frame by frame.
func TestFlowArrivalSparseCrowdKeepsMoving(t *testing.T) {
	w, _ := newWorld(40, 40)
	goal := grid.Cell{X: 20, Y: 20}
	es := lattice(w, 1.125, goal)
	arrived := standStill(t, w, &FlowField{Workers: 1}, es, 30)
	n := 0
	for _, a := range arrived {
		if a {
			n++
		}
	}
	assert.Equal(t, 1, n, "only the agent on the goal")
}

// TestFlowArrivalDenseCrowdFillsPackedDisk: a crowd standing still denser
// than Spacing (a lattice at 0.8·Spacing over the whole open 40×40 grid,
// 4,356 agents) arrives in a disk around the goal, the nearest agents first, and
// never more of them than the grid holds at one per Spacing² cells (2,844).
func TestFlowArrivalDenseCrowdFillsPackedDisk(t *testing.T) {
	w, _ := newWorld(40, 40)
	goal := grid.Cell{X: 20, Y: 20}
	es := lattice(w, 0.6, goal)
	require.Len(t, es, 66*66)
	arrived := standStill(t, w, &FlowField{Workers: 1}, es, 5)
	pos := generic.NewMap1[components.Position](w)
	centre := r2.Vec{X: 20.5, Y: 20.5}
	n, far, near := 0, 0.0, math.Inf(1)
	for i, e := range es {
		d := r2.Norm(r2.Sub(pos.Get(e).Vec, centre))
		if arrived[i] {
			n++
			far = math.Max(far, d)
		} else {
			near = math.Min(near, d)
		}
	}
	t.Logf("%d of %d arrived within %.2f cells; the nearest waiting at %.2f", n, len(es), far, near)
	holds := 1600 / (0.75 * 0.75)
	assert.LessOrEqual(t, float64(n), holds, "no more than the open ground holds at one per Spacing²")
	assert.Greater(t, n, 1000, "the packed disk takes in the crowd around the goal")
	assert.LessOrEqual(t, far, near+0.75/8, "the arrived agents are the nearest ones, up to a step")
}

// TestFlowArrivalIndependentOfStorageOrder: the same agents stored in
// reverse order, or sampled by one or two workers, arrive alike.
func TestFlowArrivalIndependentOfStorageOrder(t *testing.T) {
	rng := steer.NewRand(3)
	goal := grid.Cell{X: 20, Y: 20}
	ps := make([]r2.Vec, 1500)
	for i := range ps { // a dense core and a sparse crowd around it
		if i < 400 {
			a, r := 2*math.Pi*rng.Float64(), 6*math.Sqrt(rng.Float64())
			ps[i] = r2.Vec{X: 20.5 + r*math.Cos(a), Y: 20.5 + r*math.Sin(a)}
		} else {
			ps[i] = r2.Vec{X: 40 * rng.Float64(), Y: 40 * rng.Float64()}
		}
	}
	run := func(reverse bool, workers int) []bool {
		w, _ := newWorld(40, 40)
		m := generic.NewMap2[components.Position, components.FlowFollower](w)
		es := make([]arche.Entity, len(ps))
		for k := range ps {
			i := k
			if reverse {
				i = len(ps) - 1 - k
			}
			es[i] = m.NewWith(&components.Position{Vec: ps[i]}, &components.FlowFollower{Goal: goal})
		}
		return standStill(t, w, &FlowField{Workers: workers}, es, 3)
	}
	want := run(false, 1)
	n := 0
	for _, a := range want {
		if a {
			n++
		}
	}
	t.Logf("%d of %d arrived", n, len(ps))
	require.Greater(t, n, 400)
	require.Less(t, n, 1000, "some arrive, some do not")
	assert.Equal(t, want, run(true, 1))
	assert.Equal(t, want, run(false, 2))
	assert.Equal(t, want, run(true, 2))
}

// TestFlowArrivalAllocatesNothing: once the crowd's size is steady, a frame
// of the flow-field system allocates nothing, arrival included.
func TestFlowArrivalAllocatesNothing(t *testing.T) {
	w, g := newWorld(40, 40)
	for y := int32(5); y < 35; y++ {
		g.SetCost(grid.Cell{X: 12, Y: y}, grid.Blocked)
	}
	goal, flow := grid.Cell{X: 20, Y: 20}, &FlowField{Workers: 2}
	m := generic.NewMap7[components.Position, components.Velocity, components.Kinematics,
		components.Steering, components.Intent, components.SteeringWeights, components.FlowFollower](w)
	rng := steer.NewRand(5)
	for range 600 {
		p := r2.Vec{X: 0.5 + 39*rng.Float64(), Y: 0.5 + 39*rng.Float64()}
		if !g.Passable(g.CellAt(p)) {
			continue
		}
		m.NewWith(&components.Position{Vec: p}, &components.Velocity{},
			&components.Kinematics{MaxSpeed: 4, MaxForce: 20, Radius: 0.3}, &components.Steering{}, &components.Intent{},
			&components.SteeringWeights{Wall: 1, Separation: 1.5, SeparationRadius: 0.75},
			&components.FlowFollower{Goal: goal})
	}
	mv := &Movement{Workers: 2}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{CellSize: 1}, flow, &PathFollow{Workers: 2}, &Steer{Workers: 2}, mv)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 120)
	allocs := testing.AllocsPerRun(60, func() {
		flow.Update(w)
		mv.Update(w) // agents change cells, so samples are taken
	})
	assert.Zero(t, allocs)
}

func TestFlowFieldPanicsOnSpacingNotFinite(t *testing.T) {
	for _, sp := range []float64{math.NaN(), math.Inf(1)} {
		w, _ := newWorld(4, 4)
		assert.PanicsWithError(t, "systems: FlowField.Spacing is "+strconv.FormatFloat(sp, 'g', -1, 64)+
			"; set it to the distance between gathered agents in cells, or 0 for automatic",
			func() { (&FlowField{Spacing: sp, Workers: 1}).Initialize(w) })
	}
}

// TestFlowArrivalMeasuresAlongTheField: a dense crowd just behind a wall,
// 3 cells from the goal as the crow flies but 50 along the way round, does
// not arrive, while the same crowd on the goal's side does.
func TestFlowArrivalMeasuresAlongTheField(t *testing.T) {
	w, g := newWorld(40, 40)
	for x := int32(0); x < 36; x++ {
		g.SetCost(grid.Cell{X: x, Y: 20}, grid.Blocked)
	}
	goal := grid.Cell{X: 10, Y: 18}
	m := generic.NewMap2[components.Position, components.FlowFollower](w)
	var es []arche.Entity
	for i := range 20 {
		for j := range 6 { // 0.5 cells apart: denser than Spacing
			p := r2.Vec{X: 5.75 + 0.5*float64(i), Y: 21.25 + 0.5*float64(j)} // behind the wall
			es = append(es, m.NewWith(&components.Position{Vec: p}, &components.FlowFollower{Goal: goal}))
			p.Y -= 4.5 // the goal's side, rows 16.75 to 19.25
			es = append(es, m.NewWith(&components.Position{Vec: p}, &components.FlowFollower{Goal: goal}))
		}
	}
	arrived := standStill(t, w, &FlowField{Workers: 1}, es, 3)
	behind, front := 0, 0
	for i, a := range arrived {
		if !a {
			continue
		}
		if i%2 == 0 {
			behind++
		} else {
			front++
		}
	}
	assert.Zero(t, behind, "none arrives behind the wall")
	assert.Greater(t, front, 60, "the crowd on the goal's side has arrived")
}

// TestFlowFarReachBoundsEveryReach: the distance beyond which measure skips
// an agent's position (jobFar) is at least the reach+hold measure uses for
// a field with any number of followers up to the crowd's, at any Spacing,
// so that the skipped agents get distance's answer beyond reach.
func TestFlowFarReachBoundsEveryReach(t *testing.T) {
	t.Parallel()
	for _, sp := range []float64{0.75, 0.3, 1, 1.7, 2.1, 0.123} {
		s := &FlowField{Spacing: sp}
		step := sp / arrivalSteps
		for n := 0; n <= 3000; n++ {
			far := s.farReach(n)
			for f := 0; f <= n; f += 1 + n/7 {
				reach := float64(float64(int(s.edge(2*f)/step)+1) * step) // the rim of a half disk holding f
				// testify only on a failure: a call per case costs a stack walk
				if !(reach+float64(sp*arrivalHold) <= far) {
					require.LessOrEqual(t, reach+float64(sp*arrivalHold), far, "spacing %v, %d of %d", sp, f, n)
				}
			}
			// rounded as farReach's, with the steps an agent at rest may be
			// kept beyond the rim (keepReach: the looser disk's, then the
			// keep's), of a half disk holding n at restShare of the packing
			// (keepRims)
			require.Equal(t, float64(float64(int(s.restEdge(2*n)/step)+1+keepReach)*step)+float64(sp*arrivalHold), far)
		}
	}
	// an agent farCells off its goal's cell on an axis is beyond farReach
	g := grid.New(4096, 4096)
	s := &FlowField{Spacing: 0.75, grid: g}
	rng := steer.NewRand(5)
	for _, n := range []int{1, 100, 10000, 100000, 1000000} {
		far := s.farReach(n)
		cells := int32(min(far, 1<<30)) + 2
		for range 2000 {
			goal := grid.Cell{X: int32(rng.Float64() * 4096), Y: int32(rng.Float64() * 4096)}
			off := float64(cells) - 0.5 + rng.Float64()*0.001 // the nearest such agents
			p := r2.Vec{X: float64(goal.X) + 0.5 + off, Y: float64(goal.Y) + rng.Float64()}
			if rng.Float64() < 0.5 {
				p.X = float64(goal.X) + 0.5 - off - 1e-9
			}
			cell := g.CellAt(p)
			require.GreaterOrEqual(t, absInt32(cell.X-goal.X), cells, "%v", p)
			c := g.Center(goal)
			require.Greater(t, float64((p.X-c.X)*(p.X-c.X))+float64((p.Y-c.Y)*(p.Y-c.Y)), far*far, "%v from %v", p, goal)
		}
	}
}

// packedDisk places agents on a square lattice 0.7 cells apart (a little
// denser than Spacing, 0.75) within radius cells of the centre of goal, all
// heading there, and returns them.
func packedDisk(w *arche.World, goal grid.Cell, radius float64) []arche.Entity {
	m := generic.NewMap2[components.Position, components.FlowFollower](w)
	var es []arche.Entity
	k := int(radius / 0.7)
	for i := -k; i <= k; i++ {
		for j := -k; j <= k; j++ {
			d := r2.Vec{X: float64(i) * 0.7, Y: float64(j) * 0.7}
			if r2.Norm(d) > radius {
				continue
			}
			p := r2.Add(r2.Vec{X: float64(goal.X) + 0.5, Y: float64(goal.Y) + 0.5}, d)
			es = append(es, m.NewWith(&components.Position{Vec: p}, &components.FlowFollower{Goal: goal}))
		}
	}
	return es
}

// TestFlowArrivalGoalMovesNearOrFar: a packed crowd at rest (233 agents in
// a disk of radius 6 cells) whose goal moves (the agents stand still; only
// FlowField runs). A move of 1, 2 or 3 cells keeps every agent at rest: the
// crowd is still packed on the goal's side, and the agents at rest count
// Spacing/2 nearer across the change. A move to the crowd's rim, 6 cells,
// keeps the 135 agents of the half disks around the new goal that the crowd
// fills; a jump 20 cells away, beyond the crowd, sends every agent moving.
// The former rule (a whole disk around the goal, Arrived cleared on a goal
// change) kept 231, 186, 125 and 0 of them: the others walked into the
// crowd at rest.
func TestFlowArrivalGoalMovesNearOrFar(t *testing.T) {
	for _, tc := range []struct {
		name    string
		to      grid.Cell
		resting int // agents still arrived once the new field is followed
	}{
		{"a cell", grid.Cell{X: 21, Y: 20}, 233},
		{"2 cells", grid.Cell{X: 22, Y: 20}, 233},
		{"3 cells", grid.Cell{X: 23, Y: 20}, 233},
		{"to the rim", grid.Cell{X: 26, Y: 20}, 135},
		{"far", grid.Cell{X: 40, Y: 20}, 0},
	} {
		w, _ := newWorld(50, 40)
		from := grid.Cell{X: 20, Y: 20}
		es := packedDisk(w, from, 6)
		require.Len(t, es, 233)
		flow := &FlowField{Workers: 2}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), flow)
		s.Initialize(w)
		s.Run(w, 3)
		m := generic.NewMap1[components.FlowFollower](w)
		count := func() (arrived, active int) {
			for _, e := range es {
				ff := m.Get(e)
				if ff.Arrived {
					arrived++
				}
				if ff.Has && ff.Active == tc.to {
					active++
				}
			}
			return arrived, active
		}
		arrived, _ := count()
		require.Equal(t, len(es), arrived, "%s: the packed crowd has arrived", tc.name)
		for _, e := range es {
			m.Get(e).Goal = tc.to
		}
		s.Run(w, 2) // the new field is built in the first frame, followed from the second
		arrived, active := count()
		require.Equal(t, len(es), active, "%s: every agent follows the new goal's field", tc.name)
		assert.Equal(t, tc.resting, arrived, "%s: agents at rest", tc.name)
		s.Finalize(w)
	}
}

// TestFlowArrivalFollowsAWalkingGoal: a packed crowd at rest whose goal
// moves a cell (a goal walking) follows it: every agent stays at rest
// (Arrived) and is Following, its Follow point where it stands moved a cell
// as the goal did, and a second step before it got there moves the Follow
// point on from there. A move of 3 cells (a jump, beyond followReach) is
// not followed.
func TestFlowArrivalFollowsAWalkingGoal(t *testing.T) {
	w, _ := newWorld(50, 40)
	from := grid.Cell{X: 20, Y: 20}
	es := packedDisk(w, from, 6)
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &FlowField{Workers: 2})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 3)
	m := generic.NewMap2[components.Position, components.FlowFollower](w)
	move := func(to grid.Cell) {
		for _, e := range es {
			_, ff := m.Get(e)
			ff.Goal = to
		}
		s.Run(w, 2)
	}
	move(grid.Cell{X: 21, Y: 20})
	for _, e := range es {
		p, ff := m.Get(e)
		require.True(t, ff.Arrived && ff.Following, "a goal a cell away: every agent at rest follows it")
		require.Equal(t, r2.Add(p.Vec, r2.Vec{X: 1}), ff.Follow)
	}
	move(grid.Cell{X: 22, Y: 21}) // a diagonal step, the agents not moved (no Steer)
	for _, e := range es {
		p, ff := m.Get(e)
		require.True(t, ff.Arrived && ff.Following)
		require.Equal(t, r2.Add(p.Vec, r2.Vec{X: 2, Y: 1}), ff.Follow, "from the last Follow point")
	}
	move(grid.Cell{X: 25, Y: 21}) // 3 cells: a jump
	for _, e := range es {
		_, ff := m.Get(e)
		require.False(t, ff.Following, "a goal that jumped 3 cells is not followed")
	}
}

// TestFlowArrivalFollowNotFinite: a Follow point written NaN or infinite on
// an agent at rest that is Following is nowhere: PathFollow has it stop
// where it is (not arrive at the point), and FlowField releases it in the
// next frame, Following cleared.
func TestFlowArrivalFollowNotFinite(t *testing.T) {
	for _, bad := range []r2.Vec{{X: math.NaN(), Y: 3}, {X: 2, Y: math.Inf(1)}} {
		var d components.Desired
		ff := components.FlowFollower{Arrived: true, Following: true, Follow: bad}
		require.True(t, flowHit(r2.Vec{X: 1, Y: 1}, &components.Intent{}, &ff, &d))
		assert.Equal(t, components.DesiredStop, d.Mode, "follow %v", bad)

		w, _ := newWorld(50, 40)
		es := packedDisk(w, grid.Cell{X: 20, Y: 20}, 6)
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &FlowField{})
		s.Initialize(w)
		s.Run(w, 3)
		m := generic.NewMap1[components.FlowFollower](w)
		f := m.Get(es[0])
		require.True(t, f.Arrived)
		f.Following, f.Follow = true, bad
		s.Run(w, 1)
		assert.False(t, f.Arrived || f.Following, "follow %v", bad)
		s.Finalize(w)
	}
}
