package systems

import (
	"fmt"
	"github.com/archai-go/archai/internal/detmath"
	"math"
	"unsafe"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// MaxFlowFields bounds [FlowField].Capacity and MaxFields: Capacity sizes the
// cache's tables at Initialize, and each field costs about 11 bytes per cell.
const MaxFlowFields = 1 << 16

// FlowField serves flow fields to swarms ([components.FlowFollower]): every
// agent heading to the same goal cell shares one field from a
// [flowfield.Cache] (Emerson, "Crowd Pathfinding and Steering Using Flow
// Field Tiles", Game AI Pro ch. 23). A field for a new goal is built within
// Budget settled cells per frame; until it is complete the agents keep
// following the field of their previous goal.
//
// Important: with Budget > 0 (whole-grid fields), a Goal that moves to a new cell
// before its field is complete leaves that build for the new goal's (the cache
// builds the goals asked for most recently first), so a goal that moves faster
// than a field builds never gets one: its followers keep the last complete
// field they had, or, with none yet, stand still (Has false) for good;
// Waiting counts them each frame (a count that stays up for seconds is this
// case, or more goals than MaxFields). A goal that moves often (a target walking, a goal set each
// second) wants Budget 0 (each field built at once), a budget that builds the
// map's field between two moves (width·height cells over the frames between
// them), or sector fields (Sectors > 0), which keep up with a goal moving every
// frame.
//
// Wide agents: a follower whose Kinematics.Radius is over 0.5 cells follows
// the field of its clearance, grid.ClearanceFor(radius), one per goal and
// clearance in the cache ([flowfield.Field.SetClearance] for the rule: only
// cells of that clearance are entered, and both cells beside a diagonal move
// need it), so it is routed round gaps narrower than its disc, as the
// PathQueue routes a Mover; its Direct shortcut and look-ahead use
// grid.Grid.LineOfSightWide. Its Active, Has and Arrived are the point
// rule's (the goal, the arrival disk); its Aim, Direct and Steer are sampled
// from the wide field every frame (updateWide). Where its cell has no
// wide-enough route it stands (Steer false) and [Diagnose] counts it
// ([CauseFlowFollowerWide]); while its wide field builds (Budget > 0) it
// stands and counts in Waiting. Followers without a Kinematics, or of radius
// 0.5 or less, are served exactly as before. Sector mode has no wide layers:
// it leads wide followers as point agents, through any gap their centre fits
// through, and Diagnose reports them ([CauseFlowFollowerWideSector]).
//
// For each agent it samples, when the agent enters a new cell or its field
// changes, the point to head for: the goal itself when it is in line of sight
// (Direct), else the farthest of the next few cells along the direction field
// that the agent can see (see [flowfield.Field.Sample] for the rule that
// keeps agents from oscillating or stalling). [Steer] then follows it.
//
// Arrival (archai's own rule; Emerson leaves it to the game): agents stop
// (Arrived) only where they are packed around the goal, in a disk or in a
// half disk on one side of it, which grows with the agents really inside it,
// so a swarm of any density keeps moving in until it is packed there, and
// agents reaching a crowd packed on one side of its goal (the goal moved to
// its rim, or the agents came in from one side) stop at its rim rather than
// press into it until it is packed all around the goal. Each frame, for each
// goal, a follower's distance d to the goal's centre is measured in cells
// along the way there: the straight line, or the way along the field where
// that is longer (the integration value of the agent's cell over the grid's
// minimum cell cost, divided by √(4−2√2), the most an octile route
// stretches a straight one, less half a cell diagonal for the agent's place
// in its cell; +Inf where the goal is unreachable). An agent already Arrived
// counts Spacing/2 nearer (hysteresis), and keeps Arrived across a change of
// its Goal, so a crowd at rest whose goal moves a little stays at rest as long
// as it is packed around the new goal; while its goal stays, it also keeps
// Arrived up to one Spacing beyond the rim of the looser disk and half disks
// (below) in its sector, unless the crowd was cut to the open ground (below)
// and the crowd so kept does not fit the open ground within Spacing/2 of its
// farthest rim, so that rims moving from frame to frame do not send the
// agents beyond them into the crowd and back (sector mode: one Spacing
// beyond its disk). A goal that walks, moving by at most two cells at a
// time (a player's cell), is followed: each agent at rest walks to where it
// stood moved as far as the goal moved (FlowFollower.Follow, Following;
// PathFollow has it arrive there) and is measured there, so the crowd keeps
// its shape around the goal and moves with it as a body, at rest (Arrived)
// all along; one whose point would be in a blocked cell or off the grid
// stays where it is, measured there and kept at rest as any (see
// followGoal). Agents are counted by distance step
// of Spacing/8 (d rounded up to the next step) and by their direction from the
// goal, in 16 sectors of 22.5°. Going outwards from the goal, the agents of a
// step join the disk when the step is no farther than Spacing·√(n/π) +
// Spacing/2, n being the agents of the nearer steps: the rim of a disk
// holding n agents at one per Spacing² cells, plus half a Spacing for an
// agent touching it. The disk ends at the first step holding agents that
// fails the looser rule of a disk one Spacing smaller (Spacing·√(n/π) +
// 3·Spacing/2), and its agents are those up to the last step before it that
// met the rule itself: a crowd at rest is only just packed enough at every
// step (its agents stopped as soon as it was), and one agent nudged outwards
// deep inside it no longer releases everyone beyond (see arrivalLoose). The
// rule for keeping agents at rest is the looser rule alone, on a crowd
// packed at 3/4 of one per Spacing² (separation spreads a crowd at rest to
// about that), and it also ends at a gap of more than 1.5 Spacings between
// its agents (see restShare; for agents following a walking goal, the
// looser rule alone). An agent not at rest that moves at less than 0.1
// cells/s (held off at the rim of a crowd at rest, which has relaxed beyond
// the rims the joining rule gives it) joins wherever it is within the
// looser disk that keeps agents at rest, short of the Spacing beyond its rim
// they are kept in (see arrivalSlow; a follower without a Velocity never
// joins so). A follower Following its walking goal that is that slow while
// the goal stands stops following (the crowd ahead holds it off its Follow
// point) and stands where it is. The disk then
// keeps no more agents, nearest first, than the open ground within Spacing/2
// of its rim holds at one per Spacing² cells (passable cells whose centres
// are that near, measured like d; the rim is that of a disk holding the
// disk's agents, Spacing·√(n/π) + Spacing/2 rounded up to a step, or its
// farthest agent's step if farther), so in a crowd too large for the room
// around the goal the rest queue, still heading in; except where that ground
// is from half to 3/4 of a whole disk's (a goal beside a straight wall or on
// the grid's edge: a whole disk there reaches its rim only when packed up to
// twice as densely, and holds more than the ground as soon as the crowd is
// pressed a little), where it is cut so only if the half disks' crowd
// (below) does not fit either. Unless the disk was so
// cut, the same rule runs on each half circle of 8 sectors, with the rim of
// a half disk, Spacing·√(2n/π) + Spacing/2, n the agents of the half
// circle's nearer steps: where it reaches farther than the disk, the agents
// of its sectors join up to there; all so gathered, unless the open ground
// within Spacing/2 of the farthest rim of these half disks holds fewer, and
// then the disk alone. Every other agent keeps following the field. So the
// agents at rest are packed: when the farthest of them in a sector is r
// cells from the goal, at least π(r−Spacing)²/(2·Spacing²) agents are within
// r of the goal in a half circle holding that sector, whatever the density
// of the crowd around it, and an agent behind a wall is as far from it as
// its detour. A goal that
// jumps beyond its crowd (farther than two cells) sends every agent moving
// (none is within the new goal's disk or half disks); one that jumps within
// it leaves at rest the agents still packed around it. A crowd following a
// goal that walks a cell every 0.5 s stays about as spread as one at rest
// around a goal (1,000 agents, sampled from 10 to 20 s: 12.5 pairs of agents
// closer than 0.3 cells against 5.7; before the crowd followed its goal, the
// whole crowd set off at each step of the goal and stopped again when its
// front reached it, 40.1 pairs, and 35,499 changes of Arrived in 25 s against
// 1,403; TestFlowArrivalWalkingGoalNoLurch). The decision counts
// agents per step and sector, so it does not depend on the order in which
// agents are stored or on Workers, and it allocates nothing once the crowd's
// size is steady. Only the steps the decision needs are counted, and only
// the agents within them measured: a goal keeps, from frame to frame, the
// steps beyond which its agents are too few for anyone to join or stay in
// the looser disk, plus the Spacing an agent at rest is kept beyond its rim
// (the agents counted fewer than half of those a disk reaching two Spacings
// short of the last step holds),
// and counts them all again, that frame, when that fails (see
// plannedSteps); a crowd streaming in from afar costs its agents near the
// goal, and the decision is the same as counting every step. Sector mode
// (below) keeps the disk rule alone (without its looser thresholds), clears
// Arrived on a goal change and follows no walking goal.
//
// Known limit: a goal in a corridor narrower than the crowd's disk, reached from
// one end. Measured (3,000 followers entering a corridor 24 cells wide from its
// south end, goal in its middle, defaults; the corridor program of the session of
// 2026-12-04 12:43): after 25 s 2,472 were at rest, the farthest 30 cells from the
// goal, while 687 were within 15 cells of it and 27 beyond it; at 30 s all but
// 1,941 set off again together (the farthest at rest 16 cells away), and the rest
// kept pressing in until all 3,000 were within 15 cells (75 s), packed closer than
// Spacing. So such a crowd first comes to rest on its own side of the goal, 30 cells
// deep, the far side left empty, then most of its rear sets off at once.
//
// The cache holds Capacity fields and grows, up to MaxFields (about 13 bytes
// per grid cell each), when more distinct goals are in use at once; agents
// with goals beyond MaxFields wait for one to fall out of use (for good while
// they all stay in use: [Diagnose] reports it after 2 s, Report.FlowGoalsOver;
// a swarm whose members each have a goal of their own wants Movers). Reserve of
// them are allocated at Initialize, so that the first goals allocate
// nothing: a game that moves one shared goal now and then sets Capacity and
// Reserve to 2 (the field followed and the one being built) and allocates
// nothing per frame once its crowd is steady.
//
// Resolving each agent's field, measuring their distances to their goals
// and sampling are split over Workers goroutines (0: runtime.GOMAXPROCS);
// the cache is asked for each goal once, in order of first use in query
// order. A frame reads each FlowFollower once when the goals and their
// fields are the last frame's (see flowResolve), keeps a small job per
// agent, and writes a FlowFollower only when its Arrived or sample changes:
// a sample is taken when the agent enters a new cell, every few frames.
//
// Cost per frame in goals: linear in the followers and in the distinct goals
// they use. The goals in use are listed, and each goal's field, last-frame
// entry, kept steps and open ground found, through hash indexes
// (flowfield_uses.go), not scans of the goals listed so far, so followers
// each with a goal of its own cost about as much an agent as followers
// sharing a few: measured (BenchmarkFlowFieldManyGoals, 2 cores, 256×256
// grid, MaxFields 64) 1.2–1.4 ms a frame for 1,000 goals, 4.8 ms for 10,000
// and 12–32 ms for 50,000 (the scans took 175 ms and 4.6–5.2 s). Each goal
// served (at most MaxFields) adds its arrival decision, about 20 µs for a
// goal of one follower (4,000 goals served on a 64×64 grid: 72–92 ms a
// frame, against 0.3–1.3 s with the scans), and each goal new to the cache
// its field's build (width·height cells) and a scan of the cache's fields
// for the least recently used one; a goal new to the arrival tables scans
// them likewise for a free entry. Those scans cost per new goal, not per
// follower: a frame whose goals are the last frame's runs none.
//
// Grid edits: a field made stale by an edit is rebuilt (in a second buffer,
// the stale one served meanwhile); with Budget 0 the rebuild is served in the
// frame of the edit. A follower whose cell the edit leaves without a path
// keeps its last Aim for Hold frames after the grid's last edit, so a door
// toggled every frame does not stop the crowd before it (archai's rule, see
// DefaultFlowHold in flowfield_hold.go).
//
// With Sectors > 0 it serves sector flow fields instead, for big maps (see
// [SectorBudget] and flowfield_sector.go for that mode's rules and contract).
//
// Big maps: a whole-grid field (Sectors 0, the default) holds and builds every
// cell of the grid for each goal, so its cost grows with the map, not with the
// agents, and nothing (neither Initialize nor [Diagnose]) reports it. On a grid
// over 1024² cells use FlowField{Sectors: 64}, as cmd/bench does by default on
// such maps. Measured by a newcomer's evacuation model (2 cores, 4096² town
// map, 6 exits, 5,000 agents): whole-grid fields took 4.8 s of CPU in the
// first frame, which builds the 6 fields (0.8 s a field on average; each
// holds at least 7 bytes a cell, over 110 MB at 4096²), and 2.2 GB resident
// at most; with Sectors: 64 the worst frame took 170 ms, and 50,000 agents
// ran in 456 MB.
//
// Contract:
//
//	requires   Position, FlowFollower
//	writes     FlowFollower (Active, Has, Cell, Aim, Direct, Steer, Arrived,
//	           Follow, Following; ProgressCost and ProgressCheck in the
//	           frames of a progress check, every FlowProgressPeriod, for
//	           Diagnose's blocked_by_agents: see flowfield_progress.go);
//	           adds the *flowfield.Cache resource
//	resources  *grid.Grid
//
//	absent or unusable             what FlowField does                    Diagnose counts
//	Position                       never served                           CauseSteerIncomplete
//	FlowFollower.Goal off the      no field to follow: Steer false        CauseFlowGoal
//	  grid or blocked
//	Kinematics.Radius over 0.5,    stands (Steer false)                   CauseFlowFollowerWide
//	  no wide-enough route from
//	  its cell
//	Kinematics.Radius over 0.5     led through gaps its centre fits       CauseFlowFollowerWideSector
//	  with Sectors > 0 (a grid       through, its disc over the walls
//	  with walls)
//	Position in a blocked cell     aims at the open cell of least         CauseBlocked
//	  (a door closed on it)          integration value in the nearest
//	                                 ring within 4 cells whose straight
//	                                 line crosses no open cell without a
//	                                 path (see escapeCell), to walk out
//	cell left without a path by a  keeps its last Aim (Held) until Hold   CauseFlowUnreachable
//	  grid edit (a door closing      frames after the grid's last edit,     (once it stands)
//	  or flickering before it)       then stands (Steer false); see
//	                                 flowfield_hold.go
//	cell without a path from the   stands (Steer false): Steer brakes it, CauseFlowUnreachable
//	  start (spawned in a walled-    and it walks into no wall
//	  off pocket)
type FlowField struct {
	ran       ecs.Ran // the frame it last ran, for save.Save's check (ecs.Frame.Between)
	Capacity  int     // fields the cache starts with; 8 if zero or negative
	Reserve   int     // whole-grid fields allocated at Initialize (flowfield.Cache.Reserve), so that new goals allocate nothing; 0: as goals arrive; none with Sectors > 0
	MaxFields int     // fields the cache may grow to when more goals are in use; 64 if zero or negative
	Budget    int     // cells settled per frame when building; 0 builds a field at once, followed in the frame that first asks for it
	Spacing   float64 // cells between agents gathered at a goal: one agent per Spacing² cells; zero or negative: automatic (DefaultFlowSpacing, or 2.5 radii of the widest follower when its diameter is over 1.2·DefaultFlowSpacing: see autoSpacing; DefaultFlowSpacing with Sectors). Set by hand, at least the widest follower's diameter (2·Kinematics.Radius): wider ones never all arrive (CauseFlowFollowerSpacing)
	Workers   int     // goroutines resolving, measuring and sampling; 0: runtime.GOMAXPROCS
	Sectors   int     // sector side in cells: sector flow fields for big maps (see flowfield_sector.go); 0: whole-grid fields, each holding every cell of the grid (use 64 on grids over 1024² cells: see Big maps above)
	Hold      int     // frames after a grid edit during which a follower whose cell the edit left without a path keeps its last Aim (see flowfield_hold.go); 0: DefaultFlowHold; negative: none

	// Waiting is the number of followers, at the end of the last Update,
	// whose Goal's field is not complete (being built, or beyond MaxFields
	// goals): they follow the field of an earlier goal, or stand (Has false)
	// without one. With Budget 0 it is 0 but beyond MaxFields goals (a new
	// goal's field is built and followed in the frame its followers first
	// ask for it); with a Budget, a frame or a few after a goal moves is normal; a count
	// that never falls to 0 is a goal that moves faster than its field builds
	// (see Budget). With Sectors > 0 (every cell has a direction once the
	// goal is set) it counts only the followers whose goal is one more than
	// Capacity goals in use that frame.
	Waiting int

	Cache *flowfield.Cache // the shared cache, also a world resource

	grid   *grid.Grid
	world  *arche.World // the world of the last Initialize (InitializedWorld)
	pool   *ecs.Workers
	filter *generic.Filter2[components.Position, components.FlowFollower]
	jobs   []flowJob
	goals  []flowGoal // the goals asked for this frame, at most Capacity
	hist   []int32    // agents per distance step, goals[i].lo to goals[i].hi of it per goal
	ground []openGround
	frame  uint64
	// aimTurn: the agents (by query index i) whose way to their Aim is
	// checked this frame are those with i ≡ aimTurn (mod aimTurns): the
	// world's Clock frame (else this system's) mod aimTurns (see aimTurns)
	aimTurn int

	cols      columns     // the query's components, read by the workers
	measure   flowMeasure // copies agents and counts them by distance step
	whist     [][]int32   // per worker, its count of agents per distance step
	histN     int         // the length of hist this frame
	sector    *sectorFlow // sector mode (Sectors > 0)
	wide      *flowWide   // wide followers (see updateWide)
	auto      float64     // the Spacing autoSpacing last set (Spacing was zero or negative at Initialize); 0: Spacing set by hand
	resolve   flowResolve
	blocks    blockRun  // the sampling pass (Work), in claimed blocks of agents
	sight     openCells // a bitmap of the grid's blocked cells, for aimWith
	maxCost   float64   // the grid's largest finite cost, at costVer
	costVer   uint64
	seen      [][]goalUse // per worker, the goals its agents use, in order of first use within each of its blocks (see flowSeg)
	segs      []flowSeg   // the collect pass, per block of blockSize agents: what its worker logged for it
	seenIdx   []useIndex  // per worker, the index of its current block's part of seen (see addUse)
	uses      []goalUse   // the goals the agents use, in order of first use in query order (the blocks' seen merged)
	usesIdx   useIndex    // the index of uses
	goalIdx   cellIndex   // the index of goals (field)
	refIdx    cellIndex   // the index of ref, synced before the passes read it (refIndex)
	prevIdx   cellIndex   // the index of prev (swapped)
	groundIdx cellIndex   // the index of ground (openGround)
	wfollow   [][]int     // per worker, its followers per goal
	broke     []bool      // per worker, the guess failed: one of its agents switches fields
	wwait     []int       // per worker, its followers whose Goal's field is not complete (Waiting)
	ref       []goalRef   // the goals the agents' fields are resolved against (see flowResolve)
	prev      []goalKey   // the last frame's goals, in order, with their distance steps in hist
	fuse      bool        // the collect pass measures too, against the last frame's steps (see flowResolve)
	fused     bool        // this frame's measure was done by the collect pass, if the steps are unchanged
	farCells  int32       // cells (either axis) from a goal's cell beyond which no agent is within the steps any goal may count this frame (see farReach, farSteps)

	spec     bool         // the collect pass samples the agents that entered a new cell, against the last frame's fields (see flowResolve)
	undo     [][]flowUndo // per worker, the FlowFollowers the collect pass sampled, as they were before (see flowResolve)
	cand     [][]int32    // per worker, the agents whose Arrived may change (fused measure; see flowResolve)
	list     []int32      // cand's lists, merged: the agents the write-back pass visits (listed)
	listed   bool         // the write-back pass visits list only (see Update)
	measured bool         // this frame's steps were measured by the collect pass, not by flowMeasure (see count)
	apply    flowApply    // the write-back pass over list
	noSpec   bool         // tests: sampling left to Work, every agent written back by a scan of all

	finalized bool // Finalize ran, and Initialize not since (lifecycle.go)

	// over: the goals of the last Update beyond MaxFields, for Diagnose's
	// Report.FlowGoalsOver (kept per goal, not per agent; sector mode: beyond Capacity)
	over flowOver

	arrivalScratch // gather's work space (flowfield_arrival.go)

	edits flowEdits // when the grid was last edited, for Hold (flowfield_hold.go)

	progress      progressPass  // the followers' progress check, for Diagnose (flowfield_progress.go)
	progressEdits progressEdits // the grid edits the progress checks know of
}

// flowSeg is what the collect pass logged for one block of agents: the
// worker that ran it and the block's parts of that worker's seen and cand
// lists. The blocks are claimed (blockRun), so a worker's lists hold its
// blocks in the order it ran them; merged block by block, they come out in
// query order, whatever ran which block.
type flowSeg struct {
	worker         int32
	seenLo, seenHi int32
	candLo, candHi int32
}

// goalRef is a goal of FlowField.ref and whether its field is complete.
// fresh marks a field other than the one the last frame followed towards the
// same goal (the cache swapped in its rebuild after a grid edit): every
// follower samples it again, since a sample taken on the old field (Steer
// false where a wall sealed the goal off, an Aim into a cell since blocked)
// would otherwise last until the agent enters a new cell, for good for an
// agent standing still.
type goalRef struct {
	goal  grid.Cell
	done  bool
	fresh bool
}

// goalKey is a goal of the last frame, its field and its distance steps in
// hist (flowGoal's lo and hi).
type goalKey struct {
	goal   grid.Cell
	field  *flowfield.Field
	lo, hi int
}

// flowJob is one agent's hot state for the frame, 20 bytes in an array in
// query order: the later passes (measure, Work) read it instead of the
// agent's FlowFollower, which Work touches only for the agents whose
// sample or Arrived changes (an agent enters a new cell every few frames).
type flowJob struct {
	goal  int32 // index in goals of the field followed; -1 without a complete field
	step  int32 // the agent's distance step times arrivalSectors plus its sector (see gather); -1 when out of reach
	state uint8 // jobArrived | jobMoved, noted when its field is resolved

	// the cell that last blocked a line of sight to the goal from this
	// index's agent (kept from frame to frame; any cell is a valid hint,
	// see aimWith)
	hint grid.Cell
}

// flowJob.state flags.
const (
	jobArrived  = 1 << iota // FlowFollower.Arrived was set at the start of the frame
	jobMoved                // the agent is not in FlowFollower.Cell (a new sample is due), or, without a field, its FlowFollower still needs clearing
	jobFar                  // the agent is farther than the steps its goal may count (and hold) from the goal's centre (see FlowField.farCells)
	jobAimed                // the collect pass sampled it (jobMoved) against this frame's field: the write-back pass writes its Arrived only
	jobSwitched             // the agent switched to its Goal's field this frame (its Arrived is decided without arrivalKeep)
	jobFollow               // FlowFollower.Following (set with jobArrived): the agent is measured at its Follow point (see followGoal)
	jobStepped              // the agent's goal walked this frame and it follows it (followGoal): its Follow point is new
)

// flowUndo is a FlowFollower's sample as it was before the collect pass
// sampled its agent (query index i): restored when the pass's guess fails.
type flowUndo struct {
	aim    r2.Vec
	cell   grid.Cell
	i      int32
	direct bool
	steer  bool
	held   bool
}

type flowGoal struct {
	goal    grid.Cell
	field   *flowfield.Field
	rebuilt bool // field is a rebuild after grid edits, finished this frame (Budget 0): its followers sample again

	// arrival bookkeeping of this frame (see gather)
	followers  int         // agents following this field
	lo, hi     int         // its distance steps in hist
	arrive     arrivalDisk // the agents on steps below arrive[sector] have arrived
	keep       arrivalDisk // the agents at rest on steps below keep[sector] stay at rest (keepRims)
	slow       arrivalDisk // a slow agent on steps below slow[sector] joins (arrivalSlow; keepRims, writeBack)
	keepFollow arrivalDisk // the same for the agents following a walking goal (jobFollow; keepRims)
	keepFits   bool        // the agents within keep fit the open ground around them: they stay at rest though the crowd was cut (keepRims)
	wide       bool        // its steps were widened to reachSteps this frame (see gather)
	cut        bool        // decide cut the crowd to the open ground around the goal: arrivalKeep applies only if keepFits
}

// openGround is the open ground around a goal by distance step: cum[k] is
// the number of passable cells whose centre is less than k steps from the
// goal (as an agent's distance is measured), for the field and grid version
// it was counted on.
type openGround struct {
	goal    grid.Cell
	field   *flowfield.Field
	version uint64
	spacing float64 // FlowField.Spacing it was counted for (its steps are Spacing/arrivalSteps)
	used    uint64  // the frame it was last used in
	cum     []int32
}

// noCell marks a FlowFollower whose sample must be recomputed: a cell that
// grid.Grid.CellAt gives only for an x that is NaN or below −2³¹ with a y of
// 2³¹ or more (an agent just off the grid's corner, in cell (−1, −1), must
// not look sampled; newbie23).
var noCell = grid.Cell{X: math.MinInt32, Y: math.MaxInt32}

// Name implements ecs.Namer.
func (s *FlowField) Name() string { return "flowfield" }

// Initialize creates the cache and adds it as a resource (replacing the
// world's one, as when a world is resumed under a new schedule).
//
// Panics:
//   - if the world has no *grid.Grid resource: add one with
//     arche.AddResource before Initialize, or one of no cells (a zero
//     grid.Grid{}): make it with grid.New or grid.NewChecked;
//   - if Spacing is NaN or infinite: set it in cells, or 0 for automatic;
//   - if Sectors is not 0 and outside 4 to 256 (cells of a sector's side);
//   - if Capacity or MaxFields is over [MaxFlowFields];
//   - if the Reserve fields (at most Capacity) would hold more than
//     [flowfield.MaxReserveCells] cells in total ([flowfield.Cache.Reserve]).
func (s *FlowField) Initialize(w *arche.World) {
	s.world = w
	s.over = flowOver{}
	if s.Capacity > MaxFlowFields || s.MaxFields > MaxFlowFields {
		panic(setupFault("FlowField", ecs.ErrSettings, fmt.Sprintf("systems: FlowField.Capacity (%d) and MaxFields (%d) must be at most MaxFlowFields (%d): they count fields (goals held at once), not bytes",
			s.Capacity, s.MaxFields, MaxFlowFields)))
	}
	if s.Capacity <= 0 {
		s.Capacity = 8
	}
	if s.MaxFields <= 0 {
		s.MaxFields = 64
	}
	if s.Spacing <= 0 || s.auto > 0 && s.Spacing == s.auto { // automatic (again, on a second Initialize)
		s.Spacing, s.auto = DefaultFlowSpacing, DefaultFlowSpacing
	} else {
		s.auto = 0
	}
	if math.IsNaN(s.Spacing) || math.IsInf(s.Spacing, 0) {
		panic(setupFault("FlowField", ecs.ErrSettings, fmt.Sprintf("systems: FlowField.Spacing is %v; set it to the distance between gathered agents in cells, or 0 for automatic", s.Spacing)))
	}
	s.grid = mustGrid(w, "FlowField")
	s.edits.reset(s.grid)
	markInstalled(w, sysFlowField)
	s.ran.Join(w, s)
	ecs.Resource[installed](w).flowField = s
	s.Cache = flowfield.NewCache(s.grid, s.Capacity)
	if s.Sectors == 0 { // sector mode keeps its cache empty: no whole-grid field
		if err := s.Cache.Reserve(s.Reserve); err != nil {
			panic(setupFault("FlowField", ecs.ErrSettings, fmt.Sprintf("systems: FlowField.Reserve (%d) on this %d×%d grid: %v",
				s.Reserve, s.grid.Width(), s.grid.Height(), err)))
		}
	}
	if ecs.Resource[flowfield.Cache](w) != nil {
		// a world resumed under a new schedule: its fields are built again
		w.Resources().Remove(arche.ResourceID[flowfield.Cache](w))
	}
	arche.AddResource(w, s.Cache)
	s.initWide(w)
	s.pool = reopenPool(s.pool, s.Workers)
	s.filter = generic.NewFilter2[components.Position, components.FlowFollower]()
	s.cols.reset() // a second world (a level restart) registers its own columns
	s.cols.column(arche.ComponentID[components.Position](w), unsafe.Sizeof(components.Position{}))
	s.cols.column(arche.ComponentID[components.FlowFollower](w), unsafe.Sizeof(components.FlowFollower{}))
	s.cols.column(arche.ComponentID[components.Kinematics](w), unsafe.Sizeof(components.Kinematics{}))
	s.cols.column(arche.ComponentID[components.Velocity](w), unsafe.Sizeof(components.Velocity{}))
	s.measure.s = s
	s.whist = make([][]int32, s.pool.N())
	if s.Sectors != 0 {
		s.initSectors(w)
	}
	s.resolve.s = s
	s.seen = make([][]goalUse, s.pool.N())
	s.seenIdx = make([]useIndex, s.pool.N())
	s.broke = make([]bool, s.pool.N())
	s.wwait = make([]int, s.pool.N())
	s.undo = make([][]flowUndo, s.pool.N())
	s.cand = make([][]int32, s.pool.N())
	s.apply.s = s
	s.wfollow = make([][]int, s.pool.N())
	for i := range s.wfollow { // sized for Capacity goals, as goals
		s.wfollow[i] = make([]int, 0, s.Capacity)
	}
	s.goals = make([]flowGoal, 0, s.Capacity)
	s.reaches = make([]goalReach, 0, 2*s.Capacity) // the goals of a frame and of the one before
	s.reachIdx = cellIndex{}
	s.ref = make([]goalRef, 0, s.Capacity) // as goals, so that a goal move allocates nothing
	s.prev = make([]goalKey, 0, s.Capacity)
	s.goalIdx.reset()
	s.refIdx.reset()
	s.prevIdx.reset()
}

// Update resolves each follower's field, advances pending builds, decides
// who has arrived and samples, all split over the workers but for the cache
// requests: the cache is asked for each goal in use once, in order of first
// use in query order.
func (s *FlowField) Update(w *arche.World) {
	s.ran.Mark(w)
	mustInitialized(s.filter, s.finalized, "FlowField")
	s.Waiting = 0
	s.edits.update(s.grid, s.Hold)
	if s.sector != nil {
		s.sector.update(w)
		return
	}
	s.aimTurn = int(s.frame % aimTurns)
	clock := ecs.Resource[ecs.Clock](w)
	if clock != nil && clock.Started {
		s.aimTurn = int(uint64(clock.Frame) % aimTurns)
	}
	s.updatePoint(w)
	s.updateWide(w)
	if k := progressCheck(clock); k > 0 {
		s.trackProgress(k) // FlowFollower.ProgressCost, for Diagnose (flowfield_progress.go)
	}
}

// updatePoint is Update for whole-grid fields, every follower served as a
// point agent (updateWide then serves the wide ones their fields).
func (s *FlowField) updatePoint(w *arche.World) {
	clear(s.wwait)
	// the collect pass measures distances and samples on the workers, which
	// read the grid's minimum cost, lazy caches and bitmap: prepared here,
	// after the last frame's edits, not raced over by the workers (nothing
	// in Update edits the grid, so they hold for Work too)
	s.prepareSight()
	s.goals = s.goals[:0]
	s.goalIdx.reset()
	q := s.filter.Query(w)
	n := q.Count()
	s.cols.scanRuns(w, &q.Query) // no entity needed: runs and count only
	s.jobs = grow(s.jobs, n)
	// an agent in a cell this many cells off its goal's on either axis is
	// more than the reach+hold of every goal's steps this frame, +1/2, from
	// the goal's centre (the last frame's goals; the apply pass's below)
	s.farCells = s.farCellsOf(s.farSteps(n, len(s.prev), func(i int) grid.Cell { return s.prev[i].goal }))
	// the goals in order of first use in query order (each worker lists its
	// range's, merged in worker order), asked of the cache in that order;
	// the same pass resolves the agents' fields against the last frame's
	// goals, a guess that holds unless the goals or their fields changed
	s.ref = s.ref[:0]
	for _, g := range s.prev {
		s.ref = append(s.ref, goalRef{goal: g.goal, done: g.field.Done(), fresh: s.edits.expires})
	}
	s.syncRef()
	for k := range s.seen {
		s.seen[k], s.broke[k] = s.seen[k][:0], false
		// a worker logs at most every agent (it claims blocks of agents,
		// any of them): room for all of them now, so no frame grows a log
		// once the followers stop growing (steady frames allocate nothing)
		s.undo[k], s.cand[k] = reserve(s.undo[k], n), reserve(s.cand[k], n)
		// and its goal uses: at most one an agent (which blocks a worker
		// claims depends on timing, and each block lists its goals anew)
		s.seen[k] = reserve(s.seen[k], n)
	}
	s.list = reserve(s.list, n)
	// the collect pass samples too, against the last frame's fields (see
	// flowResolve), on the grid prepared above
	// unless the grid was edited since the last frame with Budget 0: every
	// field in use is then stale and served rebuilt, so the guess fails
	// (and the agents a door cut off, sampled each frame while they hold
	// their Aim, would be sampled twice)
	rebuilt := s.Budget <= 0 && s.edits.edited == s.edits.tick
	s.spec = len(s.prev) > 0 && !s.noSpec && !rebuilt
	// the collect pass also measures the agents' distances (flowMeasure's
	// work) against the last frame's goals and distance steps: when the
	// guess holds and the followers are as many, those are this frame's,
	// and gather skips its pass
	s.fuse, s.fused = len(s.prev) > 0 && s.histN > 0 && !rebuilt, false
	s.resolve.phase = ffCollect
	s.beginResolve()
	// in claimed blocks, each worker's own range first (blockRun): the
	// workers' cores run at unequal speeds on a shared host (one 15–45%
	// slower than the other for minutes, either one), so fixed halves
	// would wait for the slower
	s.segs = grow(s.segs, (n+blockSize-1)/blockSize)
	s.blocks.run(s.pool, &s.resolve, n)
	s.uses = s.uses[:0]
	s.usesIdx.reset()
	for _, g := range s.segs {
		for _, u := range s.seen[g.worker][g.seenLo:g.seenHi] {
			s.uses = addUse(s.uses, 0, u, &s.usesIdx)
		}
	}
	refused := 0
	for _, u := range s.uses {
		want := s.field(u.goal)
		if want < 0 {
			refused++ // MaxFields goals hold the cache: no field for it this frame
		}
		// an agent that switches to its Goal's field asks for no other
		if u.other && !(want >= 0 && s.goals[want].field.Done()) {
			s.field(u.active)
		}
	}
	if n > 0 {
		if s.guessHeld() {
			s.fused = s.fuse
		} else {
			// the collect pass's samples may be against fields the agents do
			// not follow: as they were, for the apply pass and Work
			s.undoSamples()
			s.spec = false
			s.ref = s.ref[:0]
			for _, g := range s.goals {
				s.ref = append(s.ref, goalRef{goal: g.goal, done: g.field.Done(), fresh: g.rebuilt || s.edits.expires || s.swapped(g.goal, g.field)})
			}
			s.syncRef()
			s.farCells = s.farCellsOf(s.farSteps(n, len(s.goals), func(i int) grid.Cell { return s.goals[i].goal }))
			s.resolve.phase = ffApply
			s.beginResolve()
			s.pool.Run(&s.resolve, n)
		}
		for _, cnt := range s.wfollow { // counts, so the sum is the same in any order
			for gi, c := range cnt[:len(s.goals)] {
				s.goals[gi].followers += c
			}
		}
		for _, k := range s.wwait {
			s.Waiting += k
		}
	}
	s.over.update(len(s.goals), refused)
	s.edits.behind(s.goals)
	if !s.fused { // else the goals and their fields are prev's, in order, and gather needs its steps
		s.prev = s.prev[:0]
		s.prevIdx.reset()
		for _, g := range s.goals {
			s.prev = append(s.prev, goalKey{goal: g.goal, field: g.field})
		}
	}
	s.gather()
	if s.Budget > 0 {
		s.Cache.Update(s.Budget)
	} else {
		s.Cache.Update(int(^uint(0) >> 1))
	}
	// the collect pass's guess held, sampled the agents that entered a new
	// cell and measured every step counted: the agents left to write are
	// those it listed (near a goal, or Arrived), in query order
	s.listed = s.spec && s.fused && s.measured
	if s.listed {
		s.list = s.list[:0]
		for _, g := range s.segs { // in query order
			s.list = append(s.list, s.cand[g.worker][g.candLo:g.candHi]...)
		}
		if len(s.list) < 4*blockSize {
			s.apply.Work(0, 0, len(s.list))
		} else {
			s.blocks.run(s.pool, &s.apply, len(s.list))
		}
		return
	}
	// in claimed blocks: the agents to sample (those that entered a new
	// cell) bunch up in parts of the query, so fixed halves would not balance
	s.blocks.run(s.pool, s, len(s.jobs))
}

// prepareSight prepares what sampling reads of the grid: its lazy caches,
// its largest finite cost and the bitmap of its blocked cells. Nothing in
// Update edits the grid, so the collect pass's samples read what Work's
// would.
func (s *FlowField) prepareSight() {
	s.grid.Prepare()
	if s.costVer != s.grid.Version() || s.maxCost == 0 {
		s.maxCost, s.costVer = maxFiniteCost(s.grid), s.grid.Version()
	}
	s.sight.bitsOnly = true
	s.sight.update(s.grid)
}

// undoSamples restores the samples the collect pass wrote (s.undo).
func (s *FlowField) undoSamples() {
	c := &s.cols
	n := c.count
	for _, log := range s.undo {
		r := 0
		for _, u := range log {
			i := int(u.i)
			if i < c.runs[r].start { // a worker's blocks are not in query order
				r = 0
			}
			r = c.run(i, r)
			ff := &columnOf[components.FlowFollower](c, r, ffFollower, n)[i-c.runs[r].start]
			ff.Cell, ff.Aim, ff.Direct, ff.Steer, ff.Held = u.cell, u.aim, u.direct, u.steer, u.held
		}
	}
}

// flowApply is Work over the agents of FlowField.list only.
type flowApply struct{ s *FlowField }

// Work implements ecs.Job: Work for agents list[lo:hi].
func (a *flowApply) Work(_, lo, hi int) {
	s := a.s
	c := &s.cols
	n := c.count
	r := 0
	for _, i32 := range s.list[lo:hi] {
		i := int(i32)
		r = c.run(i, r)
		k := i - c.runs[r].start
		s.writeBack(&s.jobs[i], &columnOf[components.FlowFollower](c, r, ffFollower, n)[k], &columnOf[components.Position](c, r, ffPos, n)[k],
			(*components.Velocity)(c.at(r, ffVel, i)))
	}
}

// maxFiniteCost returns the largest cost of g's passable cells (1 if none).
func maxFiniteCost(g *grid.Grid) float64 {
	if m := g.MaxCost(); m > 0 {
		return float64(m)
	}
	return 1
}

func absInt32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// guessHeld reports whether the collect pass's guess holds: this frame's
// goals are the last frame's (s.ref), in the same order, with the same
// fields, as complete as they were during the pass, and no agent switches
// fields. The pass then resolved every agent exactly as the apply pass
// would.
func (s *FlowField) guessHeld() bool {
	if len(s.goals) != len(s.prev) {
		return false
	}
	for _, b := range s.broke {
		if b {
			return false
		}
	}
	for i := range s.goals {
		g := &s.goals[i]
		if g.goal != s.prev[i].goal || g.field != s.prev[i].field || g.field.Done() != s.ref[i].done {
			return false
		}
	}
	return true
}

// aimTurns is how many frames a whole-grid follower still in the cell it
// sampled in waits, at most, before the system checks whether its way to its
// Aim crosses a wall (aimBlocked): one pushed sideways within its cell by its
// crowd can have that Aim hidden behind a wall's corner, and samples again
// once found. Sector mode checks every agent every frame; here each frame
// checks one agent in aimTurns, by query index, so that the quiet loops,
// which most agents take, stay as they are (checking every agent in them
// cost about a quarter more of FlowField's time). At 60 Hz a pinned agent
// waits at most about a quarter of a second.
const aimTurns = 16

// The phases of [flowResolve].
const (
	ffCollect = iota // list the goals the agents use, in order of first use; resolve fields against the last frame's goals
	ffApply          // switch fields, note each agent's field and count followers
)

// flowResolve resolves each follower's field over the workers: first each
// worker lists the goals its range of agents uses (Goal, then Active, agent
// by agent: the order in which a walk of the query would ask for them; see
// goalUse), then, once the cache has been asked for them, it switches
// agents to the field of a new Goal once complete, notes the field each
// follows and counts them. The first pass also does the second's work
// against the last frame's goals, without switching anyone (resolve with
// write false): when the goals and their fields are unchanged and nobody
// switches (most frames), that is the same work and the second pass is
// skipped, so each frame reads every FlowFollower once.
type flowResolve struct {
	s     *FlowField
	phase int
}

// Work implements ecs.Job.
func (j *flowResolve) Work(worker, lo, hi int) {
	s := j.s
	c := &s.cols
	n := c.count
	collect := j.phase == ffCollect
	seen := s.seen[worker]
	seen0 := len(seen)
	seenIdx := &s.seenIdx[worker]
	if collect {
		seenIdx.reset()
	}
	cnt := s.wfollow[worker] // sized and cleared by beginResolve, as the rest
	// measuring too (FlowField.fuse): the worker's histogram, laid out as
	// the last frame's
	fuse := collect && s.fuse
	var h []int32
	if fuse {
		h = s.whist[worker]
	}
	step := s.Spacing / arrivalSteps
	broke := collect && s.broke[worker]
	waiting := 0
	var memo goalMemo
	spec := collect && s.spec
	var undo []flowUndo
	var cand []int32
	if spec {
		undo, cand = s.undo[worker], s.cand[worker]
	}
	cand0 := len(cand)
	var noted goalKeyOf // the Goal, Active and Has of the last agent noted in seen
	var wait pendingSample
	farCells := s.farCells
	for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
		start := c.runs[r].start
		pos := columnOf[components.Position](c, r, ffPos, n)
		ffs := columnOf[components.FlowFollower](c, r, ffFollower, n)
		end := min(hi, c.end(r, n))
		for i := max(lo, start); i < end; i++ {
			if !broke && memo.quiet && (!collect || noted == memo.key) {
				// the run of agents from i that need nothing but their job
				k := quietRun(ffs[i-start:end-start], pos[i-start:end-start], s.jobs[i:end], &memo, farCells, fuse, &s.sight, (s.aimTurn-i)&(aimTurns-1))
				cnt[memo.gi] += k
				if memo.waits {
					waiting += k
				}
				if i += k; i == end {
					break
				}
			}
			ff := &ffs[i-start]
			key := goalKeyOf{goal: ff.Goal, active: ff.Active, has: ff.Has, valid: true}
			if collect && key != noted {
				// an agent with the last one's Goal, Active and Has adds no use
				seen, noted = noteUse(seen, seen0, ff, seenIdx), key
			}
			if broke {
				continue // the apply pass resolves (and measure measures) every agent
			}
			jb := &s.jobs[i]
			p := pos[i-start].Vec
			if key == memo.key && !memo.switches {
				// resolveOne, for an agent resolved as the last one and not
				// switching (most)
				st := uint8(0)
				if ff.Arrived {
					st = jobArrived | followFlag(ff)
				}
				jb.goal = int32(memo.gi)
				if memo.gi >= 0 {
					cnt[memo.gi]++
					cell := cellAt(s.grid, p)
					if cell != ff.Cell || memo.fresh || (i-s.aimTurn)&(aimTurns-1) == 0 && aimBlockedOn(&s.sight, ff, p, cell) {
						st |= jobMoved
					}
					if max(absInt32(cell.X-memo.to.X), absInt32(cell.Y-memo.to.Y)) >= farCells {
						st |= jobFar
					}
				} else if ff.Steer || ff.Arrived || ff.Cell != noCell {
					st |= jobMoved
				}
				jb.state = st
			} else if !s.resolveOne(ff, p, jb, cnt, !collect, &memo, (i-s.aimTurn)&(aimTurns-1) == 0) {
				broke = true
				continue
			}
			if memo.waits {
				waiting++
			}
			if fuse {
				// as flowMeasure, against the last frame's goal (ref is prev);
				// a far agent that has not arrived is beyond every step
				jb.step = -1
				if jb.goal >= 0 && jb.state&(jobFar|jobArrived) != jobFar {
					pk := &s.prev[jb.goal]
					q := p
					if jb.state&jobFollow != 0 {
						q = ff.Follow
					}
					s.measureOne(jb, q, pk.goal, pk.field, pk.lo, pk.hi, step, h)
				}
			}
			if spec {
				if jb.goal >= 0 && jb.state&jobMoved != 0 {
					// as Work would, against the last frame's field (the
					// guess); undone if the guess fails. The sample waits
					// for the next agent to sample, so that what it reads
					// of the field, prefetched now, is in the caches by then
					undo = append(undo, flowUndo{i: int32(i), cell: ff.Cell, aim: ff.Aim, direct: ff.Direct, steer: ff.Steer, held: ff.Held})
					f := s.prev[jb.goal].field
					dx, dy := heading(ff, p)
					f.PrefetchAlong(cellAt(s.grid, p), dx, dy)
					if wait.ff != nil {
						s.sample(&wait)
					}
					wait = pendingSample{ff: ff, jb: jb, p: p, f: f}
					jb.state |= jobAimed
				}
				// the agents whose Arrived may change, or whose FlowFollower
				// still needs clearing: all Work writes, when the steps
				// measured here are the frame's
				if fuse && (jb.step >= 0 || jb.state&jobArrived != 0 || jb.state&(jobMoved|jobAimed) == jobMoved) {
					cand = append(cand, int32(i))
				}
			}
		}
	}
	if wait.ff != nil {
		s.sample(&wait)
	}
	if collect {
		s.seen[worker], s.broke[worker] = seen, broke
		s.segs[lo/blockSize] = flowSeg{worker: int32(worker), seenLo: int32(seen0), seenHi: int32(len(seen)),
			candLo: int32(cand0), candHi: int32(len(cand))}
	}
	if spec {
		s.undo[worker], s.cand[worker] = undo, cand
	}
	s.wwait[worker] += waiting
}

// beginResolve readies the workers' counts for a pass of flowResolve: a
// worker adds to them in each of its blocks (or its chunk), and one that
// runs none leaves them zero. The apply pass counts every agent again.
func (s *FlowField) beginResolve() {
	for k := range s.wfollow {
		cnt := grow(s.wfollow[k], len(s.ref))
		clear(cnt)
		s.wfollow[k] = cnt
		s.wwait[k] = 0
		if s.resolve.phase == ffCollect && s.fuse {
			h := grow(s.whist[k], s.histN)
			clear(h)
			s.whist[k] = h
		}
	}
}

// pendingSample is an agent at p the collect pass samples on field f
// (jobAimed), once the next one is found.
type pendingSample struct {
	ff *components.FlowFollower
	jb *flowJob
	p  r2.Vec
	f  *flowfield.Field
}

// heading returns the direction, each of −1, 0 or 1 on an axis, of the
// last sample's Aim from p (0, 0 without one): the way the field most likely
// leads from the agent's new cell, whose next cells the collect pass
// prefetches (flowfield.Field.PrefetchAlong). An axis counts when its part
// of the heading is over 0.4 of the other's (22° off a diagonal, in all).
func heading(ff *components.FlowFollower, p r2.Vec) (int, int) {
	if !ff.Steer {
		return 0, 0
	}
	ax, ay := ff.Aim.X-p.X, ff.Aim.Y-p.Y
	dx, dy := 0, 0
	if ax > 0.4*math.Abs(ay) {
		dx = 1
	} else if ax < -0.4*math.Abs(ay) {
		dx = -1
	}
	if ay > 0.4*math.Abs(ax) {
		dy = 1
	} else if ay < -0.4*math.Abs(ax) {
		dy = -1
	}
	return dx, dy
}

// sample samples the agent of w, as Work does.
func (s *FlowField) sample(w *pendingSample) {
	aim, direct, steer := aimWith(w.f, s.grid, w.p, s.maxCost, &s.sight, &w.jb.hint)
	s.edits.set(w.ff, cellAt(s.grid, w.p), aim, direct, steer)
}

// noteUse adds ff's goalUse to seen unless the block's part of it,
// seen[from:], holds it already: a goal the worker listed in an earlier
// block (claimed blocks come in any order) is listed again, so the blocks'
// parts merged in query order give the order of first use. x indexes
// seen[from:] (see addUse).
func noteUse(seen []goalUse, from int, ff *components.FlowFollower, x *useIndex) []goalUse {
	u := goalUse{goal: ff.Goal}
	if ff.Has && ff.Active != ff.Goal {
		u.active, u.other = ff.Active, true
	}
	return addUse(seen, from, u, x)
}

// resolveOne resolves the field of an agent at p against s.ref: it switches
// the agent to its Goal's field once complete (with write false, it returns
// false instead), notes the field it follows in jb, with its state, and
// counts it in cnt. With aim, an agent still in the cell it sampled in
// whose way to its Aim crosses a wall (aimBlocked) samples again.
//
// m is the resolution of the last agent of the caller's range (zero before
// the first): Goal, Active and Has decide it, and neighbours in the query
// most often share them, so most agents reuse it.
func (s *FlowField) resolveOne(ff *components.FlowFollower, p r2.Vec, jb *flowJob, cnt []int, write bool, m *goalMemo, aim bool) bool {
	if k := (goalKeyOf{goal: ff.Goal, active: ff.Active, has: ff.Has, valid: true}); k != m.key {
		*m = s.resolveGoals(ff.Goal, ff.Active, ff.Has)
	}
	gi := m.gi
	if m.switches && !write {
		return false
	}
	jb.goal, jb.state = -1, 0
	if m.switches {
		// Arrived is kept: an agent at rest near the old goal keeps its
		// hysteresis across a small move (the arrival rule of FlowField),
		// and follows a goal that walked (followGoal)
		from := ff.Active
		ff.Active, ff.Has, ff.Cell, ff.Held = ff.Goal, true, noCell, false
		ff.ProgressCost, ff.ProgressCheck = 0, 0 // another field: its run, if any, ends
		jb.state = jobSwitched
		if ff.Arrived && s.followGoal(ff, p, from) {
			jb.state = jobStepped // the crowd moved with its goal: arrivalKeep applies
		}
	}
	if ff.Arrived {
		jb.state |= jobArrived | followFlag(ff)
	}
	if gi >= 0 {
		jb.goal = int32(gi)
		cnt[gi]++
		cell := cellAt(s.grid, p)
		if cell != ff.Cell || s.ref[gi].fresh || aim && aimBlockedOn(&s.sight, ff, p, cell) {
			jb.state |= jobMoved
		}
		// so that measure need not read p again (a NaN p's cell is off by
		// MinInt32, whose absInt32 is negative: not far, measured)
		if goal := s.ref[gi].goal; max(absInt32(cell.X-goal.X), absInt32(cell.Y-goal.Y)) >= s.farCells {
			jb.state |= jobFar
		}
	} else if ff.Steer || ff.Arrived || ff.Cell != noCell {
		jb.state |= jobMoved
	}
	return true
}

// goalKeyOf is an agent's Goal, Active and Has, which decide its field
// (valid: the zero key matches no agent).
type goalKeyOf struct {
	goal, active grid.Cell
	has, valid   bool
}

// goalMemo is how resolveOne resolves the field of an agent with Goal,
// Active and Has key.
type goalMemo struct {
	key      goalKeyOf
	switches bool      // the agent switches to its Goal's field (complete)
	waits    bool      // its Goal's field is not complete: it follows another, or none
	gi       int       // the index in s.ref of the field it then follows, complete; -1 if none
	fresh    bool      // s.ref[gi].fresh
	to       grid.Cell // s.ref[gi].goal
	quiet    bool      // the agent follows field gi, switching nothing, and the field is not fresh (see quietRun)
}

// quietRun notes, in jobs, the jobs of the leading agents of ffs (at pos)
// that need nothing else this frame, and returns how many: agents resolved
// as m (Goal, Active and Has m's key; m.quiet) still in their sampled cell
// and, measuring (fuse), farther than farCells from the goal and not
// Arrived, whose distance step is then −1. It is resolveOne (and the
// collect pass's measure) for them, in a loop that keeps to registers.
// The agents from index check on, every aimTurns, are checked on sight as well:
// one whose way to its Aim crosses a wall (aimBlocked) needs more.
func quietRun(ffs []components.FlowFollower, pos []components.Position, jobs []flowJob, m *goalMemo, farCells int32, fuse bool, sight *openCells, check int) int {
	if fuse {
		return quietFused(ffs, pos, jobs, m, farCells, sight, check)
	}
	return quietLoop(ffs, pos, jobs, m, farCells, false, sight, check)
}

// quietLoop is quietRun's loop for either case; quietFused is the fused
// case's in a loop of its own (TestQuietFusedMatchesQuietLoop).
func quietLoop(ffs []components.FlowFollower, pos []components.Position, jobs []flowJob, m *goalMemo, farCells int32, fuse bool, sight *openCells, check int) int {
	key, gi, to := m.key, int32(m.gi), m.to
	jobs = jobs[:len(ffs)]
	pos = pos[:len(ffs)]
	for k := range ffs {
		ff := &ffs[k]
		if ff.Goal != key.goal || ff.Active != key.active || ff.Has != key.has {
			return k
		}
		p := pos[k].Vec
		if !(p.X >= 0 && p.X < 1<<31 && p.Y >= 0 && p.Y < 1<<31) {
			return k
		}
		cell := grid.Cell{X: int32(p.X), Y: int32(p.Y)}
		if cell != ff.Cell {
			return k
		}
		if k == check {
			if aimBlockedOn(sight, ff, p, cell) {
				return k
			}
			check += aimTurns
		}
		st := uint8(0)
		if max(absInt32(cell.X-to.X), absInt32(cell.Y-to.Y)) >= farCells {
			st = jobFar
		}
		if ff.Arrived {
			st |= jobArrived | followFlag(ff)
		}
		if fuse {
			if st != jobFar {
				return k
			}
			jobs[k].step = -1
		}
		jobs[k].goal, jobs[k].state = gi, st
	}
	return len(ffs)
}

// quietFused is quietRun measuring (fuse), the collect pass's case in most
// frames: its agents are far and not Arrived, so each job is the same (goal
// m.gi, step −1, state jobFar), and it compares Goal and Active as one word
// each (cellBits), so that the loop's values stay in registers: about a
// quarter fewer instructions an agent than quietLoop's.
func quietFused(ffs []components.FlowFollower, pos []components.Position, jobs []flowJob, m *goalMemo, farCells int32, sight *openCells, check int) int {
	goal, active, has := cellBits(m.key.goal), cellBits(m.key.active), m.key.has
	gi, to := int32(m.gi), m.to
	jobs = jobs[:len(ffs)]
	pos = pos[:len(ffs)]
	for k := 0; k < len(ffs); {
		// the agents before the next checked one, in a loop of their own
		// that keeps to registers, then that one
		for stop := min(len(ffs), check); k < stop; k++ {
			ff := &ffs[k]
			if cellBits(ff.Goal) != goal || cellBits(ff.Active) != active || ff.Has != has || ff.Arrived {
				return k
			}
			p := pos[k].Vec
			if !(p.X >= 0 && p.X < 1<<31 && p.Y >= 0 && p.Y < 1<<31) {
				return k
			}
			x, y := int32(p.X), int32(p.Y)
			if x != ff.Cell.X || y != ff.Cell.Y || max(absInt32(x-to.X), absInt32(y-to.Y)) < farCells {
				return k
			}
			j := &jobs[k]
			j.goal, j.step, j.state = gi, -1, jobFar
		}
		if k == len(ffs) {
			break
		}
		q := fusedKey{goal: goal, active: active, has: has, to: to, far: farCells}
		c, ok := q.quiet(&ffs[k], pos[k].Vec)
		if !ok || aimBlockedOn(sight, &ffs[k], pos[k].Vec, c) {
			return k
		}
		j := &jobs[k]
		j.goal, j.step, j.state = gi, -1, jobFar
		k++
		check += aimTurns
	}
	return len(ffs)
}

// fusedKey is what quietFused compares each agent with.
type fusedKey struct {
	goal, active uint64 // cellBits of the key's Goal and Active
	has          bool
	to           grid.Cell // the goal's cell
	far          int32     // farCells
}

// quiet reports whether an agent ff at p is quiet for quietFused, and its
// cell: quietFused's test, for the agents it checks (its loop has its own
// copy, in registers; TestQuietFusedMatchesQuietLoop).
func (q *fusedKey) quiet(ff *components.FlowFollower, p r2.Vec) (grid.Cell, bool) {
	if cellBits(ff.Goal) != q.goal || cellBits(ff.Active) != q.active || ff.Has != q.has || ff.Arrived {
		return grid.Cell{}, false
	}
	if !(p.X >= 0 && p.X < 1<<31 && p.Y >= 0 && p.Y < 1<<31) {
		return grid.Cell{}, false
	}
	x, y := int32(p.X), int32(p.Y)
	if x != ff.Cell.X || y != ff.Cell.Y || max(absInt32(x-q.to.X), absInt32(y-q.to.Y)) < q.far {
		return grid.Cell{}, false
	}
	return grid.Cell{X: x, Y: y}, true
}

// cellBits returns c's coordinates as one word, equal for equal cells (the
// compiler loads a cell's two int32s as one 64-bit word for it).
func cellBits(c grid.Cell) uint64 { return uint64(uint32(c.X)) | uint64(uint32(c.Y))<<32 }

// resolveGoals resolves the field of an agent with Goal goal, Active active
// and Has has against s.ref (see resolveOne).
func (s *FlowField) resolveGoals(goal, active grid.Cell, has bool) goalMemo {
	m := goalMemo{key: goalKeyOf{goal: goal, active: active, has: has, valid: true}, gi: -1}
	want := s.refIndex(goal)
	m.switches = want >= 0 && s.ref[want].done && (!has || active != goal)
	switch {
	case m.switches || (has && active == goal):
		m.gi = want
	case has:
		m.gi = s.refIndex(active)
	}
	if m.gi >= 0 && !s.ref[m.gi].done {
		m.gi = -1
	}
	if m.gi >= 0 {
		m.fresh, m.to = s.ref[m.gi].fresh, s.ref[m.gi].goal
		m.quiet = !m.switches && !m.fresh
	}
	m.waits = want < 0 || !s.ref[want].done
	return m
}

// cellAt is g.CellAt(p), without a call for a p on the grid's side of the
// axes (coordinates in [0, 2³¹)), where it is a truncation.
func cellAt(g *grid.Grid, p r2.Vec) grid.Cell {
	if p.X >= 0 && p.X < 1<<31 && p.Y >= 0 && p.Y < 1<<31 {
		return grid.Cell{X: int32(p.X), Y: int32(p.Y)}
	}
	return g.CellAt(p)
}

// goalUse is the goals an agent asks the cache for, in order: Goal, then
// Active when other (it holds another goal's field), unless it switches to
// Goal's field.
type goalUse struct {
	goal, active grid.Cell
	other        bool
}

// swapped reports whether field is not the field the last frame followed
// towards goal (see goalRef.fresh); false for a goal the last frame had not.
func (s *FlowField) swapped(goal grid.Cell, field *flowfield.Field) bool {
	cell := func(i int) grid.Cell { return s.prev[i].goal }
	s.prevIdx.sync(len(s.prev), cell)
	if i := s.prevIdx.find(goal, len(s.prev), cell); i >= 0 {
		return s.prev[i].field != field
	}
	return false
}

// flowOver counts the frames in a row in which a FlowField had more goals in
// use than MaxFields: the followers of the goals beyond it got no field
// (Waiting) and, while those goals stay in use, never get one.
type flowOver struct {
	goals  int   // the goals asked for in the last Update (fields served and goals refused), when some were refused; else 0
	frames int64 // Updates in a row, up to the last, with goals refused
}

// update records an Update that served fields for served goals and refused
// refused more (goal uses, in fact: a goal whose followers follow other fields
// meanwhile is counted once per field).
func (o *flowOver) update(served, refused int) {
	if refused == 0 {
		*o = flowOver{}
		return
	}
	o.goals, o.frames = served+refused, o.frames+1
}

// refIndex returns the index in s.ref of goal's field, -1 if the cache has
// none for it this frame (more goals than MaxFields).
func (s *FlowField) refIndex(goal grid.Cell) int {
	return s.refIdx.find(goal, len(s.ref), s.refCell)
}

// refCell returns the goal of s.ref[i].
func (s *FlowField) refCell(i int) grid.Cell { return s.ref[i].goal }

// syncRef indexes s.ref, rebuilt, before the workers look goals up in it
// (refIndex).
func (s *FlowField) syncRef() {
	s.refIdx.reset()
	s.refIdx.sync(len(s.ref), s.refCell)
}

// Column indices of FlowField's columns.
const (
	ffPos = iota
	ffFollower
	ffKin // Kinematics, optional: nil in the runs of followers without one (see updateWide)
	ffVel // Velocity, optional: nil in the runs of followers without one (see writeBack)
)

// field returns the index in s.goals of the cache's field for goal, asking
// the cache once per goal and frame. The cache grows (up to MaxFields) when
// more distinct goals are in use in one frame than it holds, so a field
// handed out this frame is never evicted by another asked for later in the
// same frame; beyond MaxFields goals, an agent with a further goal gets -1
// and waits.
func (s *FlowField) field(goal grid.Cell) int {
	cell := func(i int) grid.Cell { return s.goals[i].goal }
	s.goalIdx.sync(len(s.goals), cell)
	if i := s.goalIdx.find(goal, len(s.goals), cell); i >= 0 {
		return i
	}
	if len(s.goals) >= s.Cache.Capacity() {
		if s.Cache.Capacity() >= s.MaxFields {
			return -1
		}
		s.Cache.SetCapacity(min(2*s.Cache.Capacity(), s.MaxFields))
	}
	f, ready := s.Cache.Request(goal)
	rebuilt := false
	if !ready && s.Budget <= 0 && f.Done() {
		// a complete field the grid's edits made stale: with Budget 0 its
		// rebuild, which Cache.Update would finish this frame anyway, is
		// served this frame, not the next (a door toggled every frame was
		// seen in the state it had the frame before); its followers sample
		// again, also in a world just loaded (no last frame to compare with)
		f, rebuilt = s.Cache.Get(goal), true
	} else if !ready && s.Budget <= 0 {
		// a goal new to the cache: with Budget 0 its field, which
		// Cache.Update would build at the end of this frame, is built now
		// and followed this frame, not the next (its followers stood, or
		// followed their former goal's field, for a frame)
		f = s.Cache.Get(goal)
	}
	s.goals = append(s.goals, flowGoal{goal: goal, field: f, rebuilt: rebuilt})
	return len(s.goals) - 1
}

// arrivalSteps is the number of distance steps per Spacing: distances to the
// goal are rounded up to multiples of Spacing/arrivalSteps before arrival is
// decided, so that the decision is a pass over steps, not a sort of agents.
const arrivalSteps = 8

// arrivalHold is the hysteresis of arrival, in Spacings: an agent that has
// arrived counts as that much nearer the goal.
const arrivalHold = 0.5

// octileStretch is the largest ratio of an octile distance to the straight
// line between the same points, √(4−2√2) ≈ 1.0824 (at 22.5° off an axis).
var octileStretch = math.Sqrt(4 - 2*math.Sqrt2)

// gather decides which agents have arrived, per goal (the arrival rule of
// [FlowField]): it counts the followers of each field by distance step and
// sector and grows the disk of gathered agents, and its half disks, outwards
// from the goal, step by step, until a step holds agents beyond the edge
// (decide, flowfield_arrival.go). Counting is by value, so the outcome does
// not depend on the order in which agents are stored.
func (s *FlowField) gather() {
	most := 0
	for i := range s.goals {
		most += s.reachSteps(s.goals[i].followers)
	}
	s.reserveSteps(most)
	n := 0
	for i := range s.goals {
		gl := &s.goals[i]
		// the steps kept for the goal, at most the rim of a half disk
		// holding all its followers, beyond which no agent can join
		gl.lo = n
		n += s.plannedSteps(gl.goal, gl.followers)
		gl.hi = n
	}
	s.count(n*arrivalSectors, s.fused && s.sameSteps(n*arrivalSectors), false)
	// where the steps counted were too few to decide (plannedSteps), all
	// steps, every agent measured again
	wide := false
	for i := range s.goals {
		gl := &s.goals[i]
		if gl.followers > 0 && gl.hi-gl.lo < s.reachSteps(gl.followers) && !s.cutHolds(s.hist[gl.lo*arrivalSectors:gl.hi*arrivalSectors]) {
			gl.wide, wide = true, true
		}
	}
	if wide {
		n = 0
		for i := range s.goals {
			gl := &s.goals[i]
			k := gl.hi - gl.lo
			if gl.wide {
				k = s.reachSteps(gl.followers)
			}
			gl.lo = n
			n += k
			gl.hi = n
		}
		s.count(n*arrivalSectors, false, true)
	}
	for i := range s.goals { // Update set prev to goals
		s.prev[i].lo, s.prev[i].hi = s.goals[i].lo, s.goals[i].hi
	}
	s.frame++
	for i := range s.goals {
		gl := &s.goals[i]
		h := s.hist[gl.lo*arrivalSectors : gl.hi*arrivalSectors]
		s.adaptReach(gl, h)
		if gl.followers == 0 {
			continue
		}
		s.decide(gl, h, s.openGround(gl.goal, gl.field, gl.hi-gl.lo+arrivalSteps/2, s.reachSteps(gl.followers)+arrivalSteps/2))
	}
}

// reserveSteps sizes the histograms and gather's scratch for steps
// distance steps in all, the most the goals may count this frame (each at
// most reachSteps of its followers), so that the steps kept for a goal,
// which grow as its crowd gathers, allocate nothing once the followers are
// steady. The workers' histograms keep what the collect pass counted.
func (s *FlowField) reserveSteps(steps int) {
	n := steps * arrivalSectors
	if cap(s.hist) < n {
		s.hist = make([]int32, 0, n+n/4)
	}
	for w, h := range s.whist {
		if cap(h) < n {
			s.whist[w] = append(make([]int32, 0, n+n/4), h...)
		}
	}
	s.thresholds(steps + 1)
	if m := steps * (arrivalSectors + 1); cap(s.pre) < m {
		s.pre = make([]int32, 0, m+m/4)
	}
}

// count sets hist, n entries, to the agents by distance step and sector of
// each goal: the workers' histograms of the fused measure when measured,
// else measured again (all: every agent, the far ones too).
func (s *FlowField) count(n int, measured, all bool) {
	if cap(s.hist) < n {
		s.hist = make([]int32, n, n+n/4)
	}
	s.hist = s.hist[:n]
	clear(s.hist)
	s.histN = n
	s.measured = measured
	if len(s.jobs) > 0 { // then every worker ran and filled its histogram
		if !measured {
			s.measure.all = all
			s.pool.Run(&s.measure, len(s.jobs))
		}
		for _, h := range s.whist { // counts, so the sum is the same in any order
			for k, c := range h[:n] {
				s.hist[k] += c
			}
		}
	}
}

// flowMeasure notes the distance step of agents [lo, hi) in their jobs and
// counts them by step in the worker's own histogram, split over the workers.
type flowMeasure struct {
	s   *FlowField
	all bool // measure the far agents too (jobFar cleared): their goal's steps were widened
}

// Work implements ecs.Job. An agent far from its goal (jobFar) that has
// not arrived is not measured: measureOne would find it at reach, beyond
// every step (it measures an arrived one, whose hold may bring it within
// the last step).
func (m *flowMeasure) Work(worker, lo, hi int) {
	s := m.s
	c := &s.cols
	step := s.Spacing / arrivalSteps
	h := grow(s.whist[worker], s.histN)
	clear(h)
	s.whist[worker] = h
	n := c.count
	for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
		start := c.runs[r].start
		pos := columnOf[components.Position](c, r, ffPos, n)
		ffs := columnOf[components.FlowFollower](c, r, ffFollower, n)
		for i := max(lo, start); i < min(hi, c.end(r, n)); i++ {
			j := &s.jobs[i]
			j.step = -1
			if m.all {
				j.state &^= jobFar
			}
			if j.goal >= 0 && j.state&(jobFar|jobArrived) != jobFar {
				gl := &s.goals[j.goal]
				p := pos[i-start].Vec
				if j.state&jobFollow != 0 {
					p = ffs[i-start].Follow
				}
				s.measureOne(j, p, gl.goal, gl.field, gl.lo, gl.hi, step, h)
			}
		}
	}
}

// measureOne notes the distance step of the agent of job j, at p (its
// Follow point when following, jobFollow), following
// the field f to goal, whose distance steps are [lo, hi) of the histogram h,
// and counts it in h (step is Spacing/arrivalSteps).
func (s *FlowField) measureOne(j *flowJob, p r2.Vec, goal grid.Cell, f *flowfield.Field, lo, hi int, step float64, h []int32) {
	reach, hold := float64(float64(hi-lo)*step), 0.0
	if j.state&jobArrived != 0 { // an agent at rest keeps its place a little longer
		hold = s.Spacing * arrivalHold
	}
	var d float64
	if j.state&(jobFar|jobFollow) == jobFar { // what distance returns beyond reach+hold ≤ farReach (jobFar is of the agent's position, not its Follow point)
		d = (reach + hold) - hold
	} else {
		d = s.distance(p, goal, f, reach+hold) - hold
	}
	if !(d < reach) { // far, unreachable, or a NaN position
		return
	}
	k := min(int(max(d, 0)/step), hi-lo-1)
	c := s.grid.Center(goal)
	sec := sectorOf(p.X-c.X, p.Y-c.Y)
	j.step = int32(k*arrivalSectors + sec)
	h[(lo+k)*arrivalSectors+sec]++
}

// sameSteps reports whether the goals' distance steps, n in all, are the
// last frame's (s.prev's, which the collect pass measured against): the
// collect pass has then done flowMeasure's work. Call it before gather
// updates s.prev.
func (s *FlowField) sameSteps(n int) bool {
	if n != s.histN || len(s.goals) != len(s.prev) {
		return false
	}
	for i := range s.goals {
		if s.goals[i].lo != s.prev[i].lo || s.goals[i].hi != s.prev[i].hi {
			return false
		}
	}
	return true
}

// farReach returns a distance from a goal beyond which no agent can join
// its disk this frame, whatever its field's followers: the reach+hold of
// flowMeasure for n followers counting every step (reachSteps), the most a
// field can have. The steps a goal counts (plannedSteps) are at most these;
// an agent farther from its goal's centre than the reach+hold of the most
// steps any goal may count this frame (farSteps; resolveOne notes it,
// jobFar) is beyond every reach+hold, where distance returns reach+hold
// without reading its position.
func (s *FlowField) farReach(n int) float64 {
	return s.reachOfSteps(s.reachSteps(n))
}

// reachOfSteps returns the reach+hold of flowMeasure for a goal counting
// steps distance steps.
func (s *FlowField) reachOfSteps(steps int) float64 {
	return float64(float64(steps)*(s.Spacing/arrivalSteps)) + float64(s.Spacing*arrivalHold)
}

// farCellsOf returns the cells (either axis) off a goal's cell beyond which
// an agent is more than the reach+hold of steps distance steps, +1/2, from
// the goal's centre (FlowField.farCells).
func (s *FlowField) farCellsOf(steps int) int32 {
	return int32(min(s.reachOfSteps(steps), 1<<30)) + 2
}

// distance returns how far p is from the centre of goal for arrival, in
// cells: the straight line, or the way along field f when that is longer
// (+Inf where there is no way). Beyond reach it may return any value ≥ reach
// without looking at the field.
func (s *FlowField) distance(p r2.Vec, goal grid.Cell, f *flowfield.Field, reach float64) float64 {
	c := s.grid.Center(goal)
	dx, dy := p.X-c.X, p.Y-c.Y
	d2 := sq2(dx, dy)
	if !(d2 < reach*reach) {
		return reach
	}
	d := math.Sqrt(d2)
	// the integration value is the octile route's cost from the centre of
	// p's cell: never above the straight line in the open, the detour
	// behind a wall
	if along := f.Integration(s.grid.CellAt(p))/float64(s.grid.MinCost())/octileStretch - math.Sqrt2/2; along > d {
		return along
	}
	return d
}

// openGround returns the open ground around goal by distance step (see
// [openGround]), at least steps+1 entries, counting it again only when the
// goal's field, the grid or Spacing changed or more steps are needed; a new table has
// room for most steps.
func (s *FlowField) openGround(goal grid.Cell, f *flowfield.Field, steps, most int) []int32 {
	var og *openGround
	if i := s.groundIdx.get(goal); i >= 0 {
		og = &s.ground[i]
	} else {
		// reuse the entry of a goal not in use this frame, else add one
		at := -1
		for i := range s.ground {
			if g := &s.ground[i]; g.used != s.frame && (at < 0 || g.used < s.ground[at].used) {
				at = i
			}
		}
		fresh := at < 0
		if fresh {
			s.ground = append(s.ground, openGround{})
			at = len(s.ground) - 1
		}
		og = &s.ground[at]
		s.groundIdx.set(goal, at, og.goal, fresh)
		og.goal, og.field = goal, nil
	}
	og.used = s.frame
	if og.field == f && og.version == s.grid.Version() && og.spacing == s.Spacing && len(og.cum) > steps {
		return og.cum
	}
	og.field, og.version, og.spacing = f, s.grid.Version(), s.Spacing
	steps += steps/4 + arrivalSteps // room for the crowd to grow
	if cap(og.cum) < steps+1 {
		// room for the most steps the goal may count (most), so that the
		// steps kept growing with the crowd allocate nothing
		most += most/4 + arrivalSteps
		og.cum = make([]int32, steps+1, max(steps, most)+1)
	}
	cum := og.cum[:steps+1]
	clear(cum)
	step := s.Spacing / arrivalSteps
	reach := float64(steps) * step
	r := int32(reach) + 1
	for y := max(goal.Y-r, 0); y <= min(goal.Y+r, int32(s.grid.Height()-1)); y++ {
		for x := max(goal.X-r, 0); x <= min(goal.X+r, int32(s.grid.Width()-1)); x++ {
			cell := grid.Cell{X: x, Y: y}
			if !s.grid.Passable(cell) {
				continue
			}
			if d := s.distance(s.grid.Center(cell), goal, f, reach); d < reach {
				cum[min(int(d/step), steps-1)+1]++
			}
		}
	}
	for k := 1; k <= steps; k++ {
		cum[k] += cum[k-1]
	}
	og.cum = cum
	return cum
}

// edge returns the distance from the goal, in cells, within which an agent
// joins n gathered agents: the radius of a disk that holds n agents at one
// per Spacing² cells, plus half a Spacing (an agent in contact with the
// group's rim).
func (s *FlowField) edge(n int) float64 {
	return float64(s.Spacing*math.Sqrt(float64(n)/math.Pi)) + float64(s.Spacing/2) // (x/2 compiles to x·0.5)
}

// Work implements ecs.Job: it writes Arrived and samples agents [lo, hi)
// (each agent's result is its own: a blockRun's job),
// reading their jobs and touching the FlowFollower only of those whose
// Arrived or sample changes (jobMoved: a new cell, or a field switched).
func (s *FlowField) Work(worker, lo, hi int) {
	c := &s.cols
	n := c.count
	for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
		start := c.runs[r].start
		pos := columnOf[components.Position](c, r, ffPos, n)
		ffs := columnOf[components.FlowFollower](c, r, ffFollower, n)
		vel := columnOf[components.Velocity](c, r, ffVel, n)
		for i := max(lo, start); i < min(hi, c.end(r, n)); i++ {
			var v *components.Velocity
			if vel != nil {
				v = &vel[i-start]
			}
			s.writeBack(&s.jobs[i], &ffs[i-start], &pos[i-start], v)
		}
	}
}

// writeBack writes the Arrived of the agent of job j, and samples it when
// it entered a new cell (unless the collect pass did, jobAimed); it reads
// and writes ff and p only when there is something to write.
func (s *FlowField) writeBack(j *flowJob, ff *components.FlowFollower, pos *components.Position, vel *components.Velocity) {
	if j.goal < 0 {
		if j.state&jobMoved != 0 {
			ff.Steer, ff.Cell, ff.Arrived, ff.Held, ff.Following = false, noCell, false, false, false
		}
		return
	}
	gl := &s.goals[j.goal]
	arrived := gl.arrive.has(j.step)
	if !arrived && j.state&(jobArrived|jobSwitched) == jobArrived && (!gl.cut || gl.keepFits) {
		if j.state&jobFollow != 0 {
			arrived = gl.keepFollow.has(j.step)
		} else {
			arrived = gl.keep.has(j.step)
		}
	}
	if !arrived && j.state&(jobArrived|jobSwitched) == 0 && vel != nil && sq2(vel.X, vel.Y) < arrivalSlow*arrivalSlow &&
		gl.slow.has(j.step) && (!gl.cut || gl.keepFits) {
		arrived = true // an agent held off at the rim of the crowd at rest (arrivalSlow)
	}
	// a follower that reached its Follow point, or is no longer at rest,
	// stops following; so does one that is slow while its goal stands (the
	// crowd ahead of it holds it off its point; see FlowField's doc)
	done := j.state&jobFollow != 0 && (!arrived || sq2(pos.X-ff.Follow.X, pos.Y-ff.Follow.Y) <= s.Spacing*s.Spacing/16 ||
		j.state&jobStepped == 0 && vel != nil && sq2(vel.X, vel.Y) < arrivalSlow*arrivalSlow)
	if !done && j.state&(jobMoved|jobAimed) != jobMoved && arrived == (j.state&jobArrived != 0) {
		return // nothing to write
	}
	if done || arrived && j.state&jobArrived == 0 { // (an agent coming to rest follows no goal yet)
		ff.Following = false
	}
	ff.Arrived = arrived
	if j.state&(jobMoved|jobAimed) == jobMoved {
		p := pos.Vec
		aim, direct, steer := aimWith(s.goals[j.goal].field, s.grid, p, s.maxCost, &s.sight, &j.hint)
		s.edits.set(ff, cellAt(s.grid, p), aim, direct, steer)
	}
}

// followFlag returns jobFollow if ff is Following, else 0.
func followFlag(ff *components.FlowFollower) uint8 {
	if ff.Following {
		return jobFollow
	}
	return 0
}

// escapeRadius is how far (cells, Chebyshev) an agent inside a wall looks for an open
// cell to walk out to: a door or wall up to 2·escapeRadius−1 cells thick.
const escapeRadius = 4

// integrator is a field's integration values: a *flowfield.Field's or a
// *flowfield.SectorField's.
type integrator interface {
	Integration(c grid.Cell) float64
}

// escapeCell returns, for an agent at p in a blocked cell, the open cell it should
// walk out to: of the nearest ring of cells around p's cell that holds open cells
// with a path on f whose straight segment from p does not first enter a dead end
// (entersDeadEnd), the one of least integration value (the first in row order
// among equals). A dead end is an open cell with no path on f (a pocket walled in,
// or a room the goal is not in): the agent walks freely only while it is in a
// blocked cell (see Movement), so one that stepped into a dead end on its way out
// would stay there for good. When every ring's cells with a path are behind dead
// ends, it is the nearest ring's best, as if there were none (the agent may then
// still be caught). Where no dead end is in the way, it is the cell chosen before
// dead ends were looked for.
//
// It runs only for agents in blocked cells; a segment is walked only for a cell
// better than the ring's best so far, at most 4·escapeRadius+4 cells.
func escapeCell(f integrator, g *grid.Grid, p r2.Vec) (grid.Cell, bool) {
	c := cellAt(g, p)
	noPath := func(m grid.Cell) bool { return math.IsInf(f.Integration(m), 1) }
	fallback, found := grid.Cell{}, false
	for r := int32(1); r <= escapeRadius; r++ {
		best, bestV := grid.Cell{}, math.Inf(1)
		ringBest, ringV := grid.Cell{}, math.Inf(1)
		for y := c.Y - r; y <= c.Y+r; y++ {
			for x := c.X - r; x <= c.X+r; x++ {
				if max(absInt32(x-c.X), absInt32(y-c.Y)) != r {
					continue
				}
				n := grid.Cell{X: x, Y: y}
				if !g.InBounds(n) || !g.Passable(n) {
					continue
				}
				v := f.Integration(n)
				if v < ringV {
					ringBest, ringV = n, v
				}
				if v < bestV && !entersDeadEnd(g, p, g.Center(n), noPath) {
					best, bestV = n, v
				}
			}
		}
		if !math.IsInf(bestV, 1) {
			return best, true
		}
		if !found && !math.IsInf(ringV, 1) {
			fallback, found = ringBest, true
		}
	}
	return fallback, found
}

// escapeToward is escapeCell for a path follower at p in a blocked cell, whose
// goal is the cell goal and which has no field, for when the straight line to
// the goal first enters an open cell cut off from it (entersDeadEnd): of the
// nearest ring of cells around p's cell that holds open cells connected to
// goal (grid.Grid.Connected) whose straight segment from p first enters no
// open cell cut off from it, the one nearest goal (the first in row order
// among equals); none (goal blocked, no such cell within escapeRadius):
// false. g must be prepared (grid.Grid.Prepare) when called from several
// goroutines.
func escapeToward(g *grid.Grid, p r2.Vec, goal grid.Cell) (grid.Cell, bool) {
	if !g.Passable(goal) {
		return grid.Cell{}, false
	}
	c := cellAt(g, p)
	noPath := func(m grid.Cell) bool { return !g.Connected(m, goal) }
	for r := int32(1); r <= escapeRadius; r++ {
		best, bestD, found := grid.Cell{}, int64(0), false
		for y := c.Y - r; y <= c.Y+r; y++ {
			for x := c.X - r; x <= c.X+r; x++ {
				if max(absInt32(x-c.X), absInt32(y-c.Y)) != r {
					continue
				}
				n := grid.Cell{X: x, Y: y}
				if !g.Connected(n, goal) {
					continue
				}
				dx, dy := int64(n.X-goal.X), int64(n.Y-goal.Y)
				if d := dx*dx + dy*dy; (!found || d < bestD) && !entersDeadEnd(g, p, g.Center(n), noPath) {
					best, bestD, found = n, d, true
				}
			}
		}
		if found {
			return best, true
		}
	}
	return grid.Cell{}, false
}

// entersDeadEnd reports whether the first open cell the segment from a to b
// enters (where a walk out of a wall ends), b's cell excluded, is one for which
// noPath holds, or is entered through a corner beside one. It walks the cells
// the segment crosses in order (Amanatides and Woo), at most 4·escapeRadius+4
// of them (none open among them: false).
func entersDeadEnd(g *grid.Grid, a, b r2.Vec, noPath func(grid.Cell) bool) bool {
	dead := func(n grid.Cell) bool { return g.InBounds(n) && g.Passable(n) && noPath(n) }
	c, end := cellAt(g, a), cellAt(g, b)
	dx, dy := b.X-a.X, b.Y-a.Y
	stepX, stepY := int32(1), int32(1)
	tMaxX, tMaxY := math.Inf(1), math.Inf(1)
	var tDeltaX, tDeltaY float64
	switch {
	case dx > 0:
		tDeltaX, tMaxX = 1/dx, (float64(c.X)+1-a.X)/dx
	case dx < 0:
		stepX, tDeltaX, tMaxX = -1, -1/dx, (a.X-float64(c.X))/-dx
	}
	switch {
	case dy > 0:
		tDeltaY, tMaxY = 1/dy, (float64(c.Y)+1-a.Y)/dy
	case dy < 0:
		stepY, tDeltaY, tMaxY = -1, -1/dy, (a.Y-float64(c.Y))/-dy
	}
	for range 4*escapeRadius + 4 {
		if c == end {
			return false
		}
		if dead(c) {
			return true
		}
		if g.Passable(c) {
			return false
		}
		switch {
		case tMaxX < tMaxY:
			c.X += stepX
			tMaxX += tDeltaX
		case tMaxY < tMaxX:
			c.Y += stepY
			tMaxY += tDeltaY
		default: // through a corner: both cells beside it count
			if dead(grid.Cell{X: c.X + stepX, Y: c.Y}) || dead(grid.Cell{X: c.X, Y: c.Y + stepY}) {
				return true
			}
			c.X += stepX
			c.Y += stepY
			tMaxX += tDeltaX
			tMaxY += tDeltaY
		}
	}
	return false
}

// aim returns the point an agent at p heads for on field f, whether it is the
// goal in direct line of sight, and whether there is anywhere to head: the
// goal's centre when it is in line of sight, else p plus LookAhead+1 cells
// along f.Sample(p)'s direction. It is that rule with f.Sample's steps
// written out, so the line of sight to the goal, the longest test, is walked
// once (Sample tests it, and so did the rule after it). The target is the
// centre of f's first passable goal, as Sample's; Direct needs it to be the
// first goal.
//
// The line of sight to the target is walked only where it can exist:
// grid.Grid.LineOfSight holds only if the cells the segment crosses (and at a
// corner, both side cells) are passable, and they make a path of 4-neighbour
// moves from p's cell to the target's, so the field's integration value at
// p's cell is then at most their Manhattan distance times maxCost (the
// grid's largest finite cost). Agents behind walls with a longer way round
// skip the walk, which may run hundreds of cells.
func aim(f *flowfield.Field, g *grid.Grid, p r2.Vec, maxCost float64) (r2.Vec, bool, bool) {
	return aimWith(f, g, p, maxCost, nil, nil)
}

// aimWith is aim, with sight (nil: none) the bitmap of g's blocked cells, up
// to date, and hint (nil: none) a cell that blocked an earlier line of sight
// to the goal, which it updates. With them it gives the same answers as aim
// with less work:
//   - the lines to the next cells along the field are known clear without a
//     walk when the box around them holds no blocked cell (the usual case in
//     the open; see openCells.clear), and near a wall those to the first few
//     when the box around these does, so only the later ones are walked;
//   - the goal is known hidden without a walk when the line to it passes
//     well inside the hint cell and that cell is blocked (see hidden): an
//     agent that enters a new cell is most often hidden by the same wall as
//     in its last one.
func aimWith(f *flowfield.Field, g *grid.Grid, p r2.Vec, maxCost float64, sight *openCells, hint *grid.Cell) (r2.Vec, bool, bool) {
	c := cellAt(g, p)
	next, ok := f.Next(c)
	clr := f.Clearance()
	if clr > 1 { // a wide field: lines of sight at its clearance, which the bitmap and hint do not know
		sight, hint = nil, nil
	}
	if !ok {
		if g.InBounds(c) && !g.Passable(c) { // inside a wall (a door closed on it): walk out
			if out, found := escapeCell(f, g, p); found {
				return g.Center(out), false, true
			}
		} else if !g.InBounds(c) && g.Width() > 0 && g.Height() > 0 { // off the grid: walk on
			return aimOnto(f, g, c)
		}
		return r2.Vec{}, false, false
	}
	goals := f.Goals()
	for i, gc := range goals {
		if !g.Passable(gc) {
			continue
		}
		t := g.Center(gc)
		if hint != nil && sight != nil && hiddenNear(sight, p, t, hint) {
			break
		}
		manhattan := float64(absInt32(gc.X-c.X) + absInt32(gc.Y-c.Y))
		if f.Integration(c) > float64(manhattan*maxCost*(1+1e-6))+0.5 {
			break
		}
		if clr > 1 {
			if !g.LineOfSightWide(p, t, clr) {
				break
			}
		} else if b, clear := g.LineOfSightBlocker(p, t); !clear {
			if hint != nil {
				*hint = b
			}
			break
		}
		d := r2.Sub(t, p)
		if detmath.Norm(d) < 0.05 { // on the goal: nowhere to head
			return r2.Vec{}, false, false
		}
		if i == 0 {
			return t, true, true
		}
		return addScaled(p, flowfield.LookAhead+1, unit(d)), false, true
	}
	var dir r2.Vec
	if next == c { // a goal cell other than the target's, or the target hidden
		d := r2.Sub(g.Center(c), p)
		if detmath.Norm(d) < 0.05 {
			return r2.Vec{}, false, false
		}
		dir = unit(d)
	} else {
		// the cells after next along the field, then the farthest of them in
		// sight with all those before it
		var ahead [flowfield.LookAhead]grid.Cell
		m := f.Walk(next, ahead[:])
		at := next
		// the longest run of leading cells whose lines are certainly clear
		// (most often all of them, in the open), then walks from there
		k := 0
		if sight != nil {
			for k = m; k > 0 && !openAround(sight, g, p, ahead[:k]); k-- {
			}
		}
		if k > 0 {
			at = ahead[k-1]
		}
		for _, n := range ahead[k:m] {
			if clr > 1 {
				if !g.LineOfSightWide(p, g.Center(n), clr) {
					break
				}
			} else if _, clear := g.LineOfSightBlocker(p, g.Center(n)); !clear {
				break
			}
			at = n
		}
		dir = unit(r2.Sub(g.Center(at), p))
	}
	if dir.X == 0 && dir.Y == 0 {
		return r2.Vec{}, false, false
	}
	return addScaled(p, flowfield.LookAhead+1, dir), false, true
}

// aimOnto is aimWith's answer for an agent in cell c, off the grid (Movement
// lets it walk freely there and come on into open cells only): head for the
// centre of the grid's cell nearest it (c's coordinates clamped to the grid)
// when the field leads on from there, else for that cell's way out of a wall
// (escapeCell); neither: no direction.
func aimOnto(f *flowfield.Field, g *grid.Grid, c grid.Cell) (r2.Vec, bool, bool) {
	near := grid.Cell{X: min(max(c.X, 0), int32(g.Width()-1)), Y: min(max(c.Y, 0), int32(g.Height()-1))}
	if _, ok := f.Next(near); ok {
		return g.Center(near), false, true
	}
	if out, found := escapeCell(f, g, g.Center(near)); found {
		return g.Center(out), false, true
	}
	return r2.Vec{}, false, false
}

// unit is r2.Unit(d), bit for bit: for finite non-zero d, the same
// operations as math.Hypot's (max·√(1+(min/max)²), each rounded), without
// its call and special cases; r2.Unit itself otherwise.
func unit(d r2.Vec) r2.Vec {
	x, y := math.Abs(d.X), math.Abs(d.Y)
	hi, lo := max(x, y), min(x, y)
	if !(hi > 0 && hi <= math.MaxFloat64) {
		return detmath.Unit(d) // zero, infinite or NaN
	}
	q := lo / hi
	n := hi * math.Sqrt(float64(q*q)+1)
	return r2.Scale(1/n, d)
}

// openAround reports whether the lines from p to the centres of cells are
// all certainly clear: the box around p and those centres holds no blocked
// cell and neither of p's coordinates lies on or within rounding of a grid
// line. Each line then stays in its own box, inside that one, so
// grid.Grid.LineOfSight holds for each (see openCells.clear; the centres
// lie half a cell off the grid lines).
func openAround(sight *openCells, g *grid.Grid, p r2.Vec, cells []grid.Cell) bool {
	lo, hi := p, p
	for _, c := range cells {
		q := g.Center(c)
		lo.X, lo.Y = min(lo.X, q.X), min(lo.Y, q.Y)
		hi.X, hi.Y = max(hi.X, q.X), max(hi.Y, q.Y)
	}
	mx, my := float64(4e-9*(hi.X-lo.X))+1e-12, float64(4e-9*(hi.Y-lo.Y))+1e-12
	if onLine(p.X, mx) || onLine(p.Y, my) {
		return false
	}
	return sight.clear(lo, hi)
}

// hidden reports whether cell b is blocked (in sight's bitmap) and the
// segment from p to t passes through it at least hiddenInset cells (more on
// long segments) inside its sides: grid.Grid.LineOfSight(p, t) is then
// false. Its walk checks every cell the segment enters: the cells it steps
// through, and both side cells where it passes within its corner tolerance
// (10⁻⁹ of the segment's length) of a grid corner, so a cell entered deeper
// than that tolerance and the rounding of its crossings is checked, and
// found blocked, unless the walk stopped at another blocked cell before.
func hidden(sight *openCells, p, t r2.Vec, b grid.Cell) bool {
	if b.X < 0 || b.Y < 0 || int(b.X) >= sight.w || int(b.Y) >= sight.h {
		return false // not a cell of the grid
	}
	dx, dy := t.X-p.X, t.Y-p.Y
	in := hiddenInset + float64(4e-9*(math.Abs(dx)+math.Abs(dy)))
	x0, x1 := float64(b.X)+in, float64(b.X)+1-in
	y0, y1 := float64(b.Y)+in, float64(b.Y)+1-in
	// a segment whose box misses the inset cell misses it (a NaN too)
	if !(max(p.X, t.X) > x0 && min(p.X, t.X) < x1 && max(p.Y, t.Y) > y0 && min(p.Y, t.Y) < y1) {
		return false
	}
	// clip the segment's parameter range [0, 1] to the inset cell
	// (Liang–Barsky), by reciprocals: their rounding, some 10⁻¹⁶ of the
	// segment's length, is far inside the inset
	lo, hi := 0.0, 1.0
	if dx != 0 {
		r := 1 / dx
		t0, t1 := (x0-p.X)*r, (x1-p.X)*r
		lo, hi = max(lo, min(t0, t1)), min(hi, max(t0, t1))
	}
	if dy != 0 {
		r := 1 / dy
		t0, t1 := (y0-p.Y)*r, (y1-p.Y)*r
		lo, hi = max(lo, min(t0, t1)), min(hi, max(t0, t1))
	}
	// the bitmap last: a segment that misses the cell reads no memory
	return lo < hi && sight.bits[int(b.Y)*sight.stride+int(b.X)/64]&(1<<(uint(b.X)%64)) != 0
}

// hiddenNear reports whether the segment from p to t is hidden (see hidden)
// by the hint cell or one of its 8 neighbours, and moves hint to the one
// that hides it. An agent that has entered a new cell since hint was found
// looks at the goal along a line shifted by up to a cell: most often it
// passes through the same wall next to hint.
func hiddenNear(sight *openCells, p, t r2.Vec, hint *grid.Cell) bool {
	b := *hint
	if hidden(sight, p, t, b) {
		return true
	}
	for _, d := range [8][2]int32{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		// the bit first: an open neighbour (most, off a wall) needs no clipping
		if n := (grid.Cell{X: b.X + d[0], Y: b.Y + d[1]}); sight.blocked(n) && hidden(sight, p, t, n) {
			*hint = n
			return true
		}
	}
	return false
}

// blocked reports whether c is a cell of the grid and blocked in the bitmap.
func (o *openCells) blocked(c grid.Cell) bool {
	if c.X < 0 || c.Y < 0 || int(c.X) >= o.w || int(c.Y) >= o.h {
		return false
	}
	return o.bits[int(c.Y)*o.stride+int(c.X)/64]&(1<<(uint(c.X)%64)) != 0
}

// hiddenInset is how far inside a cell's sides, in cells, a segment must
// pass for hidden to count it as passing through the cell.
const hiddenInset = 1e-3

// Finalize releases the workers and the filters; Update panics until the next
// Initialize (see lifecycle.go).
func (s *FlowField) Finalize(w *arche.World) {
	if s.filter != nil { // not if never initialized, or finalized already
		s.pool.Close()
		s.filter, s.finalized = nil, true
	}
	s.ran.Leave()
	markFinalized(w, sysFlowField)
}
