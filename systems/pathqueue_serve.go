package systems

import (
	"slices"

	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
)

// pathServer is the part of a [PathQueue] that serves requests: its jobs,
// tickets and searches, the frame's views of the requesters and the results
// its searches found. It holds no World, no Arche filter, map or query, and no
// component pointer: what it reads of the requesters was copied out of the
// world on the calling goroutine (pathView), and what it finds is written into
// their Paths on the calling goroutine (pathAnswer, PathQueue.apply). So with
// Overlap its serve runs on a helper goroutine without touching the World
// (TestPathServerHoldsNoWorld walks the types the helper's job reaches).
//
// The grid is read by the searches (and smoothing) and by nothing that writes
// it while they run: the queue prepares its lazy caches before they start, and
// it is not part of the World.
type pathServer struct {
	grid    *grid.Grid
	options grid.Options // the queue's Options as of its last Update (wide searches are made with them)
	budget  int          // the queue's Budget as of its last Update
	smooth  bool         // the queue's Smooth as of its last Update

	jobs     []pathJob
	freeJobs []int32
	tickets  []pathTicket
	freeTkts []int32
	heap     []int32 // queued jobs, best first
	byKey    map[pathKey]int32
	active   int32 // job being searched, -1 if none
	nextSeq  uint64
	frame    int64 // frames served since Initialize (beginFrame): the tickets' since
	waiting  int
	buf      []grid.Cell
	search   *grid.Search

	activeExpanded int // node expansions spent on the active search (for saving: save_state.go)

	from        grid.Cell // where the active search started: its key's start, or that blocked cell's exit (pathqueue_exit.go)
	fromVersion uint64    // the grid's version when it started from there

	wide    wideSearches // searches by clearance (pathqueue_wide.go)
	anyWide bool         // a job of clearance > 1 was ever made: its search reads the grid's clearance field (startServe builds it)
	classes []uint8      // the clearances > 1 of the jobs ever made, in order of first use: their searches read the grid's components of that clearance (startServe builds them)

	// The frame: views of the requesters (per entity, shared by its tickets),
	// the serve's progress, and its results.
	gen        uint32                 // the frame's number: a ticket's view is this frame's if its gen is
	views      []pathView             // this frame's, by index
	viewOf     map[arche.Entity]int32 // the view of each entity looked at this frame
	spent      int                    // budget spent this frame
	popped     int32                  // a job popped from the heap whose recheck waits for views, -1 if none
	finishing  int32                  // a job whose search ended and whose finish waits for views, -1 if none
	need       int32                  // the job the serve waits for views of, -1 when the frame's serve is over
	looked     int                    // requests rechecked this frame
	stamp      uint32                 // recheck's count, for pathView.seen
	lastLooked int                    // requests rechecked last frame (startServe's guess of the views needed)
	results    []pathResult           // this frame's finished searches, in order
	cells      []grid.Cell            // their paths' cells (pathResult.lo, hi)
	answers    []pathAnswer           // this frame's answered requests, in order
	order      []int32                // predict's jobs
	cand       []int32                // predict's walk of the heap: positions in heap, best first

	// statistics of the frame (PathQueue.tally copies them)
	served, dropped, expansions, searches, overtaken int
	orphaned, replaced, cancelled                    int    // dropped, by reason (PathQueue.Orphaned, Replaced, Cancelled)
	aStarInstead                                     int    // searches started by A* for want of a uniform-cost grid (startSearch)
	aStarSince                                       uint64 // the grid's version when a search last fell back to A*

	// servedAt[p+128] is the last frame a search of priority p finished (0:
	// none since the queue's Initialize or load): whether requests of a higher
	// priority than the oldest waiting one were served while it waited (Diagnose)
	servedAt [256]int64
}

// pathView is what the queue's rechecks read of a requester, copied out of the
// world on the calling goroutine: whether it is gone (dead, or without a Path or
// a Position), and its Path's request fields. finish updates it as it answers
// (State and Goal), so later rechecks of the agent in the frame see what they
// would see in its Path.
type pathView struct {
	gone    bool
	pending bool   // Path.State == PathPending
	request uint32 // Path.Request
	goal    grid.Cell
	prio    int8   // Path.Priority
	queued  uint64 // Path.Queued
	clear   uint8  // clearance of its requests (Kinematics.Radius: clearanceOf)
	seen    uint32 // recheck's stamp when it last kept a request of this agent (one per agent per job)
}

// pathResult is one finished search: the goal, whether a path was found, and
// its cells in pathServer.cells[lo:hi].
type pathResult struct {
	goal   grid.Cell
	ok     bool
	lo, hi int32
}

// pathAnswer is one answered request, to be written into the requester's Path:
// the request and the goal its view held when it was answered (the Path's, if
// nothing changed the Path since), and the result.
type pathAnswer struct {
	e      arche.Entity
	req    uint32
	goal   grid.Cell
	result int32
}

// maxResultsRoom is the most search results beginFrame makes room for up
// front (about 400 KB); a frame with more grows the slice.
const maxResultsRoom = 1 << 14

// beginFrame starts a frame's serve: no view is this frame's yet, nothing
// spent or found.
func (v *pathServer) beginFrame(budget int, smooth bool, opt grid.Options) {
	v.budget, v.smooth, v.options = budget, smooth, opt
	v.frame++
	v.gen++
	if v.gen == 0 { // a ticket's gen 0 means never viewed
		v.gen = 1
		for i := range v.tickets {
			v.tickets[i].gen = 0
		}
	}
	v.views = v.views[:0]
	clear(v.viewOf)
	v.spent, v.looked, v.lastLooked = 0, 0, v.looked
	v.popped, v.finishing, v.need = -1, -1, -1
	v.results, v.cells, v.answers = v.results[:0], v.cells[:0], v.answers[:0]
	// room for the most answers a frame can give, made once rather than
	// when a busy frame first needs it (a steady state allocates nothing):
	// a result a search, and a search spends at least 1 of the budget
	// (+1: one carried over), up to maxResultsRoom (a huge Budget set to
	// mean "no limit" must not allocate its size); an answer a ticket
	if n := min(budget, maxResultsRoom) + 1; cap(v.results) < n {
		v.results = make([]pathResult, 0, n)
	}
	if cap(v.answers) < len(v.tickets) {
		v.answers = make([]pathAnswer, 0, len(v.tickets)+len(v.tickets)/4)
	}
	v.served, v.dropped, v.expansions, v.searches, v.overtaken, v.aStarInstead = 0, 0, 0, 0, 0, 0
	v.orphaned, v.replaced, v.cancelled = 0, 0, 0
}

// addView adds the view of entity e for this frame and returns its index.
func (v *pathServer) addView(e arche.Entity, vw pathView) int32 {
	i := int32(len(v.views))
	v.views = append(v.views, vw)
	v.viewOf[e] = i
	return i
}

// viewed reports whether every request of job j has this frame's view.
func (v *pathServer) viewed(j int32) bool {
	for t := v.jobs[j].head; t >= 0; t = v.tickets[t].next {
		if v.tickets[t].gen != v.gen {
			return false
		}
	}
	return true
}

// file adds a request of entity e (its view vw: goal, priority, queue number,
// request number, clearance) for (start, vw.goal) to the job with that key,
// creating and queueing the job if needed; lost is the searches the request
// already lost to a goal move (pathTicket.lost); view is the index of e's view
// this frame, or -1 if it has none yet; since is the frame the request was
// first filed (pathTicket.since).
func (v *pathServer) file(e arche.Entity, vw *pathView, start grid.Cell, lost uint8, view int32, since int64) {
	key := pathKey{start, vw.goal, vw.clear}
	j, ok := v.byKey[key]
	if !ok {
		j = v.newJob(key, vw.prio, vw.queued)
	}
	job := &v.jobs[j]
	tk := pathTicket{e: e, req: vw.request, next: job.head, lost: lost, since: since}
	if view >= 0 {
		tk.view, tk.gen = view, v.gen
	}
	job.head = v.newTicket(tk)
	v.waiting++
	if job.heapIdx >= 0 && (vw.prio > job.prio || (vw.prio == job.prio && vw.queued < job.seq)) {
		job.prio = max(job.prio, vw.prio)
		job.seq = min(job.seq, vw.queued)
		v.heapUp(int(job.heapIdx))
	}
}

func (v *pathServer) newJob(key pathKey, prio int8, seq uint64) int32 {
	var j int32
	if n := len(v.freeJobs); n > 0 {
		j = v.freeJobs[n-1]
		v.freeJobs = v.freeJobs[:n-1]
	} else {
		v.jobs = append(v.jobs, pathJob{})
		j = int32(len(v.jobs) - 1)
	}
	v.jobs[j] = pathJob{key: key, prio: prio, seq: seq, head: -1, heapIdx: -1}
	if key.clear > 1 && !slices.Contains(v.classes, key.clear) {
		v.anyWide = true
		v.classes = append(v.classes, key.clear)
	}
	v.byKey[key] = j
	v.heapPush(j)
	return j
}

func (v *pathServer) newTicket(t pathTicket) int32 {
	if n := len(v.freeTkts); n > 0 {
		i := v.freeTkts[n-1]
		v.freeTkts = v.freeTkts[:n-1]
		v.tickets[i] = t
		return i
	}
	v.tickets = append(v.tickets, t)
	return int32(len(v.tickets) - 1)
}

func (v *pathServer) freeJob(j int32) {
	delete(v.byKey, v.jobs[j].key)
	v.freeJobs = append(v.freeJobs, j)
}

// serve runs searches until the budget is spent or nothing waits, and returns
// -1; or, when the next job to recheck (or to finish) holds a request without
// this frame's view, it returns that job, and the caller adds the views (on
// the goroutine that may read the World) and calls serve again, which goes on
// where it stopped. Its searches, rechecks and answers are those of one serve
// that read the requesters' Paths as it went, as long as nothing changes them
// meanwhile (the views are taken before, or when, serve asks).
func (v *pathServer) serve() int32 {
	for {
		if j := v.finishing; j >= 0 {
			if !v.viewed(j) {
				return j
			}
			v.finishing = -1
			v.finish(j)
			continue
		}
		if v.spent >= v.budget {
			return -1
		}
		if v.active < 0 {
			j := v.popped
			if j < 0 {
				if len(v.heap) == 0 {
					return -1
				}
				j = v.heapPop()
				v.popped = j
			}
			if !v.viewed(j) {
				return j
			}
			v.popped = -1
			v.spent += v.recheck(j, false)
			if v.jobs[j].head < 0 {
				v.freeJob(j)
				continue
			}
			key := v.jobs[j].key
			v.active, v.activeExpanded = j, 0
			v.search = v.searchFor(key.clear)
			if err := v.startSearch(key); err != nil {
				v.finishing = j
				v.spent++
				continue
			}
		} else if v.spent == 0 { // a search carried over: anyone still waiting? (not charged)
			if !v.viewed(v.active) {
				return v.active
			}
			v.recheck(v.active, true)
			if v.jobs[v.active].head < 0 {
				v.freeJob(v.active)
				v.active = -1
				continue
			}
		}
		if v.spent >= v.budget {
			return -1 // the search started resumes next frame
		}
		// the grid changed under the search: it starts again here rather than
		// inside Step, so that its expansions count from the restart (a save
		// holds those, and a load replays them on the edited grid) and
		// startSearch chooses again: a blocked start's exit, and JPS or A* for
		// a queue asked for jump point search, as a load does
		if key := v.jobs[v.active].key; v.grid.Version() != v.fromVersion {
			v.activeExpanded = 0
			if err := v.startSearch(key); err != nil {
				v.finishing = v.active
				v.spent++
				continue
			}
		}
		n, done := v.search.Step(v.budget - v.spent)
		v.activeExpanded += n
		v.spent += max(n, 1)
		v.expansions += n
		if done {
			v.finishing = v.active
		}
	}
}

// recheck walks the requests of job j, dropping those whose agent died,
// replaced the request or stopped waiting, and refiling those whose goal
// changed, as their views tell (every request of j has this frame's view).
// started tells whether j's search has begun (carried over from an
// earlier frame, or finished): a request whose goal moved leaves it and
// counts it lost (pathTicket.lost), unless it lost one already, in which case
// it stays and is answered with the path to the goal it had, so a goal that
// moves more often than a search takes cannot starve it (its Path.Goal then
// says which goal the path leads to, and the agent asks again: PathFollow's
// repath test does). It returns the number of requests looked at.
func (v *pathServer) recheck(j int32, started bool) int {
	key := v.jobs[j].key
	prev := int32(-1)
	looked := 0
	v.stamp++
	if v.stamp == 0 { // wrapped: no view may hold the new stamp
		for i := range v.views {
			v.views[i].seen = 0
		}
		v.stamp = 1
	}
	for t := v.jobs[j].head; t >= 0; {
		looked++
		tk := v.tickets[t]
		next := tk.next
		vw := &v.views[tk.view]
		stays := started && tk.lost > 0 // on its search though replaced or its goal moved (Moving goals, Asking again)
		// a second request of one agent in one job (asked again while its search
		// ran: both stay) is dropped, or an agent asking every frame piles up one
		// waiting request a frame until the search ends
		dup := vw.seen == v.stamp
		drop := vw.gone || !vw.pending || vw.request != tk.req && !stays || dup
		keep := !drop && (vw.goal == key.goal || stays)
		if keep {
			vw.seen = v.stamp
		}
		if !keep {
			if prev < 0 {
				v.jobs[j].head = next
			} else {
				v.tickets[prev].next = next
			}
			v.freeTkts = append(v.freeTkts, t)
			v.waiting--
			if drop {
				v.drop(vw.gone, !vw.pending)
			} else { // the goal moved while waiting: refile from the same start
				lost := tk.lost
				if started {
					lost = 1
				}
				v.file(tk.e, vw, key.start, lost, tk.view, tk.since)
			}
		} else {
			prev = t
		}
		t = next
	}
	v.looked += looked
	return looked
}

// drop counts a dropped request in dropped and in one of its reasons: its
// requester gone (dead, or without its Path or Position), else its Path no
// longer pending, else replaced (a newer request of the agent, or its request
// changed).
func (v *pathServer) drop(gone, notPending bool) {
	v.dropped++
	switch {
	case gone:
		v.orphaned++
	case notPending:
		v.cancelled++
	default:
		v.replaced++
	}
}

// finish answers the requests of job j (whose search ended) with its path,
// kept in results and cells until the caller writes them (PathQueue.apply),
// and frees the job.
func (v *pathServer) finish(j int32) {
	v.recheck(j, true) // requesters may have died or moved on during the search
	key := v.jobs[j].key
	path, _, err := v.search.Result(v.buf)
	if err == nil && key.clear > 1 && v.grid.Clearance(key.goal) < key.clear {
		// a goal too narrow for the disc is unreachable, also when it is
		// the cell the search started from, which grid.Search exempts (as
		// a start) and answers with [start]: an agent standing at its goal
		// when a wall was built beside it got a ready path and kept its
		// disc in the wall, where PathFollow's fitPoint moves it out
		path, err = path[:0], grid.ErrUnreachable
	}
	v.buf = path
	if err == nil && v.smooth {
		path = grid.SmoothWide(v.grid, path, path, key.clear) // grid.Smooth for clearance 1
	}
	path = v.fromExit(key, path) // a blocked start's cell before its exit
	v.buf = path[:0]
	v.searches++
	v.servedAt[int(v.jobs[j].prio)+128] = v.frame
	res := pathResult{goal: key.goal, ok: err == nil, lo: int32(len(v.cells))}
	if res.ok && v.jobs[j].head >= 0 {
		v.cells = append(v.cells, path...)
	}
	res.hi = int32(len(v.cells))
	r := int32(len(v.results))
	v.results = append(v.results, res)
	for t := v.jobs[j].head; t >= 0; t = v.tickets[t].next {
		tk := &v.tickets[t]
		vw := &v.views[tk.view]
		if vw.goal != key.goal {
			v.overtaken++ // kept after losing a search (recheck): the path leads where the goal was
		}
		// the request the Path holds now: a ticket kept though asked again (recheck) answers the newest
		v.answers = append(v.answers, pathAnswer{e: tk.e, req: vw.request, goal: vw.goal, result: r})
		vw.goal, vw.pending = key.goal, false // as the answer will set the Path's Goal and State
		v.freeTkts = append(v.freeTkts, t)
		v.waiting--
		v.served++
	}
	v.jobs[j].head = -1
	v.freeJob(j)
	if v.active == j {
		v.active = -1
	}
}
