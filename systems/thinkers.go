package systems

import (
	"cmp"
	"slices"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// thinkers is what the decision systems (trees, utility, state machines)
// share: it gathers the agents with a brain of type B whose think time is due
// this frame (see [Due]) as [Agent] views, hands them to the system's job on
// its workers, and applies the commands leaves queued, in the order of the
// agents' entity IDs. With a budget it takes at most that many, those due the
// longest first (by Think.Next, then entity ID), so a spike of due agents is
// spread out and nobody starves. Neither order depends on Arche's storage
// order, which differs after a world is loaded.
type thinkers[B any] struct {
	Thought      int // agents that thought in the last frame
	Waiting      int // agents due in the last frame but left for the next by the budget
	TotalThought int // agents that thought since init
	Counted      int // the sum of the workers' counts in the last frame (see count)

	pool   *ecs.Workers
	cmds   []workerCommands // per worker
	counts []padded         // per worker
	clock  *ecs.Clock
	grid   *grid.Grid
	filter *generic.Filter10[B, components.Think, components.Position, components.Intent,
		components.Velocity, components.Perception, components.Health, components.Path, components.Rand,
		components.Blackboard]
	jobs   []thinkJob[B]
	queued []queuedCommands // this frame's, from every worker
	spare  []*ecs.Commands  // emptied buffers for reuse
	// cursor is always 0: the budget orders agents by (Think.Next, entity
	// ID) and keeps no cursor. Kept for code that saves it.
	cursor int
}

// workerCommands is one worker's command buffers: the one handed to the
// agent being ticked, and the filled ones of agents ticked before.
type workerCommands struct {
	cur    *ecs.Commands
	agent  uint32 // entity ID of the agent cur was handed to
	handed bool
	filled []queuedCommands
	_      [32]byte
}

// queuedCommands are the commands one agent's leaves queued in a frame.
type queuedCommands struct {
	agent uint32 // entity ID
	cmds  *ecs.Commands
}

// thinkJob is one agent due to think: its view and its brain and cadence.
type thinkJob[B any] struct {
	agent Agent
	brain *B
	think *components.Think
}

// padded is a per-worker counter on its own cache line.
type padded struct {
	n int
	_ [56]byte
}

// init builds the filter and starts workers goroutines (0 or 1: one); the
// grid resource is optional. It returns the number of workers.
func (t *thinkers[B]) init(w *arche.World, workers int) int {
	n := max(workers, 1)
	t.pool = ecs.NewWorkers(n)
	t.cmds = make([]workerCommands, n)
	for i := range t.cmds {
		t.cmds[i].cur = new(ecs.Commands)
	}
	t.counts = make([]padded, n)
	t.clock = ecs.ClockOf(w)
	t.grid = ecs.Resource[grid.Grid](w)
	t.filter = generic.NewFilter10[B, components.Think, components.Position, components.Intent,
		components.Velocity, components.Perception, components.Health, components.Path, components.Rand,
		components.Blackboard]().
		Optional(generic.T[components.Velocity](), generic.T[components.Perception](), generic.T[components.Health](),
			generic.T[components.Path](), generic.T[components.Rand](), generic.T[components.Blackboard]())
	return n
}

// run gathers the due agents whose brain is ready (set up), at most budget of
// them (0: no limit), runs job on the workers over them (job reads them with
// t.job), updates the statistics and applies the queued commands.
func (t *thinkers[B]) run(w *arche.World, budget int, ready func(*B) bool, job ecs.Job) {
	t.gather(w, budget, ready)
	t.pool.Run(job, len(t.jobs))
	for k := range t.cmds {
		t.settle(k)
	}
	t.Counted = 0
	for i := range t.counts {
		t.Counted += t.counts[i].n
		t.counts[i].n = 0
	}
	t.Thought = len(t.jobs)
	t.TotalThought += t.Thought
	clear(t.jobs) // drop the component pointers
	t.apply(w)
}

// job returns job i of this frame for worker, with a Commands for its
// agent alone.
func (t *thinkers[B]) job(worker, i int) *thinkJob[B] {
	t.settle(worker)
	j := &t.jobs[i]
	wc := &t.cmds[worker]
	j.agent.Commands = wc.cur
	wc.agent, wc.handed = j.agent.Entity.ID(), true
	return j
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
	wc.filled = append(wc.filled, queuedCommands{agent: wc.agent, cmds: wc.cur})
	wc.cur = new(ecs.Commands) // rare: only agents whose leaves make structural changes
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
	}
	clear(t.queued)
}

// count adds n to worker's count, summed into Counted after the frame.
func (t *thinkers[B]) count(worker, n int) { t.counts[worker].n += n }

// close stops the workers.
func (t *thinkers[B]) close() { t.pool.Close() }

// gather collects the due agents whose brain is ready into t.jobs; beyond
// budget, those due the longest (by Think.Next, then entity ID) go first and
// the rest wait for the next frame.
func (t *thinkers[B]) gather(w *arche.World, budget int, ready func(*B) bool) {
	now, dt := t.clock.Time, t.clock.DT
	t.jobs = t.jobs[:0]
	t.Waiting = 0
	q := t.filter.Query(w)
	for q.Next() {
		brain, th, pos, intent, vel, per, hp, path, rnd, bb := q.Get()
		if !Due(th, now, dt) || !ready(brain) {
			continue
		}
		var store *blackboard.Store
		if bb != nil {
			store = bb.Store
		}
		t.jobs = append(t.jobs, thinkJob[B]{
			agent: Agent{World: w, Grid: t.grid, Clock: t.clock, Entity: q.Entity(), Blackboard: store,
				Position: pos, Intent: intent, Velocity: vel, Perception: per, Health: hp, Path: path, Rand: rnd},
			brain: brain, think: th,
		})
	}
	if budget > 0 && len(t.jobs) > budget {
		slices.SortFunc(t.jobs, func(a, b thinkJob[B]) int {
			if c := cmp.Compare(a.think.Next, b.think.Next); c != 0 {
				return c
			}
			return cmp.Compare(a.agent.Entity.ID(), b.agent.Entity.ID())
		})
		t.Waiting = len(t.jobs) - budget
		clear(t.jobs[budget:])
		t.jobs = t.jobs[:budget]
	}
	if t.grid != nil {
		t.grid.Prepare() // leaves may read the grid's lazy caches from several workers
	}
}

// thought records that a job's agent thought at now: its schedule advances
// and its perception is due again with the next think.
func (j *thinkJob[B]) thought(now float64) {
	advance(j.think, now)
	if j.agent.Perception != nil {
		j.agent.Perception.Fresh = false
	}
}

// advance records a decision at now and schedules the next one an Interval
// after the last scheduled one (DefaultThinkInterval if unset), keeping the
// agent's stagger phase, or an Interval from now if that is already past.
func advance(th *components.Think, now float64) {
	interval := th.Interval
	if interval <= 0 {
		interval = DefaultThinkInterval
	}
	th.Last = now
	th.Next += interval
	if th.Next <= now {
		th.Next = now + interval
	}
}
