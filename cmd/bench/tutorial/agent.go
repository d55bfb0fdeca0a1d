package tutorial

import (
	"errors"
	"math"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

var errNoOpenCell = errors.New("tutorial: the map has no passable cell")

// Tuning the scenario leaves to archai's defaults.
const (
	thinkInterval   = 0.1 // systems.DefaultThinkInterval
	maxHealth       = 100.0
	waypointRadius  = 0.5  // systems.WaypointRadius
	arrivedRadius   = 1e-3 // systems.ArrivedRadius
	stuckDistance   = 0.5  // systems.StuckDistance
	stuckTime       = 2.0  // systems.StuckTime
	feelerTime      = 0.5  // Steer's feeler lookahead
	separationRange = 3 * scenario.AgentRadius
)

// Agent is one guard or intruder: its body, its own tree and blackboard, and
// its path.
type Agent struct {
	ID       int
	Intruder bool
	Pos, Vel r2.Vec
	Health   float64
	Speed    float64 // cells/s
	Damage   float64

	Tree       Node
	Blackboard map[string]any // facts and plans, by name

	rand      steer.Rand
	nextThink float64
	lastThink float64
	attack    *Agent // the strike asked for this frame

	// path following
	path       []grid.Cell
	pathReady  bool
	pathGoal   grid.Cell
	next       int
	sightKnown bool
	sightClear bool
	sightFrom  grid.Cell
	sightTo    grid.Cell
	anchor     r2.Vec // stuck detection
	since      float64

	world *World
}

// The blackboard's keys.
const (
	kTarget       = "target"       // *Agent
	kVisible      = "visible"      // bool
	kTargetAt     = "targetAt"     // r2.Vec
	kDistance     = "distance"     // float64
	kHasLastSeen  = "hasLastSeen"  // bool
	kLastSeen     = "lastSeen"     // r2.Vec
	kLastSeenTime = "lastSeenTime" // float64
	kHome         = "home"         // r2.Vec
	kRoute        = "route"        // []r2.Vec
	kWaypoint     = "waypoint"     // int
	kRecovering   = "recovering"   // bool
	kMove         = "move"         // bool
	kGoal         = "goal"         // r2.Vec
	kSpeedFactor  = "speedFactor"  // float64
)

func (a *Agent) spawnGuard(home r2.Vec, seed uint64) {
	g := a.world.Grid
	rng := steer.NewRand(seed ^ 0xa11ce) // as the scenario's guard routes
	route := make([]r2.Vec, 0, scenario.PatrolPoints)
	for len(route) < scenario.PatrolPoints {
		found := false
		for range 16 {
			c := g.CellAt(r2.Add(home, r2.Vec{
				X: float64(rng.Intn(2*scenario.PatrolRadius+1) - scenario.PatrolRadius),
				Y: float64(rng.Intn(2*scenario.PatrolRadius+1) - scenario.PatrolRadius)}))
			if g.Passable(c) {
				route, found = append(route, g.Center(c)), true
				break
			}
		}
		if !found {
			route = append(route, home)
		}
	}
	a.Speed, a.Damage = scenario.GuardSpeed, scenario.GuardDamage
	a.reset(home, seed)
	a.Tree = guardTree()
	a.Blackboard[kHome] = home
	a.Blackboard[kRoute] = route
	a.Blackboard[kWaypoint] = 0
	a.Blackboard[kRecovering] = false
}

func (a *Agent) spawnIntruder(pos r2.Vec, seed uint64) {
	a.Intruder = true
	a.Speed, a.Damage = scenario.IntruderSpeed, scenario.IntruderDamage
	a.reset(pos, seed)
	a.Tree = intruderTree()
}

// reset starts the agent afresh at pos: full health, no plan, a new phase of
// its think rate.
func (a *Agent) reset(pos r2.Vec, seed uint64) {
	a.Pos, a.Vel, a.Health = pos, r2.Vec{}, maxHealth
	a.rand = steer.NewRand(seed)
	now := a.world.Time
	a.nextThink, a.lastThink = now+float64(a.rand.Float64()*thinkInterval), now
	a.Blackboard = map[string]any{kVisible: false, kHasLastSeen: false, kMove: false}
	a.path, a.pathReady, a.next, a.sightKnown = a.path[:0], false, 0, false
	a.anchor, a.since = pos, now
}

// perceive finds the nearest foe within sight range and in line of sight.
func (a *Agent) perceive() {
	w := a.world
	w.Perceived++
	var best *Agent
	bestD := math.Inf(1)
	w.each(a.Pos, scenario.GuardSight, func(o *Agent) {
		if o.Intruder == a.Intruder {
			return
		}
		d := r2.Norm(r2.Sub(o.Pos, a.Pos))
		if d > scenario.GuardSight || d >= bestD || !w.Grid.LineOfSight(a.Pos, o.Pos) {
			return
		}
		best, bestD = o, d
	})
	bb := a.Blackboard
	if best == nil {
		bb[kVisible] = false
		bb[kTarget] = (*Agent)(nil)
		return
	}
	bb[kVisible] = true
	bb[kTarget] = best
	bb[kTargetAt] = best.Pos
	bb[kDistance] = bestD
	bb[kHasLastSeen] = true
	bb[kLastSeen] = best.Pos
	bb[kLastSeenTime] = w.Time
}

// think ticks the agent's tree.
func (a *Agent) think() {
	w := a.world
	w.Thought++
	a.Tree.Tick(a)
	a.lastThink = w.Time
	a.nextThink += thinkInterval
}

// dt is the time since the agent last thought, the dt its tree sees.
func (a *Agent) dt() float64 { return a.world.Time - a.lastThink }

// strike lands the strike asked for this frame, if the target is in range.
func (a *Agent) strike() {
	t := a.attack
	if t == nil {
		return
	}
	a.attack = nil
	if t == a || t.Health <= 0 || r2.Norm(r2.Sub(t.Pos, a.Pos)) > scenario.StrikeRange {
		return
	}
	t.Health -= a.Damage
	a.world.Strikes++
}

// fall handles an agent whose health reached 0: a guard is carried home and
// healed, an intruder is replaced by a new one elsewhere.
func (a *Agent) fall() {
	bb := a.Blackboard
	if !a.Intruder {
		home := bb[kHome].(r2.Vec)
		a.Health, a.Pos, a.Vel = maxHealth, home, r2.Vec{}
		bb[kMove] = false
		bb[kRecovering] = false
		a.path, a.pathReady, a.next = a.path[:0], false, 0
		return
	}
	a.Tree.Halt()
	seed := a.rand.Uint64()
	r := steer.NewRand(seed)
	at, ok := randomOpenCell(a.world.Grid, &r)
	if !ok {
		at = a.Pos
	}
	a.reset(at, seed)
	a.Tree = intruderTree()
}
