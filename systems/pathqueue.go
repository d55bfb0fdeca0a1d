package systems

import (
	"cmp"
	"fmt"
	"slices"
	"unsafe"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// DefaultPathBudget is the number of node expansions [PathQueue] spends
// per frame when its Budget is not set. How many searches that is depends on
// their length: between random open cells of a 512×512 map a quarter blocked
// (random512-25-0.map) an A* search expands 15,012 nodes on average, so the
// default serves about 0.7 searches a frame (some 40 paths a second at 60 Hz);
// with Options.JumpPoints (a grid whose passable cells all cost the same) a
// search there expands about 2,300 (with its landmarks; 4,533 without), about
// 4 searches a frame, each expansion dearer (a search about half of A*'s time).
const DefaultPathBudget = 10000

// PathQueue serves path requests from many agents within a per-frame budget
// of node expansions, slicing long searches across frames.
//
// Requests: an agent asks by setting Path.Want and Path.Goal. Each frame the
// queue takes new requests in the order of the agents' entity IDs (found by
// a scan of the query's Path columns on the calling goroutine, reading only
// the requesters' entities), so which request
// is older never depends on Arche's storage order, which differs after a world is loaded: it clears Want, sets State to
// PathPending, numbers the request (Path.Request) and files it under its
// (start cell, goal cell) pair, the start being the cell of the agent's
// Position now. Equal pairs share one search. A request made while the
// agent's previous one still waits replaces it (the old one is dropped when
// reached) and keeps its place in the queue (Path.Queued).
//
// Budget: the default (DefaultPathBudget, 10,000 expansions a frame) serves
// about 0.7 A* searches a frame between random cells of a 512×512 map, 40
// paths a second at 60 Hz: 2,000 agents given random goals there wait many
// seconds (906 moving after 20 s). On a grid whose passable cells all cost the
// same, with Moves8, turn Options.JumpPoints on: the same paths with about a
// sixth of the expansions there (about 1,950 moving after 20 s). Else raise Budget,
// or give a goal many agents share a [FlowField].
//
// Serving (requests that wait PathWaitLong seconds or more are reported by
// [Diagnose], Report.PathsWaitingLong, naming Options.JumpPoints where it
// applies: a group order to one far goal is
// better served by a [FlowField]): searches run highest Path.Priority first, then oldest first,
// until Budget expansions are spent (the priority is strict: a request waits
// while any of a higher priority waits, so a stream of higher requests, agents
// asking again at a higher priority whenever served, starves it, and Diagnose's
// note then names Path.Priority; priorities do not rise with the wait, which
// would reorder the searches of runs whose priorities differ, LOD's, and of
// saved queues); a search that does not finish resumes
// next frame ([grid.Search.Step]). Starting a search also costs one unit
// per request it serves, and a search answered without expanding (an
// unreachable goal, start = goal) one unit, so a frame's work stays bounded. Before a
// search starts and when it ends, each requester is checked: a dead entity
// (or one that lost its Path or Position: an agent whose Path still waits
// without a Position is one [Diagnose] reports as lacking it), a request
// replaced by a newer one, or a Path no longer pending is dropped (counted in
// Dropped, and by reason in Orphaned, Replaced and Cancelled); a requester whose Path.Goal was changed without
// Want (while pending) is refiled under its new goal (but see Moving goals).
// A search nobody waits for any more is abandoned.
//
// Moving goals: a request whose Path.Goal moves while its search is in
// progress (PathFollow moves it to a chased target's new cell) leaves that
// search, which is lost to it, and is refiled under the new goal. Once it has
// lost one search so, it stays on the next one it gets even when the goal
// moves again, and is answered with the path to the goal it had when that
// search started: Path.Goal is set to that goal (older than the one written
// last; counted in Overtaken), and the agent asks again for where its goal
// is now. PathFollow does: its repath test (see PathFollow's doc) compares
// the path's goal with the target's cell. A program that moves Path.Goal
// itself compares it with its own goal when the path arrives. So a goal that
// moves more often than a search takes (a target walking a new cell every 20
// frames, searches of 40 frames at a small Budget) costs at most two
// searches and never starves the request; before, it was refiled off every
// search and got no path at all. The count is part of the saved state
// (PathRequestState.Lost).
//
// Asking again: a Want while the Path is pending replaces the request (from
// the agent's cell now, for its Goal now), and a search begun for the old one
// that nobody else waits for is abandoned. An agent that asks every frame (a
// leaf setting Want on each tick, its start cell or goal changing) lost every
// search longer than a frame and never got a path: on a 128×128 map at a Budget
// of 50, none in 3,000 frames, 147,000 expansions spent. So a request made while
// the Path was pending counts as having lost a search already: once its search
// has begun it stays on it, though asked again or its goal moved, and is
// answered with that search's path (Path.Goal then names the goal it leads to,
// as for Moving goals below). An agent asking again while waiting therefore gets
// a path within two searches.
//
// Results: State PathReady with Waypoints (start to goal, smoothed by line
// of sight if Smooth is set) and Next = 1, or PathUnreachable with no
// waypoints; Path.Goal is set to the goal the path leads to.
//
// Buffers: a path is copied into the agent's Waypoints buffer. When it does
// not fit, the buffer is exchanged for a spare of the path's size class (a
// power of two times 16 cells) from the queue's stock, and when it fits a
// smaller class of which the stock has a spare, a large buffer is given back
// for a small one; the stock grows by doubling batches, so a crowd stops
// allocating once it holds as many long paths at once as it ever will (the
// Arena holds every buffer given). A Waypoints slice read before a frame may
// therefore belong to another agent after it: copy what you keep.
//
// Edits: when cells of the grid change between frames ([grid.Grid.SetCost]:
// a door closes, a bridge opens), Update first asks for a new path (Want,
// same Goal) for exactly the agents whose held path, from the waypoint
// before Next on, crosses an edited cell (for a wide agent, see Wide agents,
// also a cell closed within its clearance of the path: the gap it passes may
// now be too narrow for it), and for every PathUnreachable agent when an
// edited cell is now passable; it drops the line-of-sight
// caches whose segment's bounding box holds an edited cell. A search in
// progress restarts on the new grid by itself. Repathed counts these
// agents. When the grid no longer remembers every edit (more than about
// grid.MaxEditLog since the last frame), every path touching the edits'
// bounding rectangle is redone. Edits made after the queue's last Update
// and before a save are not seen by the loaded world: save after an Update,
// as the run loop does. A frame without edits costs one comparison.
//
// Blocked start: a request from a blocked cell of the grid (a door closed on
// the agent, a bridge closed under it, an agent spawned in a wall) is searched
// from the cell it walks out to, its exit: of the nearest ring of cells around
// its cell (rings 1 to 4, as PathFollow's escape rule) holding open cells from
// which the goal is reachable (for its clearance) and whose straight line from
// the cell's centre first enters no open cell cut off from the goal, the one
// nearest the goal. The answer is PathReady with the agent's blocked cell as
// Waypoints[0] and the exit as Waypoints[1] (Next = 1), so PathFollow heads
// out of the wall to the exit (Movement lets it walk through blocked cells) and
// on along the path. Only when no open cell within 4 leads to the goal is the
// answer PathUnreachable: then, from here, it is. A search from an exit that an
// edit changes (the exit closes, the start cell opens) starts again.
//
// Start off the grid: a request from a cell off the grid (an agent spawned or
// loaded just past the map's edge; Movement lets it walk back on, into open
// cells only) is searched from its entry, the cell of the grid nearest it
// (its coordinates clamped to the grid) when the goal is reachable from
// there, else that cell's exit as above; the answer is PathReady with the
// agent's own cell as Waypoints[0] and the entry as Waypoints[1], as for a
// blocked start. With no entry within 4 cells of the nearest one, it is
// PathUnreachable.
//
// Orphans: an agent whose Path is PathPending while the queue holds no request
// of it (a world loaded from a save without [PathQueue.LoadState], usually through
// save's Loaded.Restore, or a State set to PathPending by hand) would wait
// forever. When a frame finds more pending agents than requests, the queue files
// each such agent's request again, as if it had set Want, and counts it in
// Requeued ([Diagnose] counts such agents before that Update as
// CausePathNotQueued). The agent gets its path, but a
// loaded run does not continue exactly as the saved one did: restore the
// queue's state for that. A frame without orphans costs one comparison.
//
// Wide agents: a requester with a [components.Kinematics] whose Radius is
// above 0.5 cells gets a route wide enough for it: the search runs with
// grid.Options.Clearance = grid.ClearanceFor(Radius), so every cell the path
// enters keeps the agent's disc off the walls (see grid.Options.Clearance;
// the agent's own start cell is exempt). No wide-enough route, or a goal
// cell too narrow for it (the start's own cell too, as a goal: an agent at
// its goal when a wall is built beside it), is PathUnreachable, answered without searching
// (grid.Grid.ConnectedWide: components per clearance, labelled once and
// after edits), as for point agents in different components. With Smooth such paths are
// smoothed by grid.SmoothWide (shortcuts wide enough for the agent). Agents of radius ≤ 0.5 (the bundles'
// default is 0.3) search as before; requests of different clearances never
// share a search.
//
// Overlap: with Overlap set (and Workers ≥ 2, 0 meaning GOMAXPROCS), Update
// files the frame's requests, copies out of the world what the searches will
// read of the requesters, and returns; the searches run on a helper goroutine
// while the calling goroutine goes on with the next systems of the frame; the
// [PathJoin] system made by [PathQueue.Join], placed later in the frame, waits
// for them and writes their paths into the requesters' Paths (without it in
// the schedule, after the queue, Update serves as without Overlap, and
// [Diagnose] reports it as Report.Unjoined; a join placed before the queue, or
// after one of archai's systems that reads or writes a Path, panics at its
// Initialize). Every World access stays on the calling goroutine: the helper
// runs grid searches on the queue's own data (its jobs, and views of the
// requesters' Path fields, liveness and clearance taken in Update; a search
// whose requesters Update did not foresee waits for the join, which goes on
// with it on the calling goroutine). The results are those of a queue without
// Overlap (the same searches in the same order, on the requests as they were
// when Update returned); only when they are written moves. The statistics of
// the frame (Served, Expansions, ...) are complete after the join.
//
// Important: a system between the queue and its join sees the frame's requests
// still pending (their paths are written at the join), so it must not need
// this frame's paths, and it must not change a Path's request (Want, Goal,
// State, Request, Priority, Queued) or remove a requester: the join writes an
// answer only into a Path whose request is as it was (else it counts it in
// Dropped), and a search the join goes on with reads the Paths as they are by
// then, so the results would not be those without Overlap. It must not edit
// the grid either: the searches read it. Anything else is fine there, including
// structural changes (creating or removing other entities, adding or removing
// components) and reading or writing Kinematics, Position and the Arena. The
// guard scenario runs [Combat] there. Put the join before the first system
// that reads or writes a Path ([PathFollow], a Spawner's Respawn, a decision
// system whose leaves set goals). [PathQueue.State], SaveState, LoadState,
// Finalize and [Diagnose] join the searches too.
//
// Contract:
//
//	requires   Path, Position
//	optional   Kinematics (Radius: the route's clearance)
//	writes     Path (Want, State, Request, Queued, Waypoints, Next, Goal)
//	resources  *grid.Grid
//
//	absent or unusable             what PathQueue does                    Diagnose counts
//	Position                       the request is never served            CauseSteerIncomplete
//	Path.Goal off the grid or      PathUnreachable                        CausePathGoal
//	  blocked
//	start in a blocked cell        searched from its exit (Blocked        CauseBlocked
//	                               start); none within 4: PathUnreachable
//	start off the grid             PathUnreachable                        CauseOffGrid
//	Path.Goal too close to a wall  PathUnreachable                        CausePathGoalNarrow
//	  for Kinematics.Radius
//	a passable goal walled off     PathUnreachable; PathFollow seeks it   CausePathUnreachable
//	  from the agent                 straight, against the wall
//	Options.JumpPoints on a grid   searches by A* (paths as short),       - (AStarInstead counts
//	  of several costs               until its costs are one again          the searches)
type PathQueue struct {
	ran     ecs.Ran      // the frame it last ran, for save.Save's check (ecs.Frame.Between)
	Workers int          // goroutines with Overlap (0: runtime.GOMAXPROCS; it uses at most 2: the caller and one helper); else unused
	Overlap bool         // run the searches beside the next systems until the [PathJoin] (see Overlap in the doc)
	Budget  int          // node expansions per frame; DefaultPathBudget if zero or negative (no budget is unlimited, unlike Decision's)
	Options grid.Options // search options; with JumpPoints on a grid of several costs it searches by A* (AStarInstead)
	Smooth  bool         // smooth paths with grid.Smooth (any-angle waypoints)

	// Statistics of the last frame.
	// Waiting is the number of agents of the queue's query (Path and
	// Position) whose Path is PathPending at the end of the frame: the live
	// requests still waiting. Requests of agents removed while they waited
	// are not counted, though the queue holds them until it reaches them (and
	// drops them, counted in Dropped then); counted from the frame's scan of
	// the Paths and its answers, it costs no walk of the queue.
	Waiting    int
	Expansions int // node expansions spent
	Searches   int // searches finished (or answered at once)
	Served     int // requests answered (one search can serve many)
	Dropped    int // requests dropped: Orphaned + Replaced + Cancelled
	Orphaned   int // of Dropped: requester dead, or without its Path or Position
	Replaced   int // of Dropped: replaced by a newer request of the same agent (asked again, see Asking again in the doc), or its request changed between the queue and its join
	Cancelled  int // of Dropped: its Path no longer pending (State set otherwise by the program)
	Repathed   int // agents asked to repath because the grid changed under their path
	Requeued   int // pending paths the queue held no request for, asked for again (see Orphans in the doc)
	Overtaken  int // requests answered with a path to an older goal than their Path.Goal (see Moving goals in the doc)

	// AStarInstead counts the searches started by A* although Options.JumpPoints
	// asks for jump point search: the grid has passable cells of several costs,
	// which jump point search cannot search (grid.ErrNotUniform). A* finds paths
	// as short; jump point search resumes once the grid's passable cells share
	// one cost again.
	AStarInstead int

	// Totals since Initialize (int64: a crowd's expansions pass a 32-bit int within
	// minutes).
	TotalServed, TotalDropped, TotalExpansions, TotalSearches int64
	TotalRepathed, TotalRequeued, TotalOvertaken              int64
	TotalOrphaned, TotalReplaced, TotalCancelled              int64 // TotalDropped by reason (Orphaned, Replaced, Cancelled)
	TotalAStarInstead                                         int64

	pathServer // jobs, tickets, searches: what the helper's serve reads and writes (pathqueue_serve.go)

	world  *arche.World // for checking a loaded state's entities (save_state.go), and the join's writes
	filter *generic.Filter2[components.Path, components.Position]
	paths  generic.Map2[components.Path, components.Position]
	kin    generic.Map1[components.Kinematics] // the requesters' radius (clearanceOf)

	cols  columns    // Path, Position
	wants []int32    // query indices of this frame's requesters
	news  []pathWant // this frame's new requests
	n     int        // agents in the query this frame (sizes the waypoint stock's batches)

	pendingLive int                    // agents of the query pending after this frame's filing, less the answers apply wrote (Waiting)
	waitAge     map[arche.Entity]int64 // longWaits' longest wait per agent (kept empty between its calls)

	arena  *Arena         // holds the waypoint buffers given to agents from spares
	spares waypointSpares // spare waypoint buffers by size (pathbuffers.go)

	edits editWatch // the grid's edits (pathqueue_edits.go)

	pool    *ecs.Workers // with Overlap and 2 workers: serves on a helper (pathqueue_overlap.go)
	serving pathServe    // the job the pool runs: the serve, on the helper
	started bool         // Update started the serve and join has not waited for it
	scan    wantScan     // scanWants on the pool
	joined  bool         // a PathJoin was initialized after the queue: Update may overlap

	serveVersion  uint64 // the grid's version when startServe started the helper
	editedBeside  int    // joins since Initialize that found the grid edited since startServe (Diagnose: Report.GridEditedBeside)
	changedBeside int    // answers since Initialize a join could not write: requester removed or its request changed beside (Diagnose: Report.RequestsChangedBeside)

	liveAtInit [numSystems]int32 // installed.live just after Initialize: the systems a PathJoin finds initialized since run between

	finalized bool // Finalize ran, and Initialize not since (lifecycle.go)
}

// pathWant is a new request found this frame: the requester and its
// components (valid within the Update).
type pathWant struct {
	e   arche.Entity
	p   *components.Path
	pos *components.Position
}

// Name implements ecs.Namer.
func (s *PathQueue) Name() string { return "pathqueue" }

// Initialize builds the search buffers for the grid resource.
//
// Panics:
//   - if the world has no *grid.Grid resource: add one with
//     arche.AddResource before Initialize, or one of no cells (a zero
//     grid.Grid{}): make it with grid.New or grid.NewChecked;
//   - if Options are invalid ([grid.Options.Validate]: an unknown Moves, a NaN
//     or negative Weight, ...): fix the PathQueue's Options.
func (s *PathQueue) Initialize(w *arche.World) {
	s.join()         // searches of an Initialize not finalized since
	s.joined = false // until its PathJoin's Initialize
	s.editedBeside, s.changedBeside = 0, 0
	if s.Budget <= 0 {
		s.Budget = DefaultPathBudget
	}
	s.grid = mustGrid(w, "PathQueue")
	s.world = w
	s.arena = ArenaOf(w)
	markInstalled(w, sysPathQueue)
	s.ran.Join(w, s)
	ecs.Resource[installed](w).pathQueue = s
	s.liveAtInit = ecs.Resource[installed](w).live // for its PathJoin's order check
	if err := s.Options.Validate(); err != nil {
		panic(&ecs.SetupError{System: "PathQueue", Kind: ecs.ErrSettings, Msg: fmt.Sprintf("systems: PathQueue cannot search with its Options: %v", err), Err: err})
	}
	s.options = s.Options
	s.search = grid.NewSearchOptions(s.grid, s.Options)
	// a raw path rarely has more cells than twice the grid's perimeter: sized
	// now, the buffer does not grow at a new longest path in steady state
	s.buf = make([]grid.Cell, 0, 2*(s.grid.Width()+s.grid.Height()))
	s.initWide(w)
	s.watchEdits()
	s.filter = generic.NewFilter2[components.Path, components.Position]()
	s.paths = generic.NewMap2[components.Path, components.Position](w)
	s.byKey = make(map[pathKey]int32)
	s.viewOf = make(map[arche.Entity]int32)
	s.active = -1
	s.nextSeq = 1
	s.restart() // a level restart: nothing of the last world, its own columns
	s.cols.column(arche.ComponentID[components.Path](w), unsafe.Sizeof(components.Path{}))
	s.cols.column(arche.ComponentID[components.Position](w), unsafe.Sizeof(components.Position{}))
	s.openPool()
}

// Update takes new requests and serves them within the budget (with Overlap,
// starts serving them: see Overlap in the doc).
func (s *PathQueue) Update(w *arche.World) {
	s.ran.Mark(w)
	mustInitialized(s.filter, s.finalized, "PathQueue")
	s.join()
	s.Served, s.Dropped, s.Expansions, s.Searches, s.Overtaken, s.AStarInstead = 0, 0, 0, 0, 0, 0
	s.Orphaned, s.Replaced, s.Cancelled = 0, 0, 0
	s.beginFrame(s.Budget, s.Smooth, s.Options)
	s.Repathed = s.repathEdited(w)
	s.TotalRepathed += int64(s.Repathed)
	q := s.filter.Query(w)
	c := &s.cols
	c.scanRuns(w, &q.Query)
	s.n = c.count
	if n := s.n; cap(s.news) < n { // every agent may ask: grown once
		s.news = make([]pathWant, 0, n+n/4)
		s.wants = make([]int32, 0, n+n/4)
	}
	s.news = s.news[:0]
	pending := s.scanWants(false)
	orphans := pending > s.waiting // each agent waiting without asking again holds a ticket
	if orphans {
		s.scanWants(true) // the pending agents too, as orphan candidates
	}
	c.entitiesAt(w, s.filter.Filter(w), s.wants) // the requesters' entities alone
	if orphans {
		s.Requeued = s.keepOrphans()
		s.TotalRequeued += int64(s.Requeued)
	} else {
		s.Requeued = 0
	}
	r := 0
	for _, i32 := range s.wants {
		i := int(i32)
		r = c.run(i, r)
		s.news = append(s.news, pathWant{e: c.ents[i], p: (*components.Path)(c.at(r, 0, i)),
			pos: (*components.Position)(c.at(r, 1, i))})
	}
	// pending agents after the filing: those waiting, the orphans among them
	// now asking again (in news), and this frame's requesters; apply takes
	// off the answered ones (Waiting)
	s.pendingLive = pending - s.Requeued + len(s.news)
	slices.SortFunc(s.news, func(a, b pathWant) int { return cmp.Compare(a.e.ID(), b.e.ID()) })
	for _, nw := range s.news {
		p, pos := nw.p, nw.pos
		p.Want = false
		again := p.State == components.PathPending // asked again while waiting: see Asking again
		if !again {
			p.Queued = s.nextSeq
			s.nextSeq++
			p.State = components.PathPending
		}
		p.Request++
		s.fileRequest(nw.e, p, s.grid.CellAt(pos.Vec), again)
	}
	clear(s.news) // keep no component pointer past the Update
	// Overlap cleared since Initialize (the pool stays): served here
	if s.Overlap && s.pool != nil && s.joined {
		s.startServe(w)
		return
	}
	s.need = s.serve()
	s.serveOn(w)
}

// tally sets the statistics of the frame once its searches are done.
func (s *PathQueue) tally() {
	s.Served, s.Dropped, s.Expansions, s.Searches, s.Overtaken = s.served, s.dropped, s.expansions, s.searches, s.overtaken
	s.Orphaned, s.Replaced, s.Cancelled = s.orphaned, s.replaced, s.cancelled
	s.TotalOrphaned += int64(s.Orphaned)
	s.TotalReplaced += int64(s.Replaced)
	s.TotalCancelled += int64(s.Cancelled)
	s.AStarInstead = s.aStarInstead
	s.TotalAStarInstead += int64(s.AStarInstead)
	s.Waiting = max(s.pendingLive, 0)
	s.TotalServed += int64(s.Served)
	s.TotalDropped += int64(s.Dropped)
	s.TotalExpansions += int64(s.Expansions)
	s.TotalSearches += int64(s.Searches)
	s.TotalOvertaken += int64(s.Overtaken)
}

// Finalize drops the filter: Update panics until the next Initialize (see
// lifecycle.go).
func (s *PathQueue) Finalize(w *arche.World) {
	s.join()
	if s.pool != nil {
		s.pool.Close()
		s.pool = nil
	}
	if s.filter != nil { // not if never initialized, or finalized already
		s.filter, s.finalized = nil, true
	}
	s.ran.Leave()
	markFinalized(w, sysPathQueue)
}
