package systems

import (
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
// its workers, and applies the commands leaves queued, in agent order. With a
// budget it takes at most that many, and the next frame starts where this one
// stopped (in query order), so a spike of due agents is spread out and nobody
// starves.
type thinkers[B any] struct {
	Thought      int // agents that thought in the last frame
	Waiting      int // agents due in the last frame but left for the next by the budget
	TotalThought int // agents that thought since init
	Counted      int // the sum of the workers' counts in the last frame (see count)

	pool   *ecs.Workers
	cmds   []ecs.Commands // per worker
	counts []padded       // per worker
	clock  *ecs.Clock
	grid   *grid.Grid
	filter *generic.Filter10[B, components.Think, components.Position, components.Intent,
		components.Velocity, components.Perception, components.Health, components.Path, components.Rand,
		components.Blackboard]
	jobs   []thinkJob[B]
	cursor int
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
	t.cmds = make([]ecs.Commands, n)
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
	t.Counted = 0
	for i := range t.counts {
		t.Counted += t.counts[i].n
		t.counts[i].n = 0
	}
	t.Thought = len(t.jobs)
	t.TotalThought += t.Thought
	clear(t.jobs) // drop the component pointers
	for i := range t.cmds {
		t.cmds[i].Apply(w)
	}
}

// job returns job i of this frame for worker, with that worker's Commands.
func (t *thinkers[B]) job(worker, i int) *thinkJob[B] {
	j := &t.jobs[i]
	j.agent.Commands = &t.cmds[worker]
	return j
}

// count adds n to worker's count, summed into Counted after the frame.
func (t *thinkers[B]) count(worker, n int) { t.counts[worker].n += n }

// close stops the workers.
func (t *thinkers[B]) close() { t.pool.Close() }

// gather collects the due agents whose brain is ready into t.jobs.
func (t *thinkers[B]) gather(w *arche.World, budget int, ready func(*B) bool) {
	now, dt := t.clock.Time, t.clock.DT
	if budget <= 0 {
		budget = int(^uint(0) >> 1)
	}
	t.jobs = t.jobs[:0]
	t.Waiting = 0
	next := -1 // query index of the first agent left waiting
	// from the cursor to the end, then from the start to the cursor
	for pass := range 2 {
		idx := 0
		q := t.filter.Query(w)
		for q.Next() {
			inPass := (pass == 0 && idx >= t.cursor) || (pass == 1 && idx < t.cursor)
			idx++
			if !inPass {
				continue
			}
			brain, th, pos, intent, vel, per, hp, path, rnd, bb := q.Get()
			if !Due(th, now, dt) || !ready(brain) {
				continue
			}
			if len(t.jobs) >= budget {
				if next < 0 {
					next = idx - 1
				}
				t.Waiting++
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
		if t.cursor == 0 {
			break
		}
	}
	t.cursor = max(next, 0)
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
