package systems

import (
	"github.com/archai-go/archai/internal/detmath"
	"math"
	"unsafe"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// WaypointRadius is the distance in cells within which a path follower counts
// a waypoint (a cell centre) as reached and turns to the next.
const WaypointRadius = 0.5

// ArrivedRadius is the distance in cells within which an agent counts as
// arrived at its goal: arrive stops there and stays still.
const ArrivedRadius = 1e-3

// Stuck detection: an agent with a move intent that stays within
// StuckDistance cells for StuckTime seconds is stuck.
const (
	StuckDistance = 0.5
	StuckTime     = 2.0
)

// PathFollow is the first stage of movement: it turns each agent's
// [components.Intent], path and flow field into where the agent heads this
// frame, a [components.Desired] that [Steer] then carries out. It owns the
// repath policy, waypoint advance, stuck detection and the line-of-sight
// cache; it computes no force.
//
// What it writes into Desired:
//
//   - Intent.Mode IntentFlee or IntentEvade: flee from, or evade, the target
//     (Intent.Target's position and velocity in this frame's [Neighbours], or
//     Intent.Point standing still). A Target not in the Neighbours (dead, or
//     without a Velocity) is no target: the agent brakes.
//   - IntentPursue: pursue the target while it is in line of sight (or the
//     agent has no Path); behind a wall, follow a path to the target's
//     position as for a move, and pursue it once in sight again ([Steer]
//     stops the pursuer beside it: CatchGap). A pursuit of Intent.Point (no
//     Target) is a move to the point: arrive at it (DesiredArrive).
//   - IntentGo with Move: arrive at Goal when it is in line of sight or the
//     agent has no Path; otherwise follow the agent's path: seek each
//     waypoint's cell centre, and arrive at the goal from the last one. Within
//     a cell of a goal nearer a blocked cell (or the grid's edge) than its
//     radius (two cells once it aims there), an agent of radius up to 0.5
//     arrives at its rest point instead:
//     the goal moved its radius off that side, or from that corner (so it may
//     stop up to its radius from Goal; a pursuit of Intent.Point too). If the
//     agent holds no path for the goal's cell, it asks for one (Path.Want);
//     while waiting, or when the goal is unreachable, it seeks the goal
//     directly (Movement keeps it out of walls), except that a goal off the
//     grid or in a blocked cell, answered unreachable, is arrived at short:
//     along the straight line, the agent's radius before the first blocked
//     cell or map edge it meets (it rests there, and keeps that point while
//     it is still one, atStop, so a group pushed along the wall gathers about
//     its points; Diagnose counts CauseGoalUnusable); a wide agent (Radius above 0.5) whose goal's open
//     cell is too narrow for its disc (clearance below grid.ClearanceFor,
//     which the queue would answer unreachable; Diagnose counts
//     CausePathGoalNarrow) arrives at the point beside the goal where its
//     disc fits (fitPoint; in a gap narrower than the disc, the nearest cell
//     centre wide enough), its path asked for the cell there wide enough for
//     it, so a point behind a wall is walked round to (goToFit); it rests
//     there, and settles with others sharing that point (below); with no
//     route its disc fits, it stops where it is (DesiredStop). Inside a
//     wall (a door closed
//     on it) it walks out that way too, unless the line first enters an open
//     cell cut off from the goal (a pocket in the wall, where it would be
//     trapped): then it seeks the open cell connected to the goal within 4
//     cells, nearest the goal, whose line first enters no such cell (walkOut);
//     with its goal in a blocked cell or off the grid (in the same wall,
//     perhaps: a building placed on an agent at its goal), it seeks the
//     centre of the nearest open cell within 4 cells, then stops short.
//   - no move intent, with a [components.FlowFollower] whose sample gives a
//     direction (see [FlowField]): follow it (arrive when the goal is in
//     sight; stop, DesiredStop, once Arrived, or arrive at Follow while
//     Following a goal that walked).
//   - otherwise DesiredNone: Steer brakes, or wanders a Wanderer. So does an
//     Intent.Mode past IntentEvade (no mode: written by hand or by a bad
//     cast), as no move intent at all: not to Goal, nor along its flow field
//     (Diagnose counts it, CauseModeInvalid; a save refuses it).
//   - A Path.State past PathUnreachable (no state) is read, and set, as
//     PathNone, as a Path.Next below 0 is as 0.
//   - Inside a wall (a door or bridge closed on it), an agent whose Desired
//     would head nowhere (DesiredNone or DesiredStop, a flight or an evasion)
//     seeks the centre of the nearest open cell within 4 cells first
//     (leaveWall): an agent in a blocked cell walks out whatever its intent.
//
// Repathing: a held path is replaced when the goal's cell is more than
// 2 + d/4 cells (Chebyshev) from the path's goal, d being the agent's distance
// to the goal, or when the goal moved out of the path end's line of sight, so
// a chased target that moves a little does not cost a search per frame; a
// pending request just takes the new goal; an unreachable answer is retried
// when the goal moves to another cell (and by the [PathQueue] when an edit
// opens a cell); a stuck agent asks again, unless its path was answered
// unreachable for the goal's cell and the goal is still unreachable from the
// agent's cell ([grid.Grid.ConnectedWide] for its clearance, tested after the
// workers): asking again would get the same answer, so an agent pressing
// against a river too narrow for it does not ask every StuckTime seconds.
// While following, the agent moves on to the next waypoint when it reaches
// the current one or when the next one is nearer.
//
// A Path belongs to the current goal. When the goal is in sight (the agent
// heads straight for it), a path held for another goal cell is kept only if
// it would not be replaced (the rule above); otherwise it is let go (State
// PathNone, no waypoints, Next 0, Goal the goal's cell), and so is an
// unreachable answer (a goal in sight is reachable) and a request not yet
// filed (Want) with no path held: a route to a former goal is never followed later, a grid edit
// across it asks for no search, and PathUnreachable never stands while the
// agent walks straight to its goal. A pending request takes the new goal's
// cell.
//
// With a [components.Progress], an agent that wants to move (a move or a
// pursuit) and makes no progress for StuckTime seconds is marked Stuck and
// asks for a new path.
//
// Wide agents sharing a goal settle: agents of Kinematics.Radius above 0.5
// with a Path, arriving at the same goal point, never all reach it (they push
// each other apart), so once two or more head straight for it, each that
// reaches the crowd around it stops for good with DesiredHold (Steer then
// only brakes it): the nearest within a radius (a diameter if jammed) of the
// goal, then each within the disc the settled ones pack into, or touching a
// settled one near the goal or on the crowd's rim, or held off beside one
// for a second (settle.go has the exact rule). A crowd of them settles within
// seconds and stands still; a lone wide agent, and any agent of radius
// ≤ 0.5, arrives on the goal point as before. A settled agent moves again
// when its goal changes. Agents of other sizes at the goal do not count: wide
// Movers sent to a point that small agents crowd keep pushing at their rim.
// Agents of radius ≤ 0.5 sent to one point with separation on (the bundles'
// default) do not settle here: [Steer] brings them to rest packed about the
// point (a slow agent pushed back from its point arrives as a damped spring,
// steer_crowd.go; 2 to 10 default Movers still within 20 s, 30 within 35 s).
// Without separation they come to rest on the point, heaped. One still
// walking its path there (the goal out of sight: round a pillar, past a
// wall's end) within 6 cells of the goal holds (DesiredHold) while its disc
// touches an agent at rest sent to the same Intent.Goal and nearer it, as an
// RTS unit stops on bumping into one of its group already arrived, and walks
// on once that one moves or leaves (pathfollow_crowd.go); before, those
// pressed into the crowd on their waypoint for good.
//
// Work is split over Workers goroutines (0: runtime.GOMAXPROCS); the result
// does not depend on their number.
//
// Contract (docs/contract.md has the same table):
//
//	requires   Position, Intent, Desired
//	optional   Path, Progress, FlowFollower, Kinematics (Radius: see goTo)
//	writes     Desired; Path.Want, Goal, Next and its sight cache; Progress
//	resources  *ecs.Clock (ecs.ClockSystem), *grid.Grid,
//	           *Neighbours (the Spatial system, added before PathFollow)
//
//	absent or unusable             what PathFollow does                   Diagnose counts
//	a required component           Desired not written                    CauseSteerIncomplete
//	Path                           opt-out: heads for goals in a          CauseMoveWithoutPath, when
//	                               straight line (Movement stops it       Intent.Move on a grid with walls
//	                               at walls)
//	Progress                       opt-out: no stuck detection            -
//	FlowFollower                   opt-out: no flow following             -
//	Position NaN/Inf               DesiredNone; path left alone           CausePosition
//	Intent.Goal or Point NaN/Inf   as no move intent: DesiredNone, asks   CauseGoal
//	                               for no path
//	Intent.SpeedFactor NaN, Inf,   full speed, as 0                       CauseSpeedFactor
//	  negative or over 1
//	Intent.Target not in the       no target: DesiredNone                 CauseTargetUnusable when the
//	  Neighbours                                                          target is alive (no Position or
//	                                                                      Velocity); - when it is dead
type PathFollow struct {
	ran     ecs.Ran // the frame it last ran, for save.Save's check (ecs.Frame.Between)
	Workers int

	Stuck int // agents found stuck in the last frame

	clock   *ecs.Clock
	grid    *grid.Grid
	nb      *Neighbours
	crowd   crowdMaps // other agents' Intent and Kinematics (pathfollow_crowd.go)
	pool    *ecs.Workers
	blocks  blockRun
	filter  *generic.Filter6[components.Position, components.Intent, components.Desired, components.Path, components.Progress, components.FlowFollower]
	scratch []followScratch
	sight   openCells // a bitmap of blocked cells: short lines known clear without a walk

	cols         columns      // the query's components, read by the workers
	withPath     []pathRun    // the runs of agents with a Path
	settling     []settleCand // settle's scratch: the workers' candidates together
	settledIdx   []int32      // settleGroup's scratch: the group's settled agents
	settledLinks []int32      // settleGroup's scratch: how many settled agents each touches
	n            int          // agents in this frame's query
	pathPhase    bool         // Work serves the agents with a Path

	finalized bool // Finalize ran, and Initialize not since (lifecycle.go)
}

// followJob is one agent's work: its position and pointers to what it reads
// and writes (nil for an optional component the agent lacks).
type followJob struct {
	pos      r2.Vec
	intent   *components.Intent
	desired  *components.Desired
	path     *components.Path
	progress *components.Progress
	flow     *components.FlowFollower
	kin      *components.Kinematics // with a Path only: its Radius, read only when a line of sight is tested (see clearOf)
}

// clearOf returns the grid.ClearanceFor of an agent with Kinematics kin (nil:
// none, 1). PathFollow reads it only when it tests a line of sight, every
// few frames, not each frame.
func clearOf(kin *components.Kinematics) uint8 {
	if kin == nil {
		return 1
	}
	return grid.ClearanceFor(kin.Radius)
}

type followScratch struct {
	stuck   int
	unreach []stuckUnreachable // track: stuck agents answered unreachable for their goal's cell, for Update to test
	settle  []settleCand       // follow: wide agents arriving at their goal, for Update to settle (settle.go)
	slow    []int32            // followRun: the agents of its range that follow calls for (capacity blockSize from Initialize)
	touch   int32              // followRun: a sum of the waypoints it touched, kept so the loads stay
	radii   float64            // followRun: a sum of the radii it touched, likewise
	_       [20]byte           // keep workers' counters off one cache line
}

// stuckUnreachable is a stuck agent whose Path was answered unreachable for
// its goal's cell: Update asks again for it when the goal is reachable from
// pos (its Kinematics kin, nil if none, gives the clearance). The pointers
// live for one Update.
type stuckUnreachable struct {
	path *components.Path
	kin  *components.Kinematics
	pos  r2.Vec
}

// MaxLead is the longest look-ahead, in seconds, of pursuit and evasion: the
// target's position is predicted at most this far ahead (see steer.Predict).
const MaxLead = 2.0

// CatchGap is the gap, in cells, a pursuer keeps between its disc and its
// target's when it has caught up with it: [Steer] pursues by steer.Catch with
// a standoff of twice the pursuer's radius plus CatchGap (a target of its own
// size), so a pursuer stands beside a target that stands and keeps pace with
// one that moves, instead of running into it (and shoving it on at full
// speed). A standing target does not give way to its pursuer's separation
// (Steer): before, it drifted off at 0.074 cells/s for good (two default
// Movers), its pursuer following.
const CatchGap = 0.1

// Name implements ecs.Namer.
func (s *PathFollow) Name() string { return "pathfollow" }

// Initialize finds the resources and builds the filter.
//
// Panics:
//   - if the world has no *ecs.Clock resource: add ecs.NewClockSystem(dt) as
//     the first system;
//   - if the world has no *grid.Grid resource: add one with
//     arche.AddResource before Initialize, or one of no cells (a zero
//     grid.Grid{}): make it with grid.New or grid.NewChecked;
//   - if the world has no *Neighbours resource: add the Spatial system
//     before PathFollow.
func (s *PathFollow) Initialize(w *arche.World) {
	s.clock = mustClock(w, "PathFollow")
	s.grid = mustGrid(w, "PathFollow")
	s.nb = mustNeighbours(w, "PathFollow")
	s.crowd = crowdMaps{world: w, intents: generic.NewMap[components.Intent](w), kins: generic.NewMap[components.Kinematics](w)}
	markInstalled(w, sysPathFollow)
	s.ran.Join(w, s)
	s.filter = generic.NewFilter6[components.Position, components.Intent, components.Desired, components.Path,
		components.Progress, components.FlowFollower]().
		Optional(generic.T[components.Path](), generic.T[components.Progress](), generic.T[components.FlowFollower]())
	s.pool = reopenPool(s.pool, s.Workers)
	s.scratch = make([]followScratch, s.pool.N())
	for i := range s.scratch { // a block's worth: which worker claims a busy block depends on timing
		s.scratch[i].slow = make([]int32, 0, blockSize)
	}
	s.cols.reset() // a second world (a level restart) registers its own columns
	s.cols.column(arche.ComponentID[components.Position](w), unsafe.Sizeof(components.Position{}))
	s.cols.column(arche.ComponentID[components.Intent](w), unsafe.Sizeof(components.Intent{}))
	s.cols.column(arche.ComponentID[components.Desired](w), unsafe.Sizeof(components.Desired{}))
	s.cols.column(arche.ComponentID[components.Path](w), unsafe.Sizeof(components.Path{}))
	s.cols.column(arche.ComponentID[components.Progress](w), unsafe.Sizeof(components.Progress{}))
	s.cols.column(arche.ComponentID[components.FlowFollower](w), unsafe.Sizeof(components.FlowFollower{}))
	s.cols.column(arche.ComponentID[components.Kinematics](w), unsafe.Sizeof(components.Kinematics{}))
	s.prepareGrid() // at Initialize, not in the first frame (Steer.prepareGrid)
}

// prepareGrid brings the grid's lazy caches, the sight bitmap and the
// clearance up to date.
func (s *PathFollow) prepareGrid() {
	s.grid.Prepare()
	s.sight.bitsOnly = true
	s.sight.update(s.grid)
	s.grid.Clearance(grid.Cell{}) // built here, before the workers read it (wide agents' sight)
}

// Update writes every agent's Desired. The query's columns are recorded
// archetype by archetype (no entity read); the workers then serve blocks (blockRun) of the agents without a Path (a few
// copies each: a swarm's agents), and then, split apart, those with one (the
// line-of-sight tests), so neither kind piles up on one worker.
func (s *PathFollow) Update(w *arche.World) {
	s.ran.Mark(w)
	mustInitialized(s.filter, s.finalized, "PathFollow")
	s.prepareGrid()
	q := s.filter.Query(w)
	n := q.Count()
	s.cols.scanRuns(w, &q.Query) // no entity needed: runs and count only
	c := &s.cols
	s.withPath = s.withPath[:0]
	m := 0
	for r := range c.runs {
		if c.runs[r].ptr[pfPath] != nil {
			s.withPath = append(s.withPath, pathRun{run: r, start: m})
			m += c.end(r, n) - c.runs[r].start
		}
	}
	s.n, s.pathPhase = n, false
	if m < n { // else every agent has a Path: a pass over them all would serve none
		s.blocks.run(s.pool, s, n)
	}
	s.pathPhase = true
	s.blocks.run(s.pool, s, m)
	s.Stuck = 0
	unreach := 0
	for i := range s.scratch {
		sc := &s.scratch[i]
		s.Stuck += sc.stuck
		sc.stuck = 0
		unreach += len(sc.unreach)
		s.askUnreachable(sc) // on the calling goroutine: see askUnreachable
	}
	for i := range s.scratch { // room for them all in each worker's list, as settle's
		s.scratch[i].unreach = reserve(s.scratch[i].unreach, unreach)
	}
	s.settle() // wide agents sharing a goal (settle.go)
}

// askUnreachable asks again for a path for each stuck agent track listed in
// sc as answered unreachable for its goal's cell, when the goal is reachable
// from the agent's cell for its clearance (so the answer may differ: it was
// given from elsewhere, or inside a wall), and empties the list. It runs on
// the calling goroutine: ConnectedWide may label the components of a
// clearance not asked for before.
func (s *PathFollow) askUnreachable(sc *followScratch) {
	for _, u := range sc.unreach {
		if s.grid.ConnectedWide(s.grid.CellAt(u.pos), u.path.Goal, clearOf(u.kin)) {
			u.path.Want = true
		}
	}
	clear(sc.unreach) // no component pointer kept past the Update
	sc.unreach = sc.unreach[:0]
}

// pathRun is a run of agents with a Path: run r of the columns, its first
// agent at index start among the agents with a Path.
type pathRun struct{ run, start int }

// Column indices of PathFollow's columns.
const (
	pfPos = iota
	pfIntent
	pfDesired
	pfPath
	pfProgress
	pfFlow
	pfKin // optional, not in the filter: the agent's radius for its line of sight
)

// Work implements ecs.Job: agents [lo, hi) of the query without a Path, or,
// in the path phase, agents [lo, hi) of those with one.
func (s *PathFollow) Work(worker, lo, hi int) {
	sc := &s.scratch[worker]
	c := &s.cols
	if !s.pathPhase {
		for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
			if c.runs[r].ptr[pfPath] == nil {
				s.followRun(r, max(lo, c.runs[r].start), min(hi, c.end(r, s.n)), sc)
			}
		}
		return
	}
	for k := range s.withPath {
		pr := s.withPath[k]
		first := c.runs[pr.run].start
		count := c.end(pr.run, s.n) - first
		a, b := max(lo, pr.start), min(hi, pr.start+count)
		if a < b {
			s.followRun(pr.run, first+a-pr.start, first+b-pr.start, sc)
		}
	}
}

// followRun serves the query's agents [from, to) of run r.
func (s *PathFollow) followRun(r, from, to int, sc *followScratch) {
	c := &s.cols
	// the columns cut to the agents served, all of one length (indices
	// below count from the first): the loops' bounds checks go
	a, b := from-c.runs[r].start, to-c.runs[r].start
	pos := columnOf[components.Position](c, r, pfPos, s.n)[a:b]
	in := columnOf[components.Intent](c, r, pfIntent, s.n)[a:b]
	des := columnOf[components.Desired](c, r, pfDesired, s.n)[a:b]
	in, des = in[:len(pos)], des[:len(pos)]
	path := cut(columnOf[components.Path](c, r, pfPath, s.n), a, b)
	prog := cut(columnOf[components.Progress](c, r, pfProgress, s.n), a, b)
	flow := cut(columnOf[components.FlowFollower](c, r, pfFlow, s.n), a, b)
	kin := cut(columnOf[components.Kinematics](c, r, pfKin, s.n), a, b)
	// the common case first; the others are served after, together (the
	// order changes nothing: each agent writes only its own components)
	slow := sc.slow[:0]
	now := s.clock.Time
	for i := range pos {
		if path == nil {
			goto other
		}
		// sightHit written out (as a call it cost ~20 instructions of the
		// ~190 an agent costs here): the cells of positions and goals in
		// [0, 2³¹) found by a conversion (onGridCoords), any other's by
		// sightHit
		if it, ps, p := &in[i], pos[i].Vec, &path[i]; onGridCoords(ps) && onGridCoords(it.Goal) {
			if it.Mode != components.IntentGo || !it.Move {
				goto other
			}
			from := grid.Cell{X: int32(ps.X), Y: int32(ps.Y)}
			to := grid.Cell{X: int32(it.Goal.X), Y: int32(it.Goal.Y)}
			if !p.SightKnown || from != p.SightFrom || to != p.SightTo {
				// a cell changed: inSight tests the line again, and the
				// bitmap of blocked cells settles most tests (an agent
				// moves to a new cell every ~10 frames: a tenth of the
				// guards a frame); those it settles clear are served
				// here, inSight's answer written out, the others by follow
				// (a path held for another goal cell goes to goTo too,
				// which keeps it or lets it go: keepFor)
				if (kin != nil && grid.ClearanceFor(kin[i].Radius) > 1) || p.Want || p.State == components.PathUnreachable || (p.State != components.PathNone && p.Goal != to) ||
					!s.sight.clear(ps, it.Goal) {
					goto other
				}
				p.SightFrom, p.SightTo, p.SightKnown, p.SightClear = from, to, true, true
			} else if !p.SightClear || p.Want || p.State == components.PathUnreachable {
				goto other // (the last two: goTo lets them go, keepFor)
			}
		} else if !s.sightHit(ps, it, p) {
			goto other
		}
		if kin != nil && kin[i].Radius > 0.5 {
			goto other // a wide agent: follow, which lists it for settle
		}
		{
			// the common case, in short: a move whose goal was in sight
			// from these cells (follow's and goTo's first answer, without
			// their calls): setDesired of an Arrive at the goal, written out
			it, ps := &in[i], pos[i].Vec
			f, g, d := speedFactor(it), it.Goal, &des[i]
			if kin != nil && nearRest(ps, g, d) {
				g = s.restPoint(g, kin[i].Radius) // clear of a wall beside the goal
			}
			if d.Mode != components.DesiredArrive || math.Float64bits(d.SpeedFactor) != math.Float64bits(f) ||
				math.Float64bits(d.Point.X) != math.Float64bits(g.X) || math.Float64bits(d.Point.Y) != math.Float64bits(g.Y) ||
				math.Float64bits(d.Vel.X)|math.Float64bits(d.Vel.Y) != 0 {
				*d = components.Desired{Mode: components.DesiredArrive, SpeedFactor: f, Point: g}
			}
			if prog != nil {
				// track for a moving agent, its usual answer written out:
				// it moved, or is at its goal (StuckTime not checked)
				if pr := &prog[i]; dist2(ps, pr.Anchor) > StuckDistance*StuckDistance || dist2(ps, g) <= StuckDistance*StuckDistance {
					moveOn(pr, ps, now)
				} else if now-pr.Since >= StuckTime {
					var k *components.Kinematics
					if kin != nil {
						k = &kin[i]
					}
					s.track(pr, &path[i], k, sc, ps, true, g, g)
				}
			}
			continue
		}
	other:
		if path == nil && prog == nil && flow != nil && flowHit(pos[i].Vec, &in[i], &flow[i], &des[i]) {
			continue // a swarm's agent: follow's answer, without its call
		}
		slow = append(slow, int32(i))
	}
	if path != nil {
		// Each agent's waypoints are a buffer of its own, far from the
		// others' (one page each, or more), so reading the next waypoint is
		// a cache miss, and for the agents following a path goTo reads one.
		// Loaded here one after another, with nothing depending on them,
		// the misses overlap instead of stalling each agent's goTo in turn.
		// An agent's Kinematics (its radius, read for a new line-of-sight
		// test, see clearOf) is a miss too for agents this far apart: loaded
		// here the same way.
		var t int32
		var r float64
		for _, i := range slow {
			if p := &path[i]; p.State == components.PathReady && p.Next >= 0 && p.Next < len(p.Waypoints) {
				t += p.Waypoints[p.Next].X
			}
			if kin != nil {
				r += kin[i].Radius
			}
		}
		sc.touch += t
		sc.radii += r
	}
	for _, i := range slow {
		j := followJob{pos: pos[i].Vec, intent: &in[i], desired: &des[i]}
		if path != nil {
			j.path = &path[i]
			if kin != nil {
				j.kin = &kin[i]
			}
		}
		if prog != nil {
			j.progress = &prog[i]
		}
		if flow != nil {
			j.flow = &flow[i]
		}
		s.follow(&j, sc)
	}
	sc.slow = slow
}

// sightHit reports whether an agent at pos with intent in and path p moves
// (IntentGo with a finite goal) towards a goal its line-of-sight cache holds
// in sight from these cells, with no request unfiled (Want) and no
// unreachable answer held (goTo would let them go: keepFor): what follow then
// does is goTo's first answer, arrive at the goal, which followRun gives
// without calling follow.
func (s *PathFollow) sightHit(pos r2.Vec, in *components.Intent, p *components.Path) bool {
	return in.Mode == components.IntentGo && in.Move && p.SightKnown && p.SightClear && !p.Want && p.State != components.PathUnreachable &&
		s.grid.CellAt(pos) == p.SightFrom && s.grid.CellAt(in.Goal) == p.SightTo &&
		finiteVec(pos) && finiteVec(in.Goal)
}

// cut returns col[a:b], nil for a nil col (a column the run lacks).
func cut[T any](col []T, a, b int) []T {
	if col == nil {
		return nil
	}
	return col[a:b]
}

// onGridCoords reports whether both coordinates of v lie in [+0, 2³¹) (every
// position on a grid): followRun finds their cells by a conversion to int32,
// the same cells as grid.Grid.CellAt, which truncates such coordinates (and
// they are finite). followRun writes out sightHit so, for such positions and
// goals; TestPathFollowInlineCaseMatchesFollow holds it to follow's answers.
// One comparison: the bits of the float64s from +0 up order as the numbers
// do, and those of a negative number (−0 too: sightHit serves it), a NaN or
// one of 2³¹ or more are at least 2³¹'s.
func onGridCoords(v r2.Vec) bool {
	return max(math.Float64bits(v.X), math.Float64bits(v.Y)) < bitsOf2p31
}

// bitsOf2p31 is math.Float64bits(2³¹).
const bitsOf2p31 = (1023 + 31) << 52

// flowHit serves an agent without a Path or Progress at pos that follows
// its flow field ff: one whose intent in is neither a move (with a finite
// goal) nor of another Mode than IntentGo, and whose field gives it a direction or
// has it arrived. It writes follow's answer into d and reports true; for any
// other agent it writes nothing and reports false.
func flowHit(pos r2.Vec, in *components.Intent, ff *components.FlowFollower, d *components.Desired) bool {
	if in.Mode != components.IntentGo {
		return false
	}
	if !(ff.Steer || ff.Arrived) || (in.Move && finiteVec(in.Goal)) || !finiteVec(pos) {
		return false
	}
	switch {
	case ff.Arrived && ff.Following && finiteVec(ff.Follow):
		setDesired(d, components.Desired{Mode: components.DesiredArrive, Point: ff.Follow}) // walk with its goal
	case ff.Arrived:
		setDesired(d, components.Desired{Mode: components.DesiredStop}) // stop where it is
	case ff.Direct:
		setDesired(d, components.Desired{Mode: components.DesiredArrive, Point: ff.Aim})
	default:
		setDesired(d, components.Desired{Mode: components.DesiredFlow, Point: ff.Aim})
	}
	return true
}

// speedFactor returns in's SpeedFactor as Desired holds it: 0 (full speed)
// unless it is in (0, 1).
func speedFactor(in *components.Intent) float64 {
	if in.SpeedFactor > 0 && in.SpeedFactor < 1 {
		return in.SpeedFactor
	}
	return 0
}

func (s *PathFollow) follow(j *followJob, sc *followScratch) {
	pos, in := j.pos, j.intent
	if p := j.path; p != nil && p.State > components.PathUnreachable {
		p.State = components.PathNone // no state (written by hand): none, so goTo asks for a path if it needs one
	}
	if !finiteVec(pos) {
		setDesired(j.desired, components.Desired{}) // Steer keeps it still; Diagnose counts it
		return
	}
	factor := speedFactor(in)
	var d components.Desired
	moving, goal := false, in.Goal
	rest := goal // where it stops: goal, or fitPoint's for a goal too narrow for it
	switch in.Mode {
	case components.IntentFlee, components.IntentEvade, components.IntentPursue:
		tp, tv, ok := s.target(in)
		switch {
		case !ok:
		case in.Mode == components.IntentFlee:
			d = components.Desired{Mode: components.DesiredFlee, SpeedFactor: factor, Point: tp}
		case in.Mode == components.IntentEvade:
			d = components.Desired{Mode: components.DesiredEvade, SpeedFactor: factor, Point: tp, Vel: tv}
		case in.Target.IsZero(): // a point: nothing to predict or catch, a goal to arrive at
			if j.kin != nil && nearRest(pos, tp, j.desired) {
				tp = s.restPoint(tp, j.kin.Radius) // clear of a wall beside it
			}
			moving, goal = true, tp
			d = s.goTo(pos, tp, j.path, j.kin, j.desired, factor, components.DesiredArrive)
		default:
			moving, goal = true, tp
			d = s.goTo(pos, tp, j.path, j.kin, j.desired, factor, components.DesiredPursue)
			if d.Mode == components.DesiredPursue {
				d.Vel = tv
			}
		}
	case components.IntentGo:
		moving = in.Move && finiteVec(in.Goal) // a NaN goal is nowhere to go
		ff := j.flow
		flowing := !moving && ff != nil && (ff.Steer || ff.Arrived)
		switch {
		case flowing && ff.Arrived && ff.Following && finiteVec(ff.Follow):
			d = components.Desired{Mode: components.DesiredArrive, Point: ff.Follow} // walk with its goal
		case flowing && ff.Arrived:
			d = components.Desired{Mode: components.DesiredStop} // stop where it is
		case flowing && ff.Direct:
			d = components.Desired{Mode: components.DesiredArrive, Point: ff.Aim}
		case flowing:
			d = components.Desired{Mode: components.DesiredFlow, Point: ff.Aim}
		case !moving:
		default:
			if j.kin != nil && nearRest(pos, goal, j.desired) {
				goal = s.restPoint(goal, j.kin.Radius) // clear of a wall beside the goal
			}
			rest = goal
			d = s.goTo(pos, goal, j.path, j.kin, j.desired, factor, components.DesiredArrive)
			if k := j.kin; k != nil && d.Mode == components.DesiredSeek && k.Radius > 0 && k.Radius <= 0.5 {
				// walking into its crowd at the goal (pathfollow_crowd.go)
				hold, inCrowd := s.heldByCrowd(pos, in.Goal, k.Radius, j.desired.Mode == components.DesiredHold)
				if hold {
					setDesired(j.desired, components.Desired{Mode: components.DesiredHold})
					if pr := j.progress; pr != nil {
						moveOn(pr, pos, s.clock.Time)
					}
					return
				}
				if inCrowd && j.path != nil && j.path.State == components.PathReady && d.Point != goal {
					d.Mode = components.DesiredArrive // at its waypoint: Steer's crowd rule damps its push
				}
			}
			if j.path != nil && s.tooNarrow(s.grid.CellAt(goal), j.kin) {
				// where its disc fits (fitPoint): its goal for settle and
				// stuck detection; where it stands when no route fits
				rest = pos
				if d.Mode != components.DesiredStop {
					rest = s.fitPoint(goal, j.kin.Radius)
				}
			}
			if wantsSettle(j.kin, &d) && s.grid.Passable(s.grid.CellAt(pos)) && s.discClear(pos, j.kin.Radius) { // (one in a wall walks out first; one whose disc overlaps a wall is moved out first)
				sc.settle = append(sc.settle, settleCand{desired: j.desired, progress: j.progress, pos: pos, goal: rest,
					dist: math.Sqrt(dist2(pos, rest)), r: j.kin.Radius, was: j.desired.Mode == components.DesiredHold,
					onPath: d.Mode != components.DesiredArrive})
			}
		}
	default:
		// no mode (past IntentEvade): no move intent, not even its flow
		// field's; DesiredNone, so it brakes (Diagnose: CauseModeInvalid)
	}
	setDesired(j.desired, s.leaveWall(pos, d)) // in a wall heading nowhere: out first (pathfollow_wall.go)
	if j.progress != nil {
		s.track(j.progress, j.path, j.kin, sc, pos, moving, goal, rest)
	}
}

// setDesired writes v into d unless d already holds it bit for bit: most
// agents head the same way as in the last frame, and a component left
// unwritten is a cache line the frame need not write back.
func setDesired(d *components.Desired, v components.Desired) {
	if d.Mode != v.Mode || !sameBits(d.SpeedFactor, v.SpeedFactor) ||
		!sameBits(d.Point.X, v.Point.X) || !sameBits(d.Point.Y, v.Point.Y) ||
		!sameBits(d.Vel.X, v.Vel.X) || !sameBits(d.Vel.Y, v.Vel.Y) {
		*d = v
	}
}

// sameBits reports whether a and b are the same float64 bit for bit (so
// −0 differs from +0, and a NaN equals itself).
func sameBits(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// target returns the position and velocity of in's target, and whether it
// has one.
func (s *PathFollow) target(in *components.Intent) (r2.Vec, r2.Vec, bool) {
	if in.Target.IsZero() {
		return in.Point, r2.Vec{}, finiteVec(in.Point)
	}
	id := s.nb.ID(in.Target)
	if id < 0 {
		return r2.Vec{}, r2.Vec{}, false
	}
	return s.nb.Positions[id], s.nb.Velocities[id], true
}

// goTo returns how an agent at pos heads for goal: directly (with mode, Arrive
// or Pursue) when the goal is in sight or it has no path, else along its path,
// asking for one if needed. kin is the agent's Kinematics (nil: none): above
// a clearance of 1 (clearOf), "in sight" means a line wide enough for it.
// prev is its Desired of the last frame (an arrival at a stop point it keeps:
// see stopShort).
func (s *PathFollow) goTo(pos, goal r2.Vec, path *components.Path, kin *components.Kinematics, prev *components.Desired, factor float64, mode components.DesiredMode) components.Desired {
	direct := components.Desired{Mode: mode, SpeedFactor: factor, Point: goal}
	if path == nil {
		return direct
	}
	gc := s.grid.CellAt(goal)
	if s.tooNarrow(gc, kin) {
		return s.goToFit(pos, goal, gc, path, kin, factor)
	}
	if s.inSight(path, pos, goal, kin) {
		s.keepFor(path, gc, goal, pos, kin)
		return direct
	}
	switch path.State {
	case components.PathPending:
		path.Goal = gc // the queue serves the newest goal
	case components.PathNone:
		path.Want, path.Goal = true, gc
	case components.PathUnreachable:
		if path.Goal != gc { // another goal may well be reachable
			path.Want, path.Goal = true, gc
		}
	default:
		if s.stale(path.Goal, gc, goal, pos, kin) {
			path.Want, path.Goal = true, gc
		}
	}
	if path.Next < 0 {
		// a Next written below 0 by hand (-1 meant as "none"): the path's
		// start, from which alongPath moves on to the waypoint the agent has
		// reached (indexing Waypoints with it panicked the worker)
		path.Next = 0
	}
	if path.State != components.PathReady || path.Next >= len(path.Waypoints) {
		point := goal
		if c := s.grid.CellAt(pos); !s.grid.Passable(c) && s.grid.InBounds(c) {
			point = s.walkOut(pos, goal, gc)
		} else if path.State == components.PathUnreachable && path.Goal == gc && !path.Want && !s.grid.Passable(gc) {
			// a goal off the grid or in a blocked cell: as far as the
			// straight line goes, and rest (stopShort); a seek pressed it
			// against the wall for good. (A goal walled off by a door that
			// may open keeps its seek, as a path's wait does.)
			// The point found is kept while it is still a stop point for
			// the goal (atStop): found again from each new position, the
			// point of an agent pushed along the wall (a group's
			// separation) slid with it, and a group spread along the wall
			// in a line, slowly, instead of gathering about one point.
			stop := prev.Point
			if prev.Mode != components.DesiredArrive || !s.atStop(stop, goal, kin) {
				stop = s.stopShort(pos, goal, kin)
			}
			return components.Desired{Mode: components.DesiredArrive, SpeedFactor: factor, Point: stop}
		}
		return components.Desired{Mode: components.DesiredSeek, SpeedFactor: factor, Point: point}
	}
	return s.alongPath(path, pos, kin, direct, factor)
}

// alongPath returns the Desired of an agent at pos following path (State
// PathReady, Next within Waypoints): seek its next waypoint, moving on when
// the waypoint is reached (within WaypointRadius), the one after it is nearer
// (the agent went ahead while it saw its goal directly), or the agent has
// passed it towards the one after, within one step of it (kin's MaxSpeed times
// the clock's DT: on a long step, a 1 Hz tick, an agent overshoots a waypoint
// by more than WaypointRadius, and seeking it again it swung about it for
// good); at the last waypoint, direct. kin is the agent's Kinematics (nil:
// none, no step).
func (s *PathFollow) alongPath(path *components.Path, pos r2.Vec, kin *components.Kinematics, direct components.Desired, factor float64) components.Desired {
	last := len(path.Waypoints) - 1
	wp := s.grid.Center(path.Waypoints[path.Next])
	step2 := 0.0 // the square of one step's length, when it is longer than WaypointRadius
	if kin != nil && s.clock != nil {
		if st := kin.MaxSpeed * s.clock.DT; st > WaypointRadius && st < math.Inf(1) {
			step2 = st * st
		}
	}
	for path.Next < last {
		nextWp := s.grid.Center(path.Waypoints[path.Next+1])
		if d := dist2(wp, pos); d >= WaypointRadius*WaypointRadius && dist2(nextWp, pos) >= d &&
			!(d < step2 && float64((pos.X-wp.X)*(nextWp.X-wp.X))+float64((pos.Y-wp.Y)*(nextWp.Y-wp.Y)) > 0) {
			break
		}
		path.Next++
		wp = nextWp
	}
	if path.Next == last {
		return direct
	}
	return components.Desired{Mode: components.DesiredSeek, SpeedFactor: factor, Point: wp}
}

// tooNarrow reports whether the open cell gc is too narrow for an agent with
// Kinematics kin (nil: none) of radius above 0.5: its clearance is below
// what the radius needs (grid.ClearanceFor), so the path queue would answer a
// path to it PathUnreachable (Diagnose's CausePathGoalNarrow). goTo then has
// the agent rest where its disc fits beside the goal (goToFit).
func (s *PathFollow) tooNarrow(gc grid.Cell, kin *components.Kinematics) bool {
	return kin != nil && kin.Radius > 0.5 && s.grid.Passable(gc) && s.grid.Clearance(gc) < grid.ClearanceFor(kin.Radius)
}

// goToFit returns how a wide agent at pos with Path path and Kinematics kin
// heads for goal, in the open cell gc too narrow for its disc (tooNarrow):
// it arrives at fitPoint's point p, where its disc fits beside the goal,
// and rests there (settle groups those that share it). Its path goes to the
// anchor cell a (fitAnchor: p's own cell, or the cell wide enough for the
// disc whose centre is nearest p), so a point behind a wall or reached by a
// detour is walked to round the walls, not pressed towards through them;
// once a's centre is in a line of sight wide enough for the agent, or the
// agent is within a cell of p, or on its path's last waypoint, it arrives
// at p directly. When the queue answers a unreachable (no route the disc
// fits), the agent stops where it is (DesiredStop; Diagnose counts
// CausePathGoalNarrow for the goal's cell).
func (s *PathFollow) goToFit(pos, goal r2.Vec, gc grid.Cell, path *components.Path, kin *components.Kinematics, factor float64) components.Desired {
	p := s.fitPoint(goal, kin.Radius)
	direct := components.Desired{Mode: components.DesiredArrive, SpeedFactor: factor, Point: p}
	a := s.fitAnchor(p, kin.Radius)
	ac := s.grid.Center(a)
	if dist2(pos, p) < 1 || s.inSight(path, pos, ac, kin) {
		s.keepFor(path, a, ac, pos, kin)
		return direct
	}
	switch path.State {
	case components.PathPending:
		path.Goal = a
	case components.PathNone:
		path.Want, path.Goal = true, a
	case components.PathUnreachable:
		if path.Goal != a {
			path.Want, path.Goal = true, a
		} else if !path.Want {
			return components.Desired{Mode: components.DesiredStop} // no route its disc fits: it rests where it is
		}
	default:
		if s.stale(path.Goal, a, ac, pos, kin) {
			path.Want, path.Goal = true, a
		}
	}
	if path.State != components.PathReady || path.Next >= len(path.Waypoints) {
		return direct // while it waits: straight on (Movement keeps it out of walls)
	}
	return s.alongPath(path, pos, kin, direct, factor)
}

// keepFor keeps path for an agent at pos heading straight for goal (in cell
// gc, in sight) only as far as it belongs to that goal: a path held that no
// longer serves it (stale) and an unreachable answer are let go (State
// PathNone, no waypoints, Goal gc), so that nothing reads a route to a former
// goal, a grid edit across that route asks for no search, and no program
// trusting PathUnreachable gives up on a goal the agent is walking to (an
// answer for its own cell is stale once the goal is in sight: for one found
// from a blocked start's pocket, or a state written by hand); a pending
// request is refiled under gc, as when the goal is out of sight.
func (s *PathFollow) keepFor(path *components.Path, gc grid.Cell, goal, pos r2.Vec, kin *components.Kinematics) {
	if !path.Want && (path.State == components.PathNone || path.Goal == gc && path.State != components.PathUnreachable) {
		return // nothing held, or held for this goal
	}
	switch path.State {
	case components.PathPending:
		path.Goal = gc
		return
	case components.PathReady:
		if !s.stale(path.Goal, gc, goal, pos, kin) {
			return
		}
	}
	path.Want, path.State, path.Goal = false, components.PathNone, gc
	path.Waypoints, path.Next = path.Waypoints[:0], 0
}

// walkOut returns the point an agent at pos inside a wall (a door closed on
// it) seeks on its way to goal, in the cell gc: the goal, unless the straight
// line to it first enters an open cell cut off from the goal (a pocket inside
// the wall, where the agent would stay for good: Movement frees only agents in
// blocked cells); then the centre of escapeToward's exit, if there is one. A
// goal in a blocked cell or off the grid gives the centre of the nearest open
// cell (nearestOpen, as for an agent heading nowhere: leaveWall), if there is
// one within escapeRadius: the goal may lie in the same wall (a building
// placed on an agent resting at its goal), where a walk to it ends in the
// wall; out of it, the agent stops short of the goal (stopShort).
func (s *PathFollow) walkOut(pos, goal r2.Vec, gc grid.Cell) r2.Vec {
	if !s.grid.Passable(gc) {
		if out, ok := nearestOpen(s.grid, pos); ok {
			return s.grid.Center(out)
		}
		return goal
	}
	noPath := func(m grid.Cell) bool { return !s.grid.Connected(m, gc) }
	if !entersDeadEnd(s.grid, pos, goal, noPath) {
		return goal
	}
	if out, ok := escapeToward(s.grid, pos, gc); ok {
		return s.grid.Center(out)
	}
	return goal
}

// moveOn starts agent pr's next window of progress at pos and now: it is not stuck,
// and its run of no progress (StuckKnown, StuckSince, StuckFrom) is over, cleared so
// that a save leaves it out (they are saved while set).
func moveOn(pr *components.Progress, pos r2.Vec, now float64) {
	pr.Anchor, pr.Since, pr.Stuck = pos, now, false
	if pr.StuckKnown {
		pr.StuckKnown, pr.StuckSince, pr.StuckFrom = false, 0, r2.Vec{}
	}
}

// track updates stuck detection of an agent at pos with Progress pr, Path
// path (nil: none) and Kinematics kin (nil: none); moving tells whether the
// agent wants to get to goal, where it stops at rest (goal, or for a wide
// agent whose goal is too narrow for it, fitPoint's point: not stuck there). A stuck agent asks for a path again, except one
// answered unreachable for the goal's cell, which Update asks again for only
// when the goal is reachable from where it stands.
func (s *PathFollow) track(pr *components.Progress, path *components.Path, kin *components.Kinematics, sc *followScratch, pos r2.Vec, moving bool, goal, rest r2.Vec) {
	now := s.clock.Time
	moved := dist2(pos, pr.Anchor) > StuckDistance*StuckDistance
	atGoal := dist2(pos, rest) <= StuckDistance*StuckDistance
	if !moving || moved || atGoal {
		moveOn(pr, pos, now)
		return
	}
	if now-pr.Since < StuckTime {
		return
	}
	if !pr.Stuck || !pr.StuckKnown { // a new run of no progress, or one whose start a load lost (CauseBlockedByAgents)
		pr.StuckSince, pr.StuckFrom, pr.StuckKnown = pr.Since, pr.Anchor, true
	}
	pr.Stuck = true
	pr.Count++
	sc.stuck++
	pr.Anchor, pr.Since = pos, now
	if path != nil {
		path.SightKnown = false // the cached line of sight may be what keeps it pressing into a wall
		gc := s.grid.CellAt(goal)
		if s.tooNarrow(gc, kin) {
			gc = s.fitAnchor(rest, kin.Radius) // the cell goToFit asks its path for
		}
		switch {
		case path.State == components.PathPending:
		case path.State == components.PathUnreachable && path.Goal == gc:
			sc.unreach = append(sc.unreach, stuckUnreachable{path: path, kin: kin, pos: pos})
		default:
			path.Want, path.Goal = true, gc
		}
	}
}

// inSight reports whether the goal is in line of sight, testing again only
// when the agent's or the goal's cell changed since the last test (the cache
// in Path), and without walking the line when the rectangle of cells it
// spans is open (openCells: the same answer). Within one cell the answer can
// be slightly off near a corner; Movement still keeps the agent out of walls.
// A wide agent (clear > 1, its grid.ClearanceFor) sees the goal only along a
// line every cell of which has that clearance (grid.LineOfSightWide), so a
// gap narrower than it is no sight line: it follows its (wide) path instead.
// kin is the agent's Kinematics (nil: none), read only for a new test.
func (s *PathFollow) inSight(path *components.Path, pos, goal r2.Vec, kin *components.Kinematics) bool {
	from, to := s.grid.CellAt(pos), s.grid.CellAt(goal)
	if !path.SightKnown || path.SightFrom != from || path.SightTo != to {
		path.SightFrom, path.SightTo, path.SightKnown = from, to, true
		if clear := clearOf(kin); clear > 1 {
			path.SightClear = s.grid.LineOfSightWide(pos, goal, clear)
		} else {
			path.SightClear = s.sight.clear(pos, goal) || s.grid.LineOfSight(pos, goal)
		}
	}
	return path.SightClear
}

// stale reports whether a held path to cell held no longer serves a goal in
// cell gc: the goal's cell moved more than 2 + d/4 cells (Chebyshev; d is the
// agent's distance to the goal), or it moved at all and the path's end has no
// line of sight to the goal (it went behind a wall; for a wide agent, whose
// Kinematics kin give a clearOf above 1, a line of sight wide enough for
// it).
func (s *PathFollow) stale(held, gc grid.Cell, goal, pos r2.Vec, kin *components.Kinematics) bool {
	if held == gc {
		return false
	}
	return far(held, gc, detmath.Norm(r2.Sub(goal, pos))) || !s.grid.LineOfSightWide(s.grid.Center(held), goal, clearOf(kin))
}

// dist2 returns the squared distance |a−b|², compared with squared radii
// instead of a square root per test (the same answers up to rounding at the
// boundary). With a coordinate infinite it is +Inf (or NaN with the other
// NaN); a finite position and an infinite anchor or goal, the case met,
// compare as far away, as math.Hypot's +Inf does.
func dist2(a, b r2.Vec) float64 {
	dx, dy := a.X-b.X, a.Y-b.Y
	return sq2(dx, dy)
}

// far reports whether a held path to cell a is too far off a new goal cell b.
func far(a, b grid.Cell, dist float64) bool {
	dx, dy := a.X-b.X, a.Y-b.Y
	cheb := max(dx, -dx, dy, -dy)
	return float64(cheb) > 2+float64(dist/4) // (x/4 compiles to x·0.25, which a sum would take)
}

// Finalize releases the workers and the filters; Update panics until the next
// Initialize (see lifecycle.go).
func (s *PathFollow) Finalize(w *arche.World) {
	if s.filter != nil { // not if never initialized, or finalized already
		s.pool.Close()
		s.filter, s.finalized = nil, true
	}
	s.ran.Leave()
	markFinalized(w, sysPathFollow)
}

// stopShort returns where an agent at pos (in an open cell), with Kinematics
// kin (nil: none), whose goal is off the grid or in a blocked cell stops:
// along the straight line to goal, its radius short of the first blocked or
// off-grid cell the line enters, or pos itself if that is nearer; if the
// disc at pos reaches that cell already, the point back along the line where
// it clears it (backOff; pos if there is none within r + 1 cells, or it is
// not in an open cell: the agent then stands). "Its radius
// short" is where the disc touches that cell: r square to the side of that
// cell the line crosses (r/|cos θ| back along the line, θ between the line and
// the side's normal), or, when the disc there would touch the side's end
// rather than the side, r from that corner (touchAt). (It was r back along the
// line, r from the side only when the line meets it square on: at 49° to the
// map's edge a disc of radius 0.3 rested 0.196 from it, 0.104 over it. Then it
// was r square to the side's line always: a line that meets the cell at its
// corner crosses both sides at once, and the point jumped between r/|dy| and
// r/|dx| back, by the rounding of the two crossings, from frame to frame.)
// The point stays on the line from pos to goal, so an agent walking that line
// finds the same point each frame.
func (s *PathFollow) stopShort(pos, goal r2.Vec, kin *components.Kinematics) r2.Vec {
	d := r2.Sub(goal, pos)
	length := math.Sqrt(norm2(d))
	if !(length > 0) || math.IsInf(length, 1) || !finiteVec(pos) {
		return pos
	}
	r := 0.0
	if kin != nil && kin.Radius > 0 && !math.IsInf(kin.Radius, 1) {
		r = kin.Radius
	}
	hit, cell := s.firstBlocked(pos, d)
	if hit > 1 {
		// none entered: the line ends on the goal's cell's corner or side,
		// passing through open cells beside it
		hit, cell = 1, s.grid.CellAt(goal)
	}
	t := touchAt(pos, d, hit, cell, r)
	if t == 0 {
		// the disc at pos reaches the cell already (spawned or loaded
		// against it, a wall built beside it): back along the line until
		// it clears it, r + 1 cells at most, into an open cell
		t = backOff(pos, d, length, cell, r)
		if q := (r2.Vec{X: pos.X + float64(t*d.X), Y: pos.Y + float64(t*d.Y)}); t < 0 && s.grid.Passable(s.grid.CellAt(q)) {
			return q
		}
		return pos
	}
	if !(t > 0) {
		return pos
	}
	return r2.Vec{X: pos.X + float64(t*d.X), Y: pos.Y + float64(t*d.Y)}
}

// backOff returns the t ≤ 0 nearest 0 at which the disc of radius r centred
// at pos + t·d (|d| = length) clears the cell c, looking back along the
// line at most r + 1 cells (bisection, as touchAt), or 0 if it clears it
// nowhere there (the line runs along the cell's side).
func backOff(pos, d r2.Vec, length float64, c grid.Cell, r float64) float64 {
	lo := -(r + 1) / length
	if reaches(pos, d, lo, c, r) {
		return 0
	}
	hi := 0.0
	for range 60 {
		m := (lo + hi) / 2
		if reaches(pos, d, m, c, r) {
			hi = m
		} else {
			lo = m
		}
	}
	return lo
}

// reaches reports whether the disc of radius r centred at pos + t·d
// reaches into the square of the cell c (touching is clear).
func reaches(pos, d r2.Vec, t float64, c grid.Cell, r float64) bool {
	x0, y0 := float64(c.X), float64(c.Y)
	px, py := pos.X+float64(t*d.X), pos.Y+float64(t*d.Y)
	dx := max(x0-px, 0, px-(x0+1))
	dy := max(y0-py, 0, py-(y0+1))
	return float64(dx*dx)+float64(dy*dy) < float64(r*r)
}

// touchAt returns the last t ≤ hit at which the disc of radius r centred at
// pos + t·d clears the cell c, which the line meets at t = hit (enters it, or
// touches its corner): the distance from the line's point to the cell's
// square is convex in t and 0 at hit, so it falls as t grows to hit, and the
// t where it is r is found by bisection (60 halvings of [0, hit]: to the
// rounding of t). Where the disc touches a side square on, that is r/|cos θ|
// back along the line; where it touches a corner first, r from the corner.
// 0 if the disc at pos reaches the cell already.
func touchAt(pos, d r2.Vec, hit float64, c grid.Cell, r float64) float64 {
	if reaches(pos, d, 0, c, r) {
		return 0
	}
	lo, hi := 0.0, hit
	for range 60 {
		m := (lo + hi) / 2
		if reaches(pos, d, m, c, r) {
			hi = m
		} else {
			lo = m
		}
	}
	return lo
}

// atStop reports whether q is a point stopShort gives for goal (off the grid
// or in a blocked cell) to an agent with Kinematics kin (nil: none) on the
// line through q: q lies in an open cell and stopShort from q gives q again
// (within 1e-9 cells: the disc at q just touches the first cell the line
// from q to goal meets, a side or a corner, see touchAt). Such a point is
// where an agent that walked the line from anywhere on it rests, whatever
// pushed it off the line since, so goTo keeps it rather than finding a new
// one from where the agent stands.
func (s *PathFollow) atStop(q, goal r2.Vec, kin *components.Kinematics) bool {
	if !onGridCoords(q) || !s.grid.Passable(s.grid.CellAt(q)) {
		return false
	}
	p := s.stopShort(q, goal, kin)
	return math.Abs(p.X-q.X) <= 1e-9 && math.Abs(p.Y-q.Y) <= 1e-9
}

// firstBlocked returns the t at which pos + t·d (t ≥ 0) enters the first
// blocked or off-grid cell (Amanatides and Woo's walk over the cells; at
// most the grid's width plus height steps, as a walk ends off the grid),
// or +Inf if none within t ≤ 1, and that cell.
func (s *PathFollow) firstBlocked(pos, d r2.Vec) (float64, grid.Cell) {
	g := s.grid
	c := g.CellAt(pos)
	step := [2]int32{1, 1}
	tMax := [2]float64{math.Inf(1), math.Inf(1)}
	tDelta := [2]float64{math.Inf(1), math.Inf(1)}
	for k, ax := range [2]struct{ p, d float64 }{{pos.X, d.X}, {pos.Y, d.Y}} {
		f := math.Floor(ax.p)
		switch {
		case ax.d > 0:
			tDelta[k] = 1 / ax.d
			tMax[k] = (f + 1 - ax.p) * tDelta[k]
		case ax.d < 0:
			step[k] = -1
			tDelta[k] = -1 / ax.d
			tMax[k] = (ax.p - f) * tDelta[k]
		}
	}
	for range g.Width() + g.Height() + 2 {
		var t float64
		if tMax[0] < tMax[1] {
			t = tMax[0]
			c.X += step[0]
			tMax[0] += tDelta[0]
		} else {
			t = tMax[1]
			c.Y += step[1]
			tMax[1] += tDelta[1]
		}
		if t > 1 {
			return math.Inf(1), grid.Cell{}
		}
		if !g.Passable(c) {
			return t, c
		}
	}
	return math.Inf(1), grid.Cell{}
}
