package systems

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// newWorld returns a world with an open w×h grid resource.
func newWorld(w, h int) (*arche.World, *grid.Grid) {
	world := arche.NewWorld()
	g := grid.New(w, h)
	arche.AddResource(&world, g)
	return &world, g
}

func TestDecisionThinksAtItsIntervalWithItsOwnDT(t *testing.T) {
	w, _ := newWorld(8, 8)
	var dts []float64
	var times []float64
	tree, err := bt.Compile("probe", bt.Action("probe", func(ctx *bt.Context) bt.Status {
		dts = append(dts, ctx.DT)
		times = append(times, ctx.Time)
		assert.NotNil(t, AgentOf(ctx).Intent)
		return bt.Running
	}))
	require.NoError(t, err)
	m := generic.NewMap4[components.Brain, components.Think, components.Position, components.Intent](w)
	e := m.New()
	b, th, _, _ := m.Get(e)
	*b = components.Brain{Tree: tree, Memory: tree.NewMemory()}
	*th = components.Think{Interval: 0.1, Next: 0.05}

	dec := &Decision{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), dec)
	s.Initialize(w)
	s.Run(w, 60) // one second
	// due at 0.05, 0.15, ..., 0.95: ten decisions, each seeing the time since the last
	require.Len(t, times, 10)
	assert.InDelta(t, 3.0/60, times[0], 1e-9, "first frame whose time reaches 0.05 s")
	for i := 1; i < len(dts); i++ {
		assert.InDelta(t, 0.1, dts[i], 1.0/60+1e-9, "dt is the time since the agent last thought")
		assert.InDelta(t, times[i]-times[i-1], dts[i], 1e-12)
	}
	assert.Equal(t, int64(10), dec.TotalThought)
}

func TestDecisionStaggeringSpreadsWork(t *testing.T) {
	w, _ := newWorld(8, 8)
	tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	m := generic.NewMap4[components.Brain, components.Think, components.Position, components.Intent](w)
	const n = 600
	for i := range n {
		e := m.New()
		b, th, _, _ := m.Get(e)
		*b = components.Brain{Tree: tree, Memory: tree.NewMemory()}
		*th = components.Think{Interval: 0.1, Next: 0.1 * float64(i) / n}
	}
	dec := &Decision{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), dec)
	s.Initialize(w)
	for range 60 {
		s.Update(w)
		// 10 Hz at 60 frames/s: each agent thinks every 6 frames, so 100 per frame
		assert.InDelta(t, n/6, dec.Thought, 1)
	}
}

func TestMovementSlidesAlongWallsAndNeverEntersBlockedCells(t *testing.T) {
	w, g := newWorld(10, 10)
	for y := int32(0); y < 10; y++ {
		g.SetCost(grid.Cell{X: 5, Y: y}, grid.Blocked)
	}
	m := generic.NewMap4[components.Position, components.Velocity, components.Kinematics, components.Steering](w)
	e := m.New()
	pos, _, kin, st := m.Get(e)
	pos.Vec = r2.Vec{X: 3.5, Y: 1.5}
	*kin = components.Kinematics{MaxSpeed: 5, MaxForce: 50}
	st.Force = r2.Vec{X: 50, Y: 20} // into the wall, and down along it
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Movement{})
	s.Initialize(w)
	for range 120 {
		s.Update(w)
		p, _, _, _ := m.Get(e)
		require.True(t, g.Passable(g.CellAt(p.Vec)), "inside a blocked cell at %v", p.Vec)
	}
	p, v, _, _ := m.Get(e)
	assert.Less(t, p.X, 5.0)
	assert.Greater(t, p.Y, 4.0, "slid along the wall")
	assert.Equal(t, 0.0, v.X, "velocity into the wall is zeroed")
}

func TestLODSetsThinkRatesAndFreezes(t *testing.T) {
	w, _ := newWorld(200, 10)
	tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	m := generic.NewMap5[components.Brain, components.Think, components.Position, components.Intent, components.LOD](w)
	at := []float64{5, 50, 150} // near, far, beyond the cut-off
	var es []arche.Entity
	for _, x := range at {
		e := m.New()
		b, th, p, _, _ := m.Get(e)
		*b = components.Brain{Tree: tree, Memory: tree.NewMemory()}
		*th = components.Think{Interval: 0.1}
		p.Vec = r2.Vec{X: x, Y: 5}
		es = append(es, e)
	}
	lod := &LOD{Levels: []LODLevel{{Distance: 32, Interval: 0.1}, {Distance: 96, Interval: 0.5}}, Points: []r2.Vec{{X: 0, Y: 5}}}
	dec := &Decision{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), lod, dec)
	s.Initialize(w)
	counts := make([]int, 3)
	for range 120 { // two seconds
		s.Update(w)
		for i, e := range es {
			_, th, _, _, _ := m.Get(e)
			if th.Last == ecs.ClockOf(w).Time && th.Last > 0 {
				counts[i]++
			}
		}
	}
	assert.InDelta(t, 20, counts[0], 1, "10 Hz near")
	assert.InDelta(t, 4, counts[1], 1, "2 Hz far")
	assert.Equal(t, 0, counts[2], "frozen beyond the last level")
	assert.Equal(t, []int{1, 1, 1}, lod.Counts)
	_, _, _, _, l := m.Get(es[1])
	assert.Equal(t, uint8(1), l.Level)
	assert.InDelta(t, 50, l.Distance, 1e-9)

	// the frozen agent thaws when a focus point comes near, and thinks next frame
	lod.Points = append(lod.Points, r2.Vec{X: 150, Y: 5})
	s.Update(w)
	s.Update(w)
	_, th, _, _, _ := m.Get(es[2])
	assert.False(t, th.Frozen)
	assert.InDelta(t, ecs.ClockOf(w).Time-1.0/60, th.Last, 1e-9)
}

// tenLoggingThinkers makes ten agents at x = 0..9, all due now and then not
// for 10 s, whose tree logs each agent's x when it ticks.
func tenLoggingThinkers(t *testing.T) (*arche.World, *[]int) {
	t.Helper()
	w, _ := newWorld(8, 8)
	var order []int
	tree, err := bt.Compile("log", bt.Action("log", func(ctx *bt.Context) bt.Status {
		order = append(order, int(AgentOf(ctx).Position.X))
		return bt.Running
	}))
	require.NoError(t, err)
	m := generic.NewMap4[components.Brain, components.Think, components.Position, components.Intent](w)
	for i := range 10 {
		e := m.New()
		b, th, p, _ := m.Get(e)
		*b = components.Brain{Tree: tree, Memory: tree.NewMemory()}
		*th = components.Think{Interval: 10} // all due now, then not for 10 s
		p.X = float64(i)
	}
	return w, &order
}

func TestDecisionBudgetResumesWhereItStopped(t *testing.T) {
	w, order := tenLoggingThinkers(t)
	dec := &Decision{Budget: 4}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), dec)
	s.Initialize(w)
	s.Update(w)
	assert.Equal(t, []int{0, 1, 2, 3}, *order)
	assert.Equal(t, 6, dec.Waiting)
	s.Update(w)
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7}, *order, "resumes at the first agent left waiting")
	s.Update(w)
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, *order)
	assert.Equal(t, 0, dec.Waiting)
	s.Update(w)
	assert.Len(t, *order, 10, "nobody is due twice")
}

// A negative Budget is no limit, as 0 is (documented on Decision.Budget):
// every due agent thinks in the first frame and none is left waiting.
func TestDecisionNegativeBudgetIsNoLimit(t *testing.T) {
	w, order := tenLoggingThinkers(t)
	dec := &Decision{Budget: -3}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), dec)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Update(w)
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, *order)
	assert.Equal(t, 0, dec.Waiting)
}

func TestMovementDoesNotTunnelAtHighSpeed(t *testing.T) {
	w, g := newWorld(20, 5)
	for y := int32(0); y < 5; y++ {
		g.SetCost(grid.Cell{X: 10, Y: y}, grid.Blocked) // a one-cell wall
	}
	m := generic.NewMap4[components.Position, components.Velocity, components.Kinematics, components.Steering](w)
	e := m.New()
	pos, vel, kin, _ := m.Get(e)
	pos.Vec = r2.Vec{X: 8.5, Y: 2.5}
	vel.Vec = r2.Vec{X: 300} // 5 cells per frame
	*kin = components.Kinematics{MaxSpeed: 300, MaxForce: 1}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Movement{})
	s.Initialize(w)
	for range 10 {
		s.Update(w)
	}
	p, v, _, _ := m.Get(e)
	assert.Less(t, p.X, 10.0, "stopped by the wall, not through it")
	assert.Equal(t, 0.0, v.X)
}

func TestCombatIgnoresDownedTargetsAndSelf(t *testing.T) {
	w, _ := newWorld(8, 8)
	m := generic.NewMap4[components.Intent, components.Position, components.Weapon, components.Health](w)
	a, b := m.New(), m.New()
	ia, _, wa, ha := m.Get(a)
	*wa, *ha = components.Weapon{Damage: 10, Range: 2}, components.Health{Current: 50, Max: 50}
	_, _, _, hb := m.Get(b)
	*hb = components.Health{Current: 5, Max: 50}
	c := &Combat{}
	c.Initialize(w)
	ia.Attack = b
	c.Update(w)
	assert.Equal(t, -5.0, hb.Current)
	ia.Attack = b
	c.Update(w)
	assert.Equal(t, -5.0, hb.Current, "a downed target takes no more strikes")
	ia.Attack = a
	c.Update(w)
	assert.Equal(t, 50.0, ha.Current, "no self strikes")
	assert.Equal(t, int64(1), c.TotalStrikes)
}

// steerWorld: an agent at from with a move intent to goal, on a 12×12 grid
// with a wall along row 6 from x = 0 to 9.
func steerWorld(t *testing.T, from, goal r2.Vec) (*arche.World, *ecs.Scheduler, arche.Entity, *generic.Map3[components.Position, components.Intent, components.Path]) {
	t.Helper()
	w, g := newWorld(12, 12)
	for x := int32(0); x < 10; x++ {
		g.SetCost(grid.Cell{X: x, Y: 6}, grid.Blocked)
	}
	m := generic.NewMap6[components.Position, components.Velocity, components.Kinematics, components.Steering,
		components.Intent, components.Path](w)
	e := m.New()
	put(w, e, components.Desired{}) // the hand-over from PathFollow to Steer
	pos, _, kin, _, in, _ := m.Get(e)
	pos.Vec = from
	*kin = components.Kinematics{MaxSpeed: 4, MaxForce: 20, Radius: 0.3}
	*in = components.Intent{Move: true, Goal: goal}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &PathQueue{Budget: 4}, &PathFollow{Workers: 1}, &Steer{Workers: 1}, &Movement{Workers: 1})
	s.Initialize(w)
	view := generic.NewMap3[components.Position, components.Intent, components.Path](w)
	return w, s, e, &view
}

func TestSteerRepathsWhenTheGoalGoesBehindAWall(t *testing.T) {
	w, s, e, m := steerWorld(t, r2.Vec{X: 5.5, Y: 2.5}, r2.Vec{X: 5.5, Y: 5.5})
	s.Run(w, 120) // arrives next to the wall
	pos, in, _ := m.Get(e)
	require.InDelta(t, 5.5, pos.Y, 0.01)
	in.Goal = r2.Vec{X: 5.5, Y: 7.5} // two cells on, behind the wall
	s.Run(w, 600)
	pos, _, _ = m.Get(e)
	assert.InDelta(t, 5.5, pos.X, 0.01, "went around the wall to the new goal")
	assert.InDelta(t, 7.5, pos.Y, 0.01)
}

func TestSteerRetriesUnreachableWhenTheGoalMoves(t *testing.T) {
	w, s, e, m := steerWorld(t, r2.Vec{X: 5.5, Y: 2.5}, r2.Vec{X: 3.5, Y: 6.5}) // the goal is in the wall
	s.Run(w, 30)
	_, in, p := m.Get(e)
	require.Equal(t, components.PathUnreachable, p.State)
	in.Goal = r2.Vec{X: 3.5, Y: 8.5}
	s.Run(w, 900)
	pos, _, _ := m.Get(e)
	assert.InDelta(t, 3.5, pos.X, 0.01)
	assert.InDelta(t, 8.5, pos.Y, 0.01)
}

func TestPerceptionFieldOfViewLineOfSightAndMemory(t *testing.T) {
	w, g := newWorld(30, 30)
	m := generic.NewMap5[components.Position, components.Velocity, components.Faction, components.Perception, components.Think](w)
	guard := m.New()
	p, v, _, per, _ := m.Get(guard)
	p.Vec, v.Vec = r2.Vec{X: 10.5, Y: 10.5}, r2.Vec{X: 1} // facing +x
	*per = components.Perception{SightRange: 8, FieldOfView: math.Pi / 2}
	foe := func(at r2.Vec) arche.Entity {
		e := m.New()
		fp, _, f, _, th := m.Get(e)
		fp.Vec, f.Team, th.Next = at, 1, 1e9
		return e
	}
	behind := foe(r2.Vec{X: 7.5, Y: 10.5}) // 3 cells behind: outside the 90° view
	ahead := foe(r2.Vec{X: 11.5, Y: 10.5}) // 1 cell ahead
	_ = foe(r2.Vec{X: 13.5, Y: 21.5})      // out of range
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &Spatial{}, &Perception{Workers: 1})
	s.Initialize(w)
	// perception runs once per think: play the decision system's part
	thought := func() {
		_, _, _, per, th := m.Get(guard)
		th.Last, per.Fresh = ecs.ClockOf(w).Time, false
	}
	s.Update(w)
	thought()
	_, _, _, per, _ = m.Get(guard)
	require.True(t, per.Visible)
	assert.Equal(t, ahead, per.Target, "the foe behind is outside the field of view")
	assert.InDelta(t, 1.0, per.Distance, 1e-9)

	// turn around: now the foe behind is in view and nearer than the one ahead
	_, v, _, _, _ = m.Get(guard)
	v.Vec = r2.Vec{X: -1}
	s.Update(w)
	_, _, _, per, _ = m.Get(guard)
	assert.Equal(t, behind, per.Target)
	assert.InDelta(t, 0.1, per.LastSeenTime, 1e-9, "memory of when")
	assert.Equal(t, r2.Vec{X: 7.5, Y: 10.5}, per.LastSeen, "and where")

	// a wall between them hides it; the memory stays
	g.SetCost(grid.Cell{X: 9, Y: 10}, grid.Blocked)
	s.Update(w)
	_, _, _, per, _ = m.Get(guard)
	assert.True(t, per.Visible, "not perceived again before the agent thought")
	thought()
	s.Update(w)
	_, _, _, per, _ = m.Get(guard)
	assert.False(t, per.Visible, "no line of sight")
	assert.True(t, per.HasLastSeen)
	assert.InDelta(t, 0.1, per.LastSeenTime, 1e-9)
}

func TestStuckAgentIsMarkedAndAsksForAPath(t *testing.T) {
	w, g := newWorld(10, 10)
	for y := int32(0); y < 10; y++ {
		g.SetCost(grid.Cell{X: 5, Y: y}, grid.Blocked) // an unbroken wall: the goal is cut off
	}
	m := generic.NewMap7[components.Position, components.Velocity, components.Kinematics, components.Steering,
		components.Intent, components.Progress, components.Path](w)
	e := m.New()
	put(w, e, components.Desired{}) // the hand-over from PathFollow to Steer
	pos, _, kin, _, in, _, path := m.Get(e)
	pos.Vec = r2.Vec{X: 4.5, Y: 4.5}
	*kin = components.Kinematics{MaxSpeed: 3, MaxForce: 20, Radius: 0.3}
	*in = components.Intent{Move: true, Goal: r2.Vec{X: 8.5, Y: 4.5}}
	path.State = components.PathReady // a path that no longer leads anywhere
	path.Goal = g.CellAt(in.Goal)
	path.Waypoints = []grid.Cell{{X: 4, Y: 4}, {X: 5, Y: 4}, {X: 8, Y: 4}}
	path.Next = 1
	pf := &PathFollow{Workers: 1}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, pf, &Steer{Workers: 1}, &Movement{Workers: 1})
	s.Initialize(w)
	s.Run(w, int(StuckTime*60)+30)
	_, _, _, _, _, pr, path := m.Get(e)
	assert.True(t, pr.Stuck, "no progress for StuckTime seconds")
	assert.Equal(t, 1, pr.Count)
	assert.True(t, path.Want, "it asks for a new path")
}

// flowWorld: a 40×40 open grid and agents with FlowFollowers.
func flowWorld(t *testing.T, capacity int) (*arche.World, *grid.Grid, *ecs.Scheduler, *generic.Map7[components.Position, components.Velocity, components.Kinematics,
	components.Steering, components.Intent, components.SteeringWeights, components.FlowFollower]) {
	t.Helper()
	w, g := newWorld(40, 40)
	m := generic.NewMap7[components.Position, components.Velocity, components.Kinematics,
		components.Steering, components.Intent, components.SteeringWeights, components.FlowFollower](w)
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{CellSize: 1}, &FlowField{Capacity: capacity, Workers: 1},
		&PathFollow{Workers: 1}, &Steer{Workers: 1}, &Movement{Workers: 1})
	return w, g, s, &m
}

func TestFlowFieldServesMoreGoalsThanItsCacheHolds(t *testing.T) {
	w, _, s, m := flowWorld(t, 4)
	var es []arche.Entity
	for i := range 9 { // nine groups, nine goals, a cache of four
		for k := range 5 {
			e := m.New()
			put(w, e, components.Desired{}) // the hand-over from PathFollow to Steer
			pos, _, kin, _, _, _, ff := m.Get(e)
			pos.Vec = r2.Vec{X: 2.5 + float64(4*i), Y: 2.5 + float64(k)}
			*kin = components.Kinematics{MaxSpeed: 4, MaxForce: 20, Radius: 0.3}
			ff.Goal = grid.Cell{X: int32(2 + 4*i), Y: 35}
			es = append(es, e)
		}
	}
	s.Initialize(w)
	s.Run(w, 900)
	for _, e := range es {
		pos, _, _, _, _, _, ff := m.Get(e)
		assert.Greater(t, pos.Y, 25.0, "agent with goal %v never got there (at %v)", ff.Goal, pos.Vec)
	}
}

func TestFlowArrivalDiskStopsAtWalls(t *testing.T) {
	w, g, s, m := flowWorld(t, 2)
	for x := int32(0); x < 36; x++ {
		g.SetCost(grid.Cell{X: x, Y: 20}, grid.Blocked) // the goal is just above a long wall
	}
	var es []arche.Entity
	for i := range 60 {
		e := m.New()
		pos, _, kin, _, _, wt, ff := m.Get(e)
		pos.Vec = r2.Vec{X: 2.5 + float64(i%30), Y: 24.5 + float64(i/30)}
		*kin = components.Kinematics{MaxSpeed: 4, MaxForce: 20, Radius: 0.3}
		*wt = components.SteeringWeights{Separation: 1, SeparationRadius: 0.75}
		ff.Goal = grid.Cell{X: 10, Y: 18}
		es = append(es, e)
	}
	s.Initialize(w)
	for range 120 {
		s.Update(w)
		for _, e := range es {
			pos, _, _, _, _, _, ff := m.Get(e)
			if ff.Arrived {
				require.Less(t, pos.Y, 20.0, "arrived on the far side of the wall at %v", pos.Vec)
			}
		}
	}
}

func TestLODKeepsTheStagger(t *testing.T) {
	w, _ := newWorld(200, 10)
	tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	m := generic.NewMap5[components.Brain, components.Think, components.Position, components.Intent, components.LOD](w)
	const n = 600
	for i := range n {
		e := m.New()
		b, th, p, _, _ := m.Get(e)
		*b = components.Brain{Tree: tree, Memory: tree.NewMemory()}
		*th = components.Think{Interval: 0.1, Next: 0.1 * float64(i) / n} // staggered, Last = 0 for all
		p.Vec = r2.Vec{X: 50, Y: 5}                                       // in the 2 Hz band
	}
	dec := &Decision{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &LOD{Points: []r2.Vec{{X: 0, Y: 5}}}, dec)
	s.Initialize(w)
	s.Run(w, 60)
	most := 0
	for range 120 {
		s.Update(w)
		most = max(most, dec.Thought)
	}
	// 600 agents at 2 Hz over 30 frames a period: 20 a frame, give or take the
	// 6-frame stagger the agents had at 10 Hz (100 a frame at worst)
	assert.LessOrEqual(t, most, 110, "thinking stays spread over frames")
}

func TestThinkBudgetBoundsPerception(t *testing.T) {
	w, _ := newWorld(20, 20)
	tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	m := generic.NewMap7[components.Brain, components.Think, components.Position, components.Intent,
		components.Perception, components.Faction, components.Velocity](w)
	for i := range 100 {
		e := m.New()
		b, th, p, _, per, _, _ := m.Get(e)
		*b = components.Brain{Tree: tree, Memory: tree.NewMemory()}
		*th = components.Think{Interval: 10} // all due at once
		p.Vec = r2.Vec{X: 0.5 + float64(i%20), Y: 0.5 + float64(i/20)}
		per.SightRange = 5
	}
	per := &Perception{Workers: 1}
	dec := &Decision{Budget: 10}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, per, dec)
	s.Initialize(w)
	perceived := 0
	for range 10 {
		s.Update(w)
		perceived += per.Checked
	}
	assert.Equal(t, int64(100), dec.TotalThought)
	assert.Equal(t, 100, perceived, "each agent perceived once for its one think, not once a frame while it waited")
}
