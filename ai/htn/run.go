package htn

// Run is one agent's plan being carried out: plain data to keep in a component (no
// pointer: it saves as JSON and survives Arche's byte copies). The zero Run has no plan:
// the first [Domain.Tick] makes one.
type Run struct {
	Plan    Plan
	Step    int        // index of the current task in Plan; Plan.Len when done
	Started bool       // the current task's operator has been called
	Start   float64    // simulation time the current task started, seconds
	Memory  [2]float64 // the current task's scratch memory, zeroed when it starts
	Seen    State      // the state at the end of the last think, to notice changes

	Plans    uint32 // plans adopted
	Replaced uint32 // running plans replaced by a better one
	Failures uint32 // tasks that failed or could not start
	Failed   TaskID // the task of the last failure (meaningful once Failures > 0)
	// DomainErrors counts the plannings that failed with a fault of the domain
	// rather than with ErrNoPlan (no method applies): ErrDepth, ErrLength or
	// ErrBudget, a recursion without end or a plan past MaxPlan. Such an agent
	// idles; systems.Diagnose counts it (planner_domain_error).
	DomainErrors uint32
	// NoPlans counts the plannings that found no decomposition (ErrNoPlan: no method
	// of the root applies in the state), every one of them: an agent idle without a
	// plan plans, and fails, on every think. NoPlan is true while the last planning
	// found none and no plan has been adopted since, and NoPlanSince is the simulation
	// time of the first planning of that spell and NoPlanLast that of its latest:
	// [Domain.WhyNoPlan] explains it, and systems.Diagnose counts an agent whose spell
	// has lasted systems.HTNNoPlanSpan (planner_domain_error), for a Run of a
	// components.HTNPlanner up to its last think and for one kept in a component of
	// the program's own (a hybrid.HTNAction's) from NoPlanSince to NoPlanLast.
	NoPlans     uint32  `json:",omitempty"`
	NoPlan      bool    `json:",omitempty"`
	NoPlanSince float64 `json:",omitempty"`
	NoPlanLast  float64 `json:",omitempty"`
	Status      Status  // the last think's result
}

// Current returns the current task, or NoTask without a plan.
func (r *Run) Current() TaskID {
	if r.Step < r.Plan.Len {
		return r.Plan.Tasks[r.Step]
	}
	return NoTask
}

// HasPlan reports whether a plan is being carried out.
func (r *Run) HasPlan() bool { return r.Step < r.Plan.Len }

// maxPlansPerTick bounds the plans one Tick makes.
const maxPlansPerTick = 3

// Tick advances agent state r by one think on the agent's believed state s (which it
// updates), planning with p; ctx carries the agent, DT and Time, Tick fills in the rest.
//
// In order: the domain's sensor (if any) writes the perceived facts into s; if a plan
// runs and a fact it read while planning changed since the last think, the root is
// planned again and the new plan replaces the running one if it is [Better]; without a
// plan, one is made. Then the current task starts if its conditions hold in s (else the
// plan is dropped and the agent replans), its operator runs, and on Success its effects
// apply to s and the next task starts in the same think; on Failure the plan is dropped
// and the agent replans. An abandoned running task gets its Halt. At most three plans
// are made per think.
//
// Tick returns Running while a plan runs, Success on the think the plan completes (the
// next think plans again from the root) and Failure when the root does not decompose.
// An empty plan (the root decomposed through methods without subtasks: "nothing to
// do") runs no task and completes in the think that made it (EventPlan, EventDone).
// It allocates nothing once p has planned with d.
func (d *Domain) Tick(r *Run, s *State, p *Planner, ctx *Context) Status {
	p.use(d)
	if !d.usable(r) {
		r.drop() // a Run not made by this domain (loaded from bad data): start afresh
	}
	ctx.State, ctx.Task, ctx.Step, ctx.Memory = s, NoTask, 0, &r.Memory
	if d.sense != nil {
		d.sense(ctx)
	}
	plans := 0
	if r.HasPlan() && changed(s, &r.Seen)&r.Plan.Reads != 0 {
		plans++
		if p.Plan(d, s, &p.alt) == nil && Better(&p.alt, &r.Plan) {
			d.abandon(r, ctx)
			r.adopt(&p.alt)
			r.Replaced++
			ctx.emit(EventReplace, NoTask, 0)
		}
	}
	idle := r.Status == Failure && !r.HasPlan()
	status := d.carryOut(r, s, p, ctx, plans, idle)
	r.Seen, r.Status = *s, status
	return status
}

// carryOut plans if needed and runs tasks until one is running, the plan is done, or no
// plan can be made (reported once, unless idle: it was already the last think's result).
func (d *Domain) carryOut(r *Run, s *State, p *Planner, ctx *Context, plans int, idle bool) Status {
	for {
		if !r.HasPlan() {
			if plans >= maxPlansPerTick {
				return Failure
			}
			plans++
			if err := p.Plan(d, s, &p.alt); err != nil {
				if err != ErrNoPlan {
					r.DomainErrors++
					r.NoPlan = false
				} else {
					if !r.NoPlan {
						r.NoPlan, r.NoPlanSince = true, ctx.Time
					}
					r.NoPlans, r.NoPlanLast = r.NoPlans+1, ctx.Time
				}
				r.drop()
				if !idle {
					ctx.emit(EventNoPlan, NoTask, 0)
				}
				return Failure
			}
			r.adopt(&p.alt)
			ctx.emit(EventPlan, NoTask, 0)
			if r.Plan.Len == 0 { // a method without subtasks: nothing to do, done at once
				ctx.emit(EventDone, NoTask, 0)
				return Success
			}
		}
		t := r.Plan.Tasks[r.Step]
		pt := &d.tasks[t].primitive
		ctx.Task, ctx.Step = t, r.Step
		if !r.Started {
			if !p.holds(pt.If, s) || !p.holds(pt.While, s) {
				r.Failures, r.Failed = r.Failures+1, t
				ctx.emit(EventFailure, t, r.Step)
				r.drop()
				continue
			}
			r.Started, r.Start, r.Memory = true, ctx.Time, [2]float64{}
			ctx.emit(EventStart, t, r.Step)
		} else if !p.holds(pt.While, s) {
			r.Failures, r.Failed = r.Failures+1, t
			d.abandon(r, ctx)
			ctx.emit(EventFailure, t, ctx.Step)
			continue
		}
		ctx.Start = r.Start
		st := Success
		if pt.Run != nil {
			st = pt.Run(ctx)
		}
		switch st {
		case Running:
			return Running
		case Success:
			r.Started = false
			if !p.apply(pt.Effects, s) {
				r.Failures, r.Failed = r.Failures+1, t
				ctx.emit(EventFailure, t, r.Step)
				r.drop()
				continue
			}
			ctx.emit(EventSuccess, t, r.Step)
			r.Step++
			if r.Step == r.Plan.Len {
				ctx.emit(EventDone, NoTask, r.Step)
				return Success
			}
		default:
			r.Failures, r.Failed = r.Failures+1, t
			ctx.emit(EventFailure, t, r.Step)
			r.drop()
		}
	}
}

// usable reports whether r's plan can be carried out by d: lengths in range, every
// task a primitive task of d and a running task's Start finite.
func (d *Domain) usable(r *Run) bool {
	p := &r.Plan
	if p.Len < 0 || p.Len > MaxPlan || p.MTRLen < 0 || p.MTRLen > MaxMTR || r.Step < 0 || r.Step > p.Len || badStart(r) {
		return false
	}
	for _, t := range p.Tasks[:p.Len] {
		if t < 0 || int(t) >= len(d.tasks) || d.tasks[t].compound {
			return false
		}
	}
	return true
}

// badStart reports whether r's running task started at a time that is NaN or
// infinite.
func badStart(r *Run) bool {
	return r.Started && r.Step < r.Plan.Len && r.Start-r.Start != 0
}

// changed returns the facts that differ between a and b, one bit each.
func changed(a, b *State) uint64 {
	var m uint64
	for i := range a {
		if a[i] != b[i] {
			m |= 1 << i
		}
	}
	return m
}

func (d *Domain) abandon(r *Run, ctx *Context) {
	if r.HasPlan() && r.Started {
		t := r.Plan.Tasks[r.Step]
		if h := d.tasks[t].primitive.Halt; h != nil {
			ctx.Task, ctx.Step, ctx.Start = t, r.Step, r.Start
			h(ctx)
		}
		ctx.emit(EventHalt, t, r.Step)
	}
	r.drop()
}

// EventKind is the kind of an [Event].
type EventKind uint8

// Event kinds.
const (
	EventPlan    EventKind = iota // a plan was adopted (it is in Run.Plan)
	EventReplace                  // a better plan replaced the running one (it is in Run.Plan)
	EventNoPlan                   // the root did not decompose (once, not on every think)
	EventStart                    // Task started
	EventSuccess                  // Task succeeded, its effects applied
	EventFailure                  // Task failed: its operator, its conditions at start or an effect script
	EventHalt                     // Task was abandoned while running
	EventDone                     // the plan completed
)

var eventNames = [...]string{"plan", "replace", "no-plan", "start", "success", "failure", "halt", "done"}

// String returns the kind's name ("plan", "start", ...).
func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return "event?"
}

// Event is a transition of a [Run], reported to Context.Observe: a log of transitions,
// not of thinks.
type Event struct {
	Kind EventKind
	Task TaskID // the task of Start, Success, Failure and Halt; NoTask otherwise
	Step int    // the task's index in the plan
}

func (c *Context) emit(k EventKind, t TaskID, step int) {
	if c.Observe != nil {
		c.Observe(Event{Kind: k, Task: t, Step: step})
	}
}

func (r *Run) drop() {
	r.Plan, r.Step, r.Started = Plan{}, 0, false
}

func (r *Run) adopt(p *Plan) {
	r.Plan, r.Step, r.Started = *p, 0, false
	r.Plans++
	r.NoPlan = false
}

// Halt abandons r's plan: the running task (if any) gets its Halt, and the plan is
// dropped, so the next [Domain.Tick] plans from the root. ctx carries the agent.
func (d *Domain) Halt(r *Run, s *State, ctx *Context) {
	if !d.usable(r) {
		r.drop()
		return
	}
	ctx.State, ctx.Memory = s, &r.Memory
	d.abandon(r, ctx)
}
