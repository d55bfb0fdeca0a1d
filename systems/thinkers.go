package systems

import (
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// thinkers gathers, for a decision system, the agents with a brain of type B
// (a behavior tree, a utility reasoner, a state machine) whose think time is
// due this frame (see [Due]), as [Agent] views. With a budget it takes at
// most that many, and the next frame starts where this one stopped (in query
// order), so a spike of due agents is spread out and nobody starves.
type thinkers[B any] struct {
	Waiting int // agents due in the last frame but left for the next by the budget

	clock  *ecs.Clock
	grid   *grid.Grid
	filter *generic.Filter9[B, components.Think, components.Position, components.Intent,
		components.Velocity, components.Perception, components.Health, components.Path, components.Rand]
	jobs   []thinkJob[B]
	cursor int
}

// thinkJob is one agent due to think: its view and its brain and cadence.
type thinkJob[B any] struct {
	agent Agent
	brain *B
	think *components.Think
}

// init builds the filter; the grid resource is optional.
func (t *thinkers[B]) init(w *arche.World) {
	t.clock = ecs.ClockOf(w)
	t.grid = ecs.Resource[grid.Grid](w)
	t.filter = generic.NewFilter9[B, components.Think, components.Position, components.Intent,
		components.Velocity, components.Perception, components.Health, components.Path, components.Rand]().
		Optional(generic.T[components.Velocity](), generic.T[components.Perception](), generic.T[components.Health](),
			generic.T[components.Path](), generic.T[components.Rand]())
}

// gather returns the due agents whose brain is ready (set up), at most
// budget of them (0: no limit), each with cmds as its Commands. The views
// hold component pointers: release them with done after the frame's work.
func (t *thinkers[B]) gather(w *arche.World, budget int, ready func(*B) bool, cmds *ecs.Commands) []thinkJob[B] {
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
			brain, th, pos, intent, vel, per, hp, path, rnd := q.Get()
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
			t.jobs = append(t.jobs, thinkJob[B]{
				agent: Agent{World: w, Grid: t.grid, Clock: t.clock, Commands: cmds, Entity: q.Entity(),
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
	return t.jobs
}

// done drops the component pointers gathered this frame.
func (t *thinkers[B]) done() { clear(t.jobs) }

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
