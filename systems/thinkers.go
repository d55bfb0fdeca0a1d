package systems

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unsafe"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// thinkers is what the decision systems (trees, utility, state machines)
// share: it finds the agents with a brain of type B whose think time is due
// this frame (see [Due]) and reads their entities on its workers
// (contiguous ranges of the query),
// hands them to the system's job on its workers as [Agent] views, and applies
// the commands leaves queued, in the order of the agents' entity IDs. With a
// budget it takes at most that many, those due the longest first (by
// Think.Next, then entity ID), so a spike of due agents is spread out and
// nobody starves. Neither order depends on Arche's storage order, which
// differs after a world is loaded.
type thinkers[B any] struct {
	Thought      int   // agents that thought in the last frame
	Waiting      int   // agents due in the last frame but left for the next by the budget
	TotalThought int64 // agents that thought since init (int64: 100,000 agents at 10 Hz would pass a 32-bit int within an hour)
	Counted      int   // the sum of the workers' counts in the last frame (see count)
	// backlog is the number of frames in a row, up to the last, in which the budget
	// left agents waiting (Waiting > 0): Diagnose's CauseDecisionStarved.
	backlog int64
	// runs counts the Updates that ran it since init: Diagnose's Report.Unthought
	// tells brains that have thought from those that have not by it, not by the
	// Clock's Started, which a clock stepped by hand (no ecs.ClockSystem) never sets.
	runs int64

	pool   *ecs.Workers
	cmds   []workerCommands // per worker
	counts []padded         // per worker
	clock  *ecs.Clock
	grid   *grid.Grid
	filter *generic.Filter10[B, components.Think, components.Position, components.Intent,
		components.Velocity, components.Perception, components.Health, components.Path, components.Rand,
		components.Blackboard]
	world  *arche.World
	cols   columns        // the query's components, read by the workers
	n      int            // agents in this frame's query
	found  [][]int32      // per worker: query indices of its due agents
	qs     []arche.Query  // per worker of the find pass: its query, stepped to its due agents' entities
	due    []int32        // this frame's thinkers: query indices
	views  []paddedJob[B] // per worker: the view of the agent it ticks
	finder thinkFinder[B]
	blank  thinkJob[B]      // a view with only World, Grid, Clock and types set
	types  *componentTypes  // component types for Get
	hints  []padded         // per worker: the run of its last job
	keys   []dueKey         // the budget's order
	flips  intentFlips      // per agent: the changes of its Intent (CauseIntentFlipFlop)
	queued []queuedCommands // this frame's, from every worker
	lock   arche.MaskFilter // the filter of the query that locks the world while jobs run
	// cursor is always 0: the budget orders agents by (Think.Next, entity
	// ID) and keeps no cursor. Kept for code that saves it.
	cursor int

	finalized bool // close ran, and init not since (lifecycle.go)
}

// Column indices of the thinkers' columns.
const (
	thBrain = iota
	thThink
	thPos
	thIntent
	thVel
	thPerception
	thHealth
	thPath
	thRand
	thBlackboard
)

// workerCommands is one worker's command buffers: the one handed to the
// agent being ticked, the filled ones of agents ticked before, and emptied
// ones for reuse.
type workerCommands struct {
	cur    *ecs.Commands
	agent  uint32 // entity ID of the agent cur was handed to
	handed bool
	filled []queuedCommands
	spare  []*ecs.Commands
	_      [64]byte
}

// queuedCommands are the commands one agent's leaves queued in a frame.
type queuedCommands struct {
	agent  uint32 // entity ID
	worker int    // whose spare buffers it goes back to
	cmds   *ecs.Commands
}

// thinkJob is one agent due to think: its view and its brain and cadence.
type thinkJob[B any] struct {
	agent Agent
	brain *B
	think *components.Think
}

// paddedJob is a worker's thinkJob on cache lines of its own.
type paddedJob[B any] struct {
	thinkJob[B]
	_ [64]byte
}

// dueKey orders due agents for a budget: by Think.Next, then entity ID.
type dueKey struct {
	next float64
	id   uint32
	i    int32 // query index
}

// perWorker is a worker's value (a decision context, a planner) on cache
// lines of its own: each worker writes its own at every node or step, and two
// on one cache line would bounce it between the cores (false sharing: with 2
// workers the Decision of 100k guards took twice the CPU of 1 worker).
type perWorker[T any] struct {
	v T
	_ [64]byte
}

// padded is a per-worker counter on its own cache line.
type padded struct {
	n int
	_ [56]byte
}

// thinkFinder is the ecs.Job that finds the due agents.
type thinkFinder[B any] struct {
	t     *thinkers[B]
	ready func(*B) bool
}

// init builds the filter and starts workers goroutines (0 or 1: one); the
// grid resource is optional. It returns the number of workers.
func (t *thinkers[B]) init(w *arche.World, workers int) int {
	t.pool = reopenPool(t.pool, max(workers, 1))
	n := t.pool.N() // at most ecs.MaxWorkers
	t.cmds = make([]workerCommands, n)
	for i := range t.cmds {
		t.cmds[i].cur = new(ecs.Commands)
	}
	t.counts = make([]padded, n)
	t.found = make([][]int32, n)
	t.views = make([]paddedJob[B], n)
	t.hints = make([]padded, n)
	t.world = w
	t.restart()
	t.clock = ecs.ClockOf(w)
	t.grid = ecs.Resource[grid.Grid](w)
	t.filter = generic.NewFilter10[B, components.Think, components.Position, components.Intent,
		components.Velocity, components.Perception, components.Health, components.Path, components.Rand,
		components.Blackboard]().
		Optional(generic.T[components.Velocity](), generic.T[components.Perception](), generic.T[components.Health](),
			generic.T[components.Path](), generic.T[components.Rand](), generic.T[components.Blackboard]())
	t.cols.reset() // a second world (a level restart) registers its own columns
	t.cols.column(arche.ComponentID[B](w), unsafe.Sizeof(*new(B)))
	t.cols.column(arche.ComponentID[components.Think](w), unsafe.Sizeof(components.Think{}))
	t.cols.column(arche.ComponentID[components.Position](w), unsafe.Sizeof(components.Position{}))
	t.cols.column(arche.ComponentID[components.Intent](w), unsafe.Sizeof(components.Intent{}))
	t.cols.column(arche.ComponentID[components.Velocity](w), unsafe.Sizeof(components.Velocity{}))
	t.cols.column(arche.ComponentID[components.Perception](w), unsafe.Sizeof(components.Perception{}))
	t.cols.column(arche.ComponentID[components.Health](w), unsafe.Sizeof(components.Health{}))
	t.cols.column(arche.ComponentID[components.Path](w), unsafe.Sizeof(components.Path{}))
	t.cols.column(arche.ComponentID[components.Rand](w), unsafe.Sizeof(components.Rand{}))
	t.cols.column(arche.ComponentID[components.Blackboard](w), unsafe.Sizeof(components.Blackboard{}))
	t.finder.t = t
	t.types = &componentTypes{}
	t.types.refresh(w)
	t.blank = thinkJob[B]{agent: Agent{World: w, Grid: t.grid, Clock: t.clock, types: t.types, arena: ArenaOf(w)}}
	for k := range t.views {
		t.views[k].thinkJob = t.blank
	}
	return n
}

// run finds the due agents whose brain is ready (set up), at most budget of
// them (0: no limit), runs job on the workers over them (job reads them with
// t.job), updates the statistics and applies the queued commands.
func (t *thinkers[B]) run(w *arche.World, budget int, ready func(*B) bool, job ecs.Job) {
	t.types.learn(w) // the types Get missed last frame (the world is not locked here)
	q := t.filter.Query(w)
	t.cols.scanRuns(w, &q.Query) // the due agents' entities are read in gather
	t.n = t.cols.count
	if t.grid != nil {
		t.grid.Prepare() // leaves may read the grid's lazy caches from several workers
	}
	t.runs++
	t.gather(budget, ready)
	if t.Waiting > 0 {
		t.backlog++
	} else {
		t.backlog = 0
	}
	t.flips.grow(t.maxDueID())
	t.runLocked(w, job)
	t.Thought = len(t.due)
	for k := range t.cmds {
		t.settle(k)
	}
	t.Counted = 0
	for i := range t.counts {
		t.Counted += t.counts[i].n
		t.counts[i].n = 0
	}
	t.TotalThought += int64(t.Thought)
	for k := range t.views {
		t.views[k].thinkJob = t.blank // drop the component pointers
	}
	t.apply(w)
}

// runLocked runs job over this frame's due agents on the workers with w locked:
// an Arche query is held open while the user's leaves, considerations and hooks
// run, so a structural change they make on the World directly (w.RemoveEntity,
// w.Add, ...) instead of queueing it on Agent.Commands panics rather than
// corrupting the columns the workers read. The panic reaches Update's caller
// (ecs.Workers.Run raises a helper's panic there) and the lock is released on
// the way out. Arche's own message ("attempt to modify a locked world") names
// neither archai nor the fix, so it is raised again as [lockedPanic] of the
// system and the user code that made the change. Holding the query costs a lock
// bit and allocates nothing.
func (t *thinkers[B]) runLocked(w *arche.World, job ecs.Job) {
	lock := w.Query(&t.lock)
	defer lock.Close()
	if in := ecs.Resource[installed](w); in != nil { // for SetFlowGoal's check (userCode)
		prev := in.userCode
		in.userCode = userCodeOf[B]()
		defer func() { in.userCode = prev }()
	}
	defer func() {
		if r := recover(); r != nil {
			panic(lockedPanic[B](r))
		}
	}()
	t.pool.Run(job, len(t.due))
}

// lockedPanic returns what the decision system of brain B raises for a panic r of
// its user code: Arche's panics on a structural change to a locked world (a
// string containing "locked world") become a message naming the system, the user
// code that runs in it and Agent.Commands, with Arche's text kept at its end;
// any other value is returned as it is.
func lockedPanic[B any](r any) any {
	msg, ok := r.(string)
	if !ok || !strings.Contains(msg, "locked world") {
		return r
	}
	u := userCodeOf[B]()
	return "systems: " + u.system + ": " + u.code + " changed the world's structure directly " +
		"(World.RemoveEntity, World.Add, a new component type, ...) while the system " +
		"holds its query open; queue the change on Agent.Commands instead " +
		"(a.Commands.RemoveEntity(a.Entity), a.Commands.Run(func(w *arche.World) {...})), " +
		"applied after the pass: " + msg
}

// userCode names the user code a decision system runs on its workers (see
// installed.userCode): the system and the kind of code.
type userCode struct{ system, code string }

// userCodeOf returns the user code the decision system of brain B runs.
func userCodeOf[B any]() userCode {
	switch any((*B)(nil)).(type) {
	case *components.Brain:
		return userCode{"Decision", "a behavior-tree leaf"}
	case *components.UtilityBrain:
		return userCode{"Utility", "a utility consideration or action"}
	case *components.StateMachine:
		return userCode{"FSM", "a state-machine hook"}
	case *components.HTNPlanner:
		return userCode{"HTN", "an HTN operator or sensor"}
	case *components.GOAPPlanner:
		return userCode{"GOAP", "a GOAP action or sensor"}
	}
	return userCode{"a decision system", "user code"}
}

// job returns the view of job i of this frame for worker (valid until its
// next call), with a Commands for its agent alone.
func (t *thinkers[B]) job(worker, i int) *thinkJob[B] {
	t.settle(worker)
	c := &t.cols
	idx := int(t.due[i])
	r := t.hints[worker].n
	if r >= len(c.runs) || c.runs[r].start > idx || c.end(r, t.n) <= idx {
		r = t.runOf(idx)
		t.hints[worker].n = r
	}
	// the run's column pointers and the sizes, read once each: the stores
	// into the view below would otherwise have each c.at read them again
	// (copying the two arrays whole cost more: 2·maxColumns words a job)
	run := &c.runs[r]
	off := uintptr(idx - run.start)
	at := func(k int) unsafe.Pointer { // c.at(r, k, idx)
		p := run.ptr[k]
		if p == nil {
			return nil
		}
		return unsafe.Add(p, off*c.size[k])
	}
	j := &t.views[worker].thinkJob
	wc := &t.cmds[worker]
	j.brain, j.think = (*B)(at(thBrain)), (*components.Think)(at(thThink))
	// field by field: the view's World, Grid and Clock stay as set at init
	a := &j.agent
	a.Commands, a.Entity = wc.cur, c.ents[idx]
	a.Position = (*components.Position)(at(thPos))
	a.Intent = (*components.Intent)(at(thIntent))
	a.Velocity = (*components.Velocity)(at(thVel))
	a.Perception = (*components.Perception)(at(thPerception))
	a.Health = (*components.Health)(at(thHealth))
	a.Path = (*components.Path)(at(thPath))
	a.Rand = (*components.Rand)(at(thRand))
	a.Blackboard = nil
	if bb := (*components.Blackboard)(at(thBlackboard)); bb != nil {
		a.Blackboard = bb.Store
	}
	wc.agent, wc.handed = j.agent.Entity.ID(), true
	return j
}

// runOf returns the index of the columns' run holding query index i.
func (t *thinkers[B]) runOf(i int) int {
	runs := t.cols.runs
	lo, hi := 0, len(runs)-1
	for lo < hi { // the last run starting at or before i
		m := (lo + hi + 1) / 2
		if runs[m].start <= i {
			lo = m
		} else {
			hi = m - 1
		}
	}
	return lo
}

// settle files the commands the agent last handed worker's buffer queued (on
// that worker) and gives the worker an empty buffer.
func (t *thinkers[B]) settle(worker int) {
	wc := &t.cmds[worker]
	if !wc.handed {
		return
	}
	wc.handed = false
	if wc.cur.Len() == 0 {
		return
	}
	wc.filled = append(wc.filled, queuedCommands{agent: wc.agent, worker: worker, cmds: wc.cur})
	if n := len(wc.spare); n > 0 {
		wc.cur = wc.spare[n-1]
		wc.spare = wc.spare[:n-1]
	} else {
		wc.cur = new(ecs.Commands) // until the spares have grown to the agents that queue commands
	}
}

// apply applies the frame's commands in the order of the agents' entity IDs
// and keeps the buffers for reuse.
func (t *thinkers[B]) apply(w *arche.World) {
	t.queued = t.queued[:0]
	for k := range t.cmds {
		t.queued = append(t.queued, t.cmds[k].filled...)
		clear(t.cmds[k].filled)
		t.cmds[k].filled = t.cmds[k].filled[:0]
	}
	if len(t.queued) == 0 {
		return
	}
	slices.SortFunc(t.queued, func(a, b queuedCommands) int { return cmp.Compare(a.agent, b.agent) })
	for _, q := range t.queued {
		q.cmds.Apply(w)
		wc := &t.cmds[q.worker]
		wc.spare = append(wc.spare, q.cmds)
	}
	clear(t.queued)
}

// count adds n to worker's count, summed into Counted after the frame.
func (t *thinkers[B]) count(worker, n int) { t.counts[worker].n += n }

// close stops the workers and drops the filter (Update then panics until the next
// init, see lifecycle.go). It does nothing if t was never initialized or is closed
// already.
func (t *thinkers[B]) close() {
	if t.filter == nil {
		return
	}
	t.pool.Close()
	t.filter, t.finalized = nil, true
}

// gather finds the due agents whose brain is ready, on the workers, into
// t.due (in query order); beyond budget (0: none), those due the longest (by
// Think.Next, then entity ID; an agent whose Think.Last is after the clock, the
// clock set back, before all) go first and the rest wait for the next frame.
func (t *thinkers[B]) gather(budget int, ready func(*B) bool) {
	t.Waiting = 0
	// the find pass reads the due agents' entities too, each worker stepping
	// a query of its own from one to the next (one query per worker that
	// may run; beyond maxSharedWorkers, they are read here afterwards)
	k := 1
	if t.n >= lightParallelMin {
		k = t.pool.N()
	}
	stepped := k <= maxSharedWorkers
	t.cols.ents = grow(t.cols.ents, t.cols.count)
	if stepped {
		t.qs = openQueries(t.qs, t.world, t.filter.Filter(t.world), k)
	}
	t.find(ready)
	if cap(t.due) < t.n { // every agent may be due: grown once
		t.due = make([]int32, 0, t.n+t.n/4)
	}
	t.due = t.due[:0]
	for k := range t.found {
		t.due = append(t.due, t.found[k]...)
		t.found[k] = t.found[k][:0]
	}
	if !stepped { // in query order: read the due agents' entities alone
		t.cols.entitiesAt(t.world, t.filter.Filter(t.world), t.due)
	}
	// cols.ents[i] is valid for the due i only
	if budget > 0 && len(t.due) > budget {
		c, now := &t.cols, t.clock.Time
		if cap(t.keys) < cap(t.due) {
			t.keys = make([]dueKey, 0, cap(t.due))
		}
		t.keys = t.keys[:0]
		for _, i := range t.due {
			th := (*components.Think)(c.at(t.runOf(int(i)), thThink, int(i)))
			next := th.Next
			if th.Last > now { // the clock went back: its old Next would hold it back until the clock is there again
				next = math.Inf(-1)
			}
			t.keys = append(t.keys, dueKey{next: next, id: c.ents[i].ID(), i: i})
		}
		slices.SortFunc(t.keys, func(a, b dueKey) int {
			if o := cmp.Compare(a.next, b.next); o != 0 {
				return o
			}
			return cmp.Compare(a.id, b.id)
		})
		for k, key := range t.keys {
			t.due[k] = key.i
		}
		t.Waiting = len(t.due) - budget
		t.due = t.due[:budget]
	}
}

// find runs the find pass, then closes the workers' queries, even if ready
// panicked (the world would stay locked).
func (t *thinkers[B]) find(ready func(*B) bool) {
	defer func() {
		t.qs = closeQueries(t.qs)
		t.finder.ready = nil
	}()
	t.finder.ready = ready
	runLight(t.pool, &t.finder, t.n)
}

// Work implements ecs.Job: it notes the due agents among the query's
// [lo, hi) whose brain is ready, and reads their entities into cols.ents by
// stepping worker's query (if gather opened one) from one to the next.
func (f *thinkFinder[B]) Work(worker, lo, hi int) {
	t := f.t
	c := &t.cols
	now, dt := t.clock.Time, t.clock.DT
	found := t.found[worker]
	if cap(found) < hi-lo { // its whole range may be due: grown once
		found = make([]int32, 0, hi-lo+(hi-lo)/4)
	}
	var q *arche.Query // nil: the entities are read after the pass (gather)
	if worker < len(t.qs) {
		q = &t.qs[worker]
	}
	prev := -1 // q stands before its first entity
	limit := dueLimit(now, dt)
	for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
		// the run's columns cut to [lo, hi): element k is query index a+k
		start := c.runs[r].start
		a, b := max(lo, start), min(hi, c.end(r, t.n))
		ths := columnOf[components.Think](c, r, thThink, t.n)[a-start : b-start]
		brains := columnOf[B](c, r, thBrain, t.n)[a-start : b-start]
		brains = brains[:len(ths)]
		for k := nextDue(ths, 0, now, limit); k < len(ths); k = nextDue(ths, k+1, now, limit) {
			if f.ready(&brains[k]) {
				i := a + k
				found = append(found, int32(i))
				if q != nil {
					q.Step(i - prev)
					prev = i
					c.ents[i] = q.Entity()
				}
			}
		}
	}
	t.found[worker] = found
}

// thought records that job j's agent thought at now, its think done (not one that
// panicked): its Intent's changes are counted (CauseIntentFlipFlop), and j.thought.
func (t *thinkers[B]) thought(j *thinkJob[B], now float64) {
	if m := markOf(j.agent.Intent); m != j.think.IntentSum {
		t.flips.observe(j.agent.Entity, j.think, j.agent.Intent, m, now)
	}
	j.thought(now)
}

// thought records that a job's agent thought at now: its schedule advances
// and its perception is due again with the next think.
func (j *thinkJob[B]) thought(now float64) {
	advance(j.think, now)
	if j.agent.Perception != nil {
		j.agent.Perception.Fresh = false
	}
}

// panicked runs as a decision system's Work unwinds from a panic of user code (a leaf,
// a consideration, a hook, an operator) in job i's think: that agent counts as having
// thought at now, as the FSM's does (see [FSM]), so its next think's DT starts from now
// rather than counting the panicked think's seconds again (a bt Timeout, Delay or Wait
// on the way to the leaf, an HTN/GOAP operator's memory, already added them). The panic
// goes on to Update's caller.
func (t *thinkers[B]) panicked(worker, i int, now float64) {
	t.job(worker, i).thought(now)
}

// sinceLast is the DT of a think at now: the seconds since the agent last thought,
// 0 if that is not a finite number ≥ 0 (Think.Last after the clock, the clock set
// back; NaN or infinite), as bt.Tree.Tick counts such a DT.
func sinceLast(th *components.Think, now float64) float64 {
	if dt := now - th.Last; dt >= 0 && !math.IsInf(dt, 1) {
		return dt
	}
	return 0
}

// advance records a decision at now and schedules the next one an Interval
// after the last scheduled one (DefaultThinkInterval if unset), keeping the
// agent's stagger phase, or an Interval from now if that is already past or
// the clock went back since the last decision (Last after now).
func advance(th *components.Think, now float64) {
	interval := th.Interval
	if interval <= 0 {
		interval = DefaultThinkInterval
	}
	back := th.Last > now
	th.Last = now
	th.Next += interval
	if th.Next <= now || back {
		th.Next = now + interval
	}
}

// lightParallelMin is the number of agents from which a light pass (a flag
// or two read per agent: finding due agents, the
// foe index) is split over the workers; below it, handing the pass to the
// other goroutines costs more than it saves (and on a loaded machine, far
// more). The result is the same either way. A variable only so tests can
// force either way.
var lightParallelMin = 32768

// runLight runs job over [0, n) on pool, or on this goroutine as worker 0
// when n is below lightParallelMin.
func runLight(pool *ecs.Workers, job ecs.Job, n int) {
	if n < lightParallelMin {
		if n > 0 {
			job.Work(0, 0, n)
		}
		return
	}
	pool.Run(job, n)
}
