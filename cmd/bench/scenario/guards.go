package scenario

import (
	"fmt"
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Teams.
const (
	TeamGuards    uint8 = 0
	TeamIntruders uint8 = 1
)

// Guard is the guard scenario's own component: where the guard lives and the
// waypoint route it patrols.
type Guard struct {
	Home       r2.Vec   // cells; where it flees to and rests
	Route      []r2.Vec // patrol waypoints, cells; never changed after spawn
	Waypoint   int      // index of the waypoint being walked to
	Recovering bool     // fled and not yet healed fully
}

// Check implements save.Checker: a loaded Guard's Waypoint indexes its Route (0 for an
// empty route) and its Home and Route are finite cells. Patrol would index past the
// route or walk to NaN otherwise.
func (g *Guard) Check() error {
	if len(g.Route) == 0 && g.Waypoint != 0 || len(g.Route) > 0 && (g.Waypoint < 0 || g.Waypoint >= len(g.Route)) {
		return fmt.Errorf("Guard.Waypoint: %d, outside a route of %d waypoints", g.Waypoint, len(g.Route))
	}
	if !finiteVec(g.Home) {
		return fmt.Errorf("Guard.Home: %v is not finite", g.Home)
	}
	for i, p := range g.Route {
		if !finiteVec(p) {
			return fmt.Errorf("Guard.Route[%d]: %v is not finite", i, p)
		}
	}
	return nil
}

func finiteVec(v r2.Vec) bool {
	return !math.IsNaN(v.X) && !math.IsInf(v.X, 0) && !math.IsNaN(v.Y) && !math.IsInf(v.Y, 0)
}

// Intruder marks an intruder.
type Intruder struct{}

// Branch numbers the things an agent of the scenario can be doing; [Stats]
// counts how often each leaf action ran.
type Branch int

// Branches of the guard and intruder trees.
const (
	BranchFlee Branch = iota
	BranchRest
	BranchAttack
	BranchChase
	BranchSearch
	BranchPatrol
	BranchIntruderStrike
	BranchIntruderWander
	NumBranches
)

var branchNames = [NumBranches]string{"flee", "rest", "attack", "chase", "search", "patrol",
	"intruder-strike", "intruder-wander"}

func (b Branch) String() string {
	if b >= 0 && b < NumBranches {
		return branchNames[b]
	}
	return fmt.Sprintf("Branch(%d)", int(b))
}

// Tuning of the guard scenario.
const (
	GuardSight      = 8.0  // cells
	GuardSpeed      = 3.0  // cells/s
	IntruderSpeed   = 3.3  // cells/s
	MaxForce        = 12.0 // cells/s²
	AgentRadius     = 0.3  // cells
	StrikeRange     = 1.5  // cells
	GuardDamage     = 10.0
	IntruderDamage  = 25.0
	GuardCooldown   = 1.0 // seconds between guard strikes
	IntruderCool    = 0.8 // seconds between intruder strikes
	FleeBelow       = 0.3 // fraction of max health under which a guard flees home
	HealRate        = 25.0
	SearchFor       = 4.0 // seconds a guard keeps hunting the last known position
	ReachedDist     = 0.75
	WanderRadius    = 12
	WanderWait      = 1.0 // seconds an intruder waits at each wander goal
	PatrolPoints    = 4
	PatrolRadius    = 10
	PatrolSpeedFrac = 0.5
)

// Stats counts leaf runs per branch over the whole run. Leaves may run on
// several decision workers at once, so they count atomically, in shards on
// cache lines of their own: one shared counter, added to by every leaf of
// both workers, bounced its cache line between the cores (0.4 ms of the
// Decision's 2.5 ms a frame with 100k guards and 2 workers).
type Stats struct {
	shards [statShards]statShard
}

// statShards is the number of Stats shards; a leaf picks one by its Agent
// view, of which the decision system has one per worker.
const statShards = 8

type statShard struct {
	runs [NumBranches]atomic.Int64
	_    [64]byte
}

// Runs returns the number of runs of branch b's leaf so far.
func (s *Stats) Runs(b Branch) int64 {
	var n int64
	for i := range s.shards {
		n += s.shards[i].runs[b].Load()
	}
	return n
}

// ran counts a run of branch b's leaf by agent view a: its shard is the
// view's cache line modulo statShards. The decision system has one view per
// worker, in an array of padded views a few cache lines apart, so the
// workers add to different shards; the count is the same either way.
func (s *Stats) ran(a *systems.Agent, b Branch) {
	k := uintptr(unsafe.Pointer(a)) >> 6
	s.shards[k%statShards].runs[b].Add(1)
}

// leaves holds what the scenario's leaves need besides the Agent view.
type leaves struct {
	guards generic.Map[Guard]
	stats  *Stats
}

// GuardTree builds the guard behavior, one tree shared by every guard:
//
//	ReactiveSelector
//	├── Sequence                      flee home when health is low, rest there
//	│   ├── Condition HealthLow
//	│   ├── Action FleeHome
//	│   └── Action Rest
//	├── Sequence                      attack a foe in range, on a cooldown
//	│   ├── Condition TargetInRange
//	│   └── Cooldown 1 s
//	│       └── Action Strike
//	├── ReactiveSequence              chase a visible foe along a path
//	│   ├── Condition CanSeeTarget
//	│   └── Action Chase
//	├── ReactiveSequence              search where it was last seen, for 4 s
//	│   ├── Condition RecentlySeen
//	│   └── Action Search
//	└── Action Patrol                 walk the waypoint route
func GuardTree(w *arche.World, stats *Stats) (*bt.Tree, error) {
	l := &leaves{guards: generic.NewMap[Guard](w), stats: stats}
	root := bt.ReactiveSelector(
		bt.Sequence(
			bt.Condition("HealthLow", l.healthLow),
			bt.Action("FleeHome", l.fleeHome),
			bt.Action("Rest", l.rest),
		).Named("Flee"),
		bt.Sequence(
			bt.Condition("TargetInRange", targetInRange),
			bt.Cooldown(GuardCooldown, bt.Action("Strike", l.strike(BranchAttack))),
		).Named("Attack"),
		bt.ReactiveSequence(
			bt.Condition("CanSeeTarget", canSee),
			bt.Action("Chase", l.chase),
		).Named("Chase"),
		bt.ReactiveSequence(
			bt.Condition("RecentlySeen", recentlySeen),
			bt.Action("Search", l.search),
		).Named("Search"),
		bt.Action("Patrol", l.patrol),
	).Named("Guard")
	return bt.Compile("guard", root)
}

// IntruderTree builds the intruder behavior:
//
//	ReactiveSelector
//	├── Sequence                   fight back against a guard in range
//	│   ├── Condition TargetInRange
//	│   └── Cooldown 0.8 s
//	│       └── Action Strike
//	└── Sequence                   wander: pick a goal, walk there, wait
//	    ├── Action PickWanderGoal
//	    ├── Action MoveTo
//	    └── Wait 1 s
func IntruderTree(w *arche.World, stats *Stats) (*bt.Tree, error) {
	l := &leaves{stats: stats}
	root := bt.ReactiveSelector(
		bt.Sequence(
			bt.Condition("TargetInRange", targetInRange),
			bt.Cooldown(IntruderCool, bt.Action("Strike", l.strike(BranchIntruderStrike))),
		).Named("FightBack"),
		bt.Sequence(
			bt.Action("PickWanderGoal", l.pickWanderGoal),
			bt.Action("MoveTo", moveTo),
			bt.Wait(WanderWait),
		).Named("Wander"),
	).Named("Intruder")
	return bt.Compile("intruder", root)
}

func (l *leaves) healthLow(ctx *bt.Context) bool {
	a := systems.AgentOf(ctx)
	hp := a.Health
	if hp == nil {
		return false
	}
	if hp.Current < FleeBelow*hp.Max {
		return true
	}
	// the guard's own component only when it may matter (a lookup by entity)
	return hp.Current < hp.Max && l.guards.Get(a.Entity).Recovering
}

func (l *leaves) fleeHome(ctx *bt.Context) bt.Status {
	a := systems.AgentOf(ctx)
	g := l.guards.Get(a.Entity)
	g.Recovering = true
	l.stats.ran(a, BranchFlee)
	return moveTowards(a, g.Home, 1)
}

func (l *leaves) rest(ctx *bt.Context) bt.Status {
	a := systems.AgentOf(ctx)
	l.stats.ran(a, BranchRest)
	a.Intent.Move = false
	hp := a.Health
	hp.Current += float64(HealRate * ctx.DT)
	if hp.Current < hp.Max {
		return bt.Running
	}
	hp.Current = hp.Max
	l.guards.Get(a.Entity).Recovering = false
	return bt.Success
}

// targetInRange reports whether the agent sees a foe within StrikeRange that
// is alive. A perception of this frame (Perception.Time is now) names an agent
// of this frame's systems.Neighbours, alive when Spatial ran, and nothing in
// the scenario's frame order changes the world's structure between Spatial
// and Decision, so it is alive: the lookup (a cache miss in Arche's entity
// table per attacker) is left to older perceptions, held back by a think
// budget. Combat checks the target again before it strikes.
func targetInRange(ctx *bt.Context) bool {
	a := systems.AgentOf(ctx)
	p := a.Perception
	return p != nil && p.Visible && p.Distance <= StrikeRange && (p.Time == ctx.Time || a.World.Alive(p.Target))
}

func (l *leaves) strike(b Branch) func(*bt.Context) bt.Status {
	return func(ctx *bt.Context) bt.Status {
		a := systems.AgentOf(ctx)
		l.stats.ran(a, b)
		a.Intent.Attack = a.Perception.Target
		a.Intent.Move, a.Intent.Goal, a.Intent.SpeedFactor = true, a.Perception.TargetAt, 1
		return bt.Success
	}
}

func canSee(ctx *bt.Context) bool {
	p := systems.AgentOf(ctx).Perception
	return p != nil && p.Visible
}

func (l *leaves) chase(ctx *bt.Context) bt.Status {
	a := systems.AgentOf(ctx)
	l.stats.ran(a, BranchChase)
	a.Intent.Move, a.Intent.Goal, a.Intent.SpeedFactor = true, a.Perception.TargetAt, 1
	return bt.Running
}

func recentlySeen(ctx *bt.Context) bool {
	a := systems.AgentOf(ctx)
	p := a.Perception
	return p != nil && p.HasLastSeen && ctx.Time-p.LastSeenTime < SearchFor
}

func (l *leaves) search(ctx *bt.Context) bt.Status {
	a := systems.AgentOf(ctx)
	l.stats.ran(a, BranchSearch)
	st := moveTowards(a, a.Perception.LastSeen, 1)
	if st != bt.Running {
		a.Perception.HasLastSeen = false // searched there: forget it
	}
	return st
}

func (l *leaves) patrol(ctx *bt.Context) bt.Status {
	a := systems.AgentOf(ctx)
	g := l.guards.Get(a.Entity)
	l.stats.ran(a, BranchPatrol)
	if len(g.Route) == 0 {
		a.Intent.Move = false
		return bt.Running
	}
	if moveTowards(a, g.Route[g.Waypoint], PatrolSpeedFrac) != bt.Running {
		g.Waypoint = (g.Waypoint + 1) % len(g.Route)
	}
	return bt.Running
}

func (l *leaves) pickWanderGoal(ctx *bt.Context) bt.Status {
	a := systems.AgentOf(ctx)
	l.stats.ran(a, BranchIntruderWander)
	for range 8 {
		dx := a.Rand.Intn(2*WanderRadius+1) - WanderRadius
		dy := a.Rand.Intn(2*WanderRadius+1) - WanderRadius
		c := a.Grid.CellAt(r2.Add(a.Position.Vec, r2.Vec{X: float64(dx), Y: float64(dy)}))
		if a.Grid.Passable(c) {
			a.Intent.Move, a.Intent.Goal, a.Intent.SpeedFactor = true, a.Grid.Center(c), 0.7
			return bt.Success
		}
	}
	return bt.Failure
}

func moveTo(ctx *bt.Context) bt.Status {
	a := systems.AgentOf(ctx)
	return moveTowards(a, a.Intent.Goal, a.Intent.SpeedFactor)
}

// moveTowards sets the move intent to goal and reports Success once the agent
// is within ReachedDist of it, Failure if its path there is unreachable, and
// Running otherwise.
func moveTowards(a *systems.Agent, goal r2.Vec, speed float64) bt.Status {
	a.Intent.Move, a.Intent.Goal, a.Intent.SpeedFactor = true, goal, speed
	if r2.Norm(r2.Sub(goal, a.Position.Vec)) < ReachedDist {
		a.Intent.Move = false
		return bt.Success
	}
	if a.Path != nil && a.Path.State == components.PathUnreachable && a.Path.Goal == a.Grid.CellAt(goal) {
		a.Intent.Move = false
		return bt.Failure
	}
	return bt.Running
}

// randomOpenCell returns the centre of a random passable cell (after up to
// 1000 tries, the first passable cell in row order).
func randomOpenCell(g *grid.Grid, r *steer.Rand) (r2.Vec, bool) {
	for range 1000 {
		c := grid.Cell{X: int32(r.Intn(g.Width())), Y: int32(r.Intn(g.Height()))}
		if g.Passable(c) {
			return g.Center(c), true
		}
	}
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < g.Width(); x++ {
			c := grid.Cell{X: int32(x), Y: int32(y)}
			if g.Passable(c) {
				return g.Center(c), true
			}
		}
	}
	return r2.Vec{}, false
}
