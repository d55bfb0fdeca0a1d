package systems

import (
	"runtime"
	"strings"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
)

// PathJoin is the point of the frame where the searches that a [PathQueue]
// with Overlap started in its Update have finished: its Update waits for them
// and writes their paths into the requesters' Paths, on the calling goroutine.
// Make it with [PathQueue.Join] and put it after the systems that may run
// beside the searches (see Overlap in PathQueue's doc) and before the first
// system that reads or writes a Path.
//
// The queue overlaps only while its PathJoin is initialized after it on the
// same world (the join comes after the queue in the schedule): a schedule
// without the join gets a queue that serves in its Update. A join of a queue
// with Overlap placed before the queue, or after one of archai's systems that
// reads or writes a Path, panics at Initialize (see [PathJoin.Initialize]);
// the user's own systems between the two are not checked. A PathJoin of a
// queue without Overlap, or whose queue started nothing, does nothing. It
// needs no resource and has no contract of its own.
type PathJoin struct {
	q   *PathQueue
	ran ecs.Ran // the frame it last ran, for save.Save's check (ecs.Frame.Between)
}

// Join returns the system that waits for the queue's searches (see
// [PathJoin]).
func (s *PathQueue) Join() *PathJoin { return &PathJoin{q: s} }

// Name implements ecs.Namer.
func (j *PathJoin) Name() string { return "pathjoin" }

// Initialize lets the queue overlap if the queue was initialized on w before.
//
// Panics: if the queue has Overlap and was not initialized on w before the
// join (the join first in the schedule: the queue would never overlap), or one
// of archai's systems that read or write a Path (PathFollow, a decision system
// (Decision, Utility, FSM, HTN, GOAP: their leaves see the agent's Path), LOD
// (Path.Priority), another PathQueue) was initialized on w between the queue
// and the join: it would see the frame's requests unanswered, and a request it
// changes would be answered differently than without Overlap, or not at all.
// Combat, Spatial, Perception, FlowField, Steer, ORCA and Movement read and
// write no Path and may run between.
func (j *PathJoin) Initialize(w *arche.World) {
	if j.q.Overlap && (j.q.world != w || j.q.filter == nil) {
		panic(setupFault("PathJoin", ecs.ErrOrder, "systems: PathJoin is initialized before its PathQueue (Overlap), or on another world: the queue would "+
			"never overlap; put the PathJoin after the queue in the schedule"))
	}
	if j.q.world == w && j.q.filter != nil {
		if j.q.Overlap {
			mustJoinBefore(w, &j.q.liveAtInit)
		}
		j.q.joined = true
	}
	j.ran.Join(w, j)
}

// besideSearches are the archai systems that may run between a PathQueue with
// Overlap and its PathJoin: they read and write no Path. (The searches touch no
// World, so what else they do is no concern of theirs.)
const besideSearches = sysCombat | sysSpatial | sysPerception | sysFlowField | sysSteer | sysORCA | sysMovement

// mustJoinBefore panics, naming them, if archai systems other than
// besideSearches were initialized on w since the queue's Initialize (live counts
// above those of then, as mustOrderORCA compares them).
func mustJoinBefore(w *arche.World, then *[numSystems]int32) {
	r := ecs.Resource[installed](w)
	if r == nil {
		return
	}
	var between []string
	for i, name := range systemNames {
		if besideSearches&(1<<i) == 0 && r.live[i] > then[i] {
			between = append(between, name)
		}
	}
	if len(between) > 0 {
		panic(setupFault("PathJoin", ecs.ErrOrder, "systems: PathJoin is initialized after "+strings.Join(between, ", ")+", between its PathQueue "+
			"(Overlap) and it: these read or write a Path, and would see the frame's requests unanswered (their paths "+
			"are written at the join); put the PathJoin after the queue and before them (Combat, Spatial, Perception, "+
			"FlowField, Steer, ORCA and Movement may run between)"))
	}
}

// Update waits for the searches the queue's last Update started, if any, and
// writes their paths (raising a panic of theirs here).
func (j *PathJoin) Update(w *arche.World) {
	j.ran.Mark(w)
	j.q.join()
}

// Finalize waits for the queue's searches; the queue no longer overlaps.
func (j *PathJoin) Finalize(w *arche.World) {
	j.ran.Leave()
	j.q.join()
	j.q.joined = false
}

// pathServe is the job that serves the queue's searches on the helper: chunk 0
// (the first a helper claims) serves, the other chunks are empty. It reaches the
// queue's pathServer alone, which holds no World (see pathServer): the views it
// reads were taken in the queue's Update, and the answers it leaves are written
// by the join, both on the calling goroutine.
type pathServe struct {
	v *pathServer
}

func (j *pathServe) Work(worker, lo, hi int) {
	if lo == 0 && hi > 0 {
		j.v.need = j.v.serve()
	}
}

// openPool opens the pool that serves beside the next systems: with Overlap
// and at least 2 workers, 2 (the caller, which runs the next systems, and one
// helper, which searches); else none, and Update serves as before. A pool of
// the last Initialize is closed first.
func (s *PathQueue) openPool() {
	if s.pool != nil {
		s.pool.Close()
		s.pool = nil
	}
	n := s.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	if s.Overlap && n >= 2 {
		s.pool = ecs.NewWorkers(2)
	}
}

// startServe takes the views the frame's serve will likely ask for, then
// starts it on the pool; join waits for it.
func (s *PathQueue) startServe(w *arche.World) {
	// the views: of the requests of the jobs served first, twice as many as
	// the last frame looked at (the serve stops at a job whose requests have
	// none, and the join goes on with it on the calling goroutine)
	s.predict(pathViewsFor(s.lastLooked))
	for _, j := range s.order {
		s.viewJob(w, j)
	}
	// the grid's lazy caches (the blocked-cell bitmap smoothing's lines of
	// sight read, components, clearance) are built now, on the caller: a
	// system beside the searches that calls Prepare (Perception) then builds
	// nothing the searches read
	s.grid.Prepare()
	if s.anyWide {
		// a wide search reads the clearance field, which Prepare keeps up to
		// date only once built: built on the helper, it raced a system beside
		// the searches that builds it too (Steer, at its first Update)
		s.grid.Clearance(grid.Cell{})
		// and so do its components of the request's clearance (Search.Start:
		// an unreachable goal answered without searching); Prepare keeps
		// those asked for before, this labels a clearance new this frame
		for _, c := range s.classes {
			s.grid.PrepareWide(c) // (ComponentWide(grid.Cell{}, c) labels nothing: the corner cell has clearance 1)
		}
	}
	s.serveVersion = s.grid.Version()
	s.serving = pathServe{v: &s.pathServer}
	s.started = true
	s.pool.Start(&s.serving, s.pool.N())
}

// pathViewsFor is how many requests startServe takes views of, given how many
// the last frame's serve looked at (a variable for tests).
var pathViewsFor = func(lastLooked int) int { return max(2*lastLooked, 256) }

// join waits for the serve startServe started, if any, goes on with it on the
// calling goroutine if it stopped for views, writes its answers into the Paths
// and tallies the frame's statistics. A panic of a search is raised here.
func (s *PathQueue) join() {
	if !s.started {
		return
	}
	s.started = false
	s.pool.Wait()
	if s.grid.Version() != s.serveVersion {
		// a system between the queue and its join edited the grid the
		// searches read (see Overlap in the doc): not allowed, and raced them;
		// told by Diagnose (Report.GridEditedBeside)
		s.editedBeside++
	}
	// an answer apply could not write: its requester was removed, or its
	// Path's request changed, by a system between the queue and its join
	// (forbidden, see Overlap in the doc); told by Diagnose
	// (Report.RequestsChangedBeside)
	s.changedBeside += s.serveOn(s.world)
}

// wantScan is scanWants (without the pending agents) split over the queue's
// pool: each worker lists the requesters of its contiguous range of the query,
// and the lists joined in worker order are in query order, as the serial
// scan's. With Overlap the pool's helper is usually still spinning after the
// decision systems' passes, and the scan streams every agent's Path (88
// bytes), which two cores read about twice as fast as one.
type wantScan struct {
	q     *PathQueue
	parts []wantPart // per worker
}

// wantPart is one worker's share of a wantScan, padded to cache lines of its
// own.
type wantPart struct {
	wants   []int32
	pending int
	_       [64]byte
}

// scanWantsShared is scanWants(false) on the pool.
func (s *PathQueue) scanWantsShared() (pending int) {
	j := &s.scan
	if j.q != s || len(j.parts) != s.pool.N() {
		*j = wantScan{q: s, parts: make([]wantPart, s.pool.N())}
	}
	s.pool.Run(j, s.n)
	s.wants = s.wants[:0]
	for k := range j.parts {
		s.wants = append(s.wants, j.parts[k].wants...)
		pending += j.parts[k].pending
	}
	return pending
}

// Work lists the requesters among the query's [lo, hi) and counts the pending
// agents without Want.
func (j *wantScan) Work(worker, lo, hi int) {
	s := j.q
	c := &s.cols
	part := &j.parts[worker]
	wants := part.wants[:0]
	if cap(wants) < hi-lo { // its whole range may ask: grown once
		wants = make([]int32, 0, hi-lo+(hi-lo)/4)
	}
	pending := 0
	for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
		start := c.runs[r].start
		paths := columnOf[components.Path](c, r, 0, s.n)
		for i := max(lo, start); i < min(hi, c.end(r, s.n)); i++ {
			switch p := &paths[i-start]; {
			case p.Want:
				wants = append(wants, int32(i))
			case p.State == components.PathPending:
				pending++
			}
		}
	}
	part.wants, part.pending = wants, pending
}
