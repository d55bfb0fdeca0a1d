package goap

// Run is one agent's plan being carried out: plain data to keep in a component (it holds
// no pointer, so it saves as JSON and survives Arche's byte copies). The zero Run has no
// plan: the first [Domain.Tick] makes one.
type Run struct {
	Plan    Plan
	Step    int        // index of the current step in Plan; Plan.Len when done
	Started bool       // the current step's operator has been called
	Start   float64    // simulation time the current step started, seconds
	Memory  [2]float64 // the current step's scratch memory, zeroed when it starts
	Seen    State      // the state at the end of the last think, to notice changes

	Plans    uint32   // plans made
	Failures uint32   // steps that failed or could not start
	Failed   ActionID // the action of the last failure (meaningful once Failures > 0)
	// DomainErrors counts the plannings that found no plan for a goal because a
	// search was cut, not because no plan exists: ErrPlanTooLong (a goal needing
	// more than MaxSteps actions; PlanBest passes over it to a lower goal, and such
	// a planning counts whether or not a lower goal was planned) or ErrBudget
	// (Planner.MaxNodes states generated; PlanBest tries no lower goal past it).
	// systems.Diagnose counts such an agent (planner_domain_error). The check for a
	// goal above a running plan counts both too (the plan goes on, the goal above is
	// not planned). A planning
	// that finds no plan exists (ErrNoPlan, ErrUnreachable) is not counted here;
	// systems.Diagnose counts an agent idle for ErrUnreachable by its own check
	// ([Domain.WhyNoPlan]).
	DomainErrors uint32 `json:",omitempty"`
	Status       Status // the last think's result
}

// Current returns the action of the current step, or -1 without a plan.
func (r *Run) Current() ActionID {
	if r.Step < r.Plan.Len {
		return r.Plan.Steps[r.Step]
	}
	return -1
}

// HasPlan reports whether a plan is being carried out.
func (r *Run) HasPlan() bool { return r.Step < r.Plan.Len }

// maxPlansPerTick bounds the plans one Tick makes (a step that fails at once and a
// replan that picks it again).
const maxPlansPerTick = 2

// Tick advances agent state r by one think, on the agent's believed state s (which it
// updates), planning with p. ctx carries the agent, DT and Time; Tick fills in the rest.
//
// In order:
//  1. The domain's Sense hook (if any) writes the perceived facts into s.
//  2. If s differs from r.Seen (the state at the end of the last think) and a plan is
//     running, the plan is checked: if a goal of higher priority than the plan's now has
//     a plan, that plan replaces it (a search above it that runs out of budget, or is cut
//     at MaxSteps actions, keeps the plan and counts in Run.DomainErrors); else if the remaining steps, simulated from s (the
//     running step's preconditions excepted), no longer reach the plan's goal, the
//     agent replans.
//  3. Without a plan, [Planner.PlanBest] makes one; without a goal to reach, Tick
//     returns Failure.
//  4. A step starts only if its preconditions hold in s (else the agent replans); its
//     operator runs; on Success its effects apply to s and the next step starts in the
//     same think; on Failure the agent replans. A step without an operator succeeds at
//     once.
//
// An abandoned running step gets its action's Halt. At most two plans are made per
// think. Tick returns Running while a plan runs, Success on the think the plan
// completes, Failure when no plan could be made (the agent idles and tries again next
// think). It allocates nothing once p's buffers have grown.
func (d *Domain) Tick(r *Run, s *State, p *Planner, ctx *Context) Status {
	if !d.usable(r) {
		r.drop() // a Run not made by this domain (loaded from bad data): start afresh
	}
	ctx.State, ctx.Action, ctx.Step, ctx.Memory = s, -1, 0, &r.Memory
	if d.sense != nil {
		d.sense(ctx)
	}
	plans := 0
	if r.HasPlan() && *s != r.Seen {
		var alt Plan
		g := &d.goals[r.Plan.Goal]
		err := p.planAbove(d, s, g.Priority, false, &alt)
		if err == nil {
			plans++
			d.abandon(r, ctx)
			r.adopt(&alt)
			ctx.emit(EventReplace, -1, 0)
		}
		if err == ErrBudget || p.cut {
			r.DomainErrors++ // a goal above may have a plan: counted, the plan goes on
		}
		if err != nil && !d.stillReaches(r, s) {
			d.abandon(r, ctx)
			ctx.emit(EventInvalid, -1, 0)
		}
	}
	idle := r.Status == Failure && !r.HasPlan()
	status := d.carryOut(r, s, p, ctx, plans, idle)
	r.Seen, r.Status = *s, status
	return status
}

// carryOut plans if needed and runs steps until one is running, the plan is done, or no
// plan can be made.
func (d *Domain) carryOut(r *Run, s *State, p *Planner, ctx *Context, plans int, idle bool) Status {
	for {
		if !r.HasPlan() {
			if plans >= maxPlansPerTick {
				return Failure
			}
			plans++
			var plan Plan
			err := p.PlanBest(d, s, &plan)
			if err == ErrBudget || p.cut { // cut, not proven impossible (a goal passed over for a lower one too)
				r.DomainErrors++
			}
			if err != nil {
				r.Plan, r.Step, r.Started = Plan{Goal: NoGoal}, 0, false
				if !idle {
					ctx.emit(EventNoPlan, -1, 0)
				}
				return Failure
			}
			r.adopt(&plan)
			ctx.emit(EventPlan, -1, 0)
		}
		id := r.Plan.Steps[r.Step]
		a := &d.actions[id]
		ctx.Action, ctx.Step = id, r.Step
		if !r.Started {
			if !a.applicable(s) {
				r.Failures, r.Failed = r.Failures+1, id
				ctx.emit(EventFailure, id, r.Step)
				r.drop()
				continue
			}
			r.Started, r.Start, r.Memory = true, ctx.Time, [2]float64{}
			ctx.emit(EventStart, id, r.Step)
		}
		ctx.Start = r.Start
		st := Success
		if a.Run != nil {
			st = a.Run(ctx)
		}
		switch st {
		case Running:
			return Running
		case Success:
			a.apply(s)
			ctx.emit(EventSuccess, id, r.Step)
			r.Step++
			r.Started = false
			if r.Step == r.Plan.Len {
				ctx.emit(EventDone, -1, r.Step)
				return Success
			}
		default:
			r.Failures, r.Failed = r.Failures+1, id
			ctx.emit(EventFailure, id, r.Step)
			r.drop()
		}
	}
}

// usable reports whether r's plan can be carried out by d: lengths in range, every step
// an action of d, with steps left a goal of d, and a running action's Start finite.
func (d *Domain) usable(r *Run) bool {
	p := &r.Plan
	if p.Len < 0 || p.Len > MaxSteps || r.Step < 0 || r.Step > p.Len || badStart(r) {
		return false
	}
	if r.Step < p.Len && (p.Goal < 0 || int(p.Goal) >= len(d.goals)) {
		return false
	}
	for _, a := range p.Steps[:p.Len] {
		if a < 0 || int(a) >= len(d.actions) {
			return false
		}
	}
	return true
}

// stillReaches reports whether r's remaining steps, simulated from s, reach its goal.
func (d *Domain) stillReaches(r *Run, s *State) bool {
	sim := *s
	for i := r.Step; i < r.Plan.Len; i++ {
		a := &d.actions[r.Plan.Steps[i]]
		if !(i == r.Step && r.Started) && !a.applicable(&sim) {
			return false
		}
		a.apply(&sim)
	}
	return Satisfied(&sim, d.goals[r.Plan.Goal].Want)
}

// abandon halts r's running step (if any) and drops its plan.
func (d *Domain) abandon(r *Run, ctx *Context) {
	if r.HasPlan() && r.Started {
		id := r.Plan.Steps[r.Step]
		if h := d.actions[id].Halt; h != nil {
			ctx.Action, ctx.Step, ctx.Start = id, r.Step, r.Start
			h(ctx)
		}
		ctx.emit(EventHalt, id, r.Step)
	}
	r.drop()
}

// EventKind is the kind of an [Event].
type EventKind uint8

// Event kinds.
const (
	EventPlan    EventKind = iota // a plan was made (it is in Run.Plan)
	EventReplace                  // a plan for a higher goal replaced the running one
	EventInvalid                  // a change of state broke the running plan: dropped
	EventNoPlan                   // no goal could be planned for (once, not on every think)
	EventStart                    // Action started
	EventSuccess                  // Action succeeded, its effects applied
	EventFailure                  // Action failed, or its preconditions failed at start
	EventHalt                     // Action was abandoned while running
	EventDone                     // the plan completed
)

var eventNames = [...]string{"plan", "replace", "invalid", "no-plan", "start", "success", "failure", "halt", "done"}

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
	Kind   EventKind
	Action ActionID // the action of Start, Success, Failure and Halt; -1 otherwise
	Step   int      // the action's index in the plan
}

func (c *Context) emit(k EventKind, a ActionID, step int) {
	if c.Observe != nil {
		c.Observe(Event{Kind: k, Action: a, Step: step})
	}
}

func (r *Run) drop() {
	r.Plan, r.Step, r.Started = Plan{Goal: NoGoal}, 0, false
}

func (r *Run) adopt(p *Plan) {
	r.Plan, r.Step, r.Started = *p, 0, false
	r.Plans++
}

// Halt abandons r's plan: the running step (if any) gets its action's Halt, and the
// plan is dropped, so the next [Domain.Tick] plans again. ctx carries the agent.
func (d *Domain) Halt(r *Run, s *State, ctx *Context) {
	if !d.usable(r) {
		r.drop()
		return
	}
	ctx.State, ctx.Memory = s, &r.Memory
	d.abandon(r, ctx)
}

// badStart reports whether r's running action started at a time that is NaN or
// infinite.
func badStart(r *Run) bool {
	return r.Started && r.Step < r.Plan.Len && r.Start-r.Start != 0
}
