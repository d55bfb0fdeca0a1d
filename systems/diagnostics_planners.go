package systems

import (
	"math"

	"fmt"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// plannerChecks counts the HTN and GOAP planners as decision models (a missing Think,
// Position or Intent; no HTN or GOAP system) and those whose domain (Name, or Domain
// with no Name) the world's registry does not hold (CausePlannerDomain).
func plannerChecks(w *arche.World, r *Report, d *diagnoser) {
	hr := ecs.Resource[htn.Registry](w)
	gr := ecs.Resource[goap.Registry](w)
	always := func(*components.HTNPlanner) bool { return true }
	decisionChecks(w, r, d.htns, d.lacks(sysHTN), always, 0, math.MaxInt)
	decisionChecks(w, r, d.goaps, d.lacks(sysGOAP), func(*components.GOAPPlanner) bool { return true }, 0, math.MaxInt)
	d.htnWhys.begin()
	defer d.htnWhys.end()
	d.goapWhys.begin()
	defer d.goapWhys.end()
	d.goapAbove.begin()
	defer d.goapAbove.end()
	d.goapOwnWhys.begin()
	defer d.goapOwnWhys.end()
	d.goapOwnAbove.begin()
	defer d.goapOwnAbove.end()
	d.hybrid.begin()
	d.ownStates.learn(w)
	hybridRuns := d.ownStates.hasRuns() // then an agent counted here is not counted again for a Run of its own (htn or goap)
	hq := d.htns.Query(w)
	for hq.Next() {
		b, th, _, _ := hq.Get()
		if dom, _ := hr.Resolve(b.Name, b.Domain); dom == nil {
			r.add(CausePlannerDomain, hq.Entity())
			continue
		} else if why := d.htnWhy(dom, b, th); why != "" {
			r.addNote(CausePlannerDomainError, hq.Entity(), exampleNote{kind: noteHTNIdle, what: why, pos: r2.Vec{X: b.Run.NoPlanSince, Y: th.Last}})
		} else if b.Run.DomainErrors > 0 {
			r.addNote(CausePlannerDomainError, hq.Entity(), needsNote("its domain failed to plan (ErrDepth, ErrLength or ErrBudget): a recursion without end?"))
		} else {
			continue
		}
		if hybridRuns {
			d.hybrid.count(hq.Entity())
		}
	}
	gq := d.goaps.Query(w)
	for gq.Next() {
		b, _, _, _ := gq.Get()
		if dom, _ := gr.Resolve(b.Name, b.Domain); dom == nil {
			r.add(CausePlannerDomain, gq.Entity())
		} else if note := d.goapWhy(dom, &b.Run, &b.State, planners); note != "" {
			r.addNote(CausePlannerDomainError, gq.Entity(), needsNote(note))
		} else if b.Run.DomainErrors > 0 {
			r.addNote(CausePlannerDomainError, gq.Entity(), needsNote(fmt.Sprintf("its goal could not be planned within goap.MaxSteps (%d) actions or the planner's node budget (ErrPlanTooLong or ErrBudget; a plan may exist): split the goal into nearer ones, or raise GOAP.NodeBudget", goap.MaxSteps)))
		} else {
			continue
		}
		if hybridRuns {
			d.hybrid.count(gq.Entity())
		}
	}
	if hybridRuns {
		d.ownStates.checkRuns(w, r, d)     // the plans of hybrid.HTNActions
		d.ownStates.checkGOAPRuns(w, r, d) // and of hybrid.GOAPActions
	}
}

// goapNoPlan returns why an agent that idles without a plan (its last think found
// none) can reach none of its domain's goals that do not hold, when for each the check
// before the search proves no plan exists (goap.ErrUnreachable, explained by
// goap.Domain.WhyNoPlan) or, where that check lets the goal through, exploring every
// state the actions reach shows none satisfies it and no sensed fact can open a way
// (the search ends in plain goap.ErrNoPlan on every planning: goap.Domain.WhyNeverReached,
// bounded by goap.NeverReachedStates): the explanation of the one of highest priority.
// It returns "" for an agent with a plan, when some such goal may have a plan (past the
// bound, a plan longer than goap.MaxSteps, a sensed fact it depends on), or when one
// waits for perception (goap.Domain.AwaitsPerception: a fact declared with
// goap.Builder.Sensed that the state lacks; the agent waits, its domain is not at fault).
// The exploration runs only once the cheap checks of every goal found nothing to clear
// the agent.
func goapNoPlan(d *goap.Domain, r *goap.Run, s *goap.State) string {
	if r.HasPlan() || r.Status != goap.Failure {
		return ""
	}
	why, best := "", 0.0
	var maybe []goap.GoalID // goals the relaxation lets through: explored after the cheap checks
	for g := range goap.GoalID(d.Goals()) {
		goal := d.Goal(g)
		if goap.Satisfied(s, goal.Want) {
			continue
		}
		w := d.WhyNoPlan(s, g)
		if w == "" {
			maybe = append(maybe, g)
			continue
		}
		if d.AwaitsPerception(s, g) {
			return ""
		}
		if why == "" || goal.Priority > best {
			why, best = w, goal.Priority
		}
	}
	for _, g := range maybe {
		w := d.WhyNeverReached(s, g)
		if w == "" {
			return ""
		}
		if goal := d.Goal(g); why == "" || goal.Priority > best {
			why, best = w, goal.Priority
		}
	}
	return why
}

// htnWhy returns htnNoPlan's explanation for an HTN agent of domain dom, "" when it is
// not idle past HTNNoPlanSpan or its root now decomposes: htn.Domain.WhyNoPlan is
// worked out once per domain and state (d.htnWhys).
func (d *diagnoser) htnWhy(dom *htn.Domain, b *components.HTNPlanner, th *components.Think) string {
	if !htnIdles(b, th) {
		return ""
	}
	why, ok := d.htnWhys.lookup(dom, &b.State)
	if !ok {
		why = dom.WhyNoPlan(&b.State)
		d.htnWhys.store(dom, &b.State, why)
	}
	return why
}

// goapNotes is where a GOAP Run and State are kept, for goapWhy's notes: a
// GOAPPlanner's (planners) or a hybrid.GOAPAction's (actions, a Run in a component of
// the program's own), each with its own caches (the notes differ).
type goapNotes uint8

const (
	planners goapNotes = iota
	actions
)

// goapWhy returns the note of a GOAP agent of domain dom, Run r and believed State s
// that idles with no plan (goapNoPlan), or that carries out a plan below a goal with
// none (goapAboveWhy), or "": worked out once per domain and state (d.goapWhys, or
// d.goapOwnWhys for a hybrid.GOAPAction's Run).
func (d *diagnoser) goapWhy(dom *goap.Domain, r *goap.Run, s *goap.State, of goapNotes) string {
	if r.HasPlan() {
		return d.goapAboveWhy(dom, r, s, of)
	}
	if r.Status != goap.Failure {
		return ""
	}
	whys, from := &d.goapWhys, "it idles, no plan exists from its GOAPPlanner.State: "
	if of == actions {
		whys, from = &d.goapOwnWhys, "the action fails (goap.Run.Status), no plan exists from the goap.State its run function returns: "
	}
	note, ok := whys.lookup(dom, s)
	if !ok {
		if why := goapNoPlan(dom, r, s); why != "" {
			note = from + why
		}
		whys.store(dom, s, note)
	}
	return note
}

// goapRunKey is what goapAbove's note depends on: the believed state and the goal of
// the running plan.
type goapRunKey struct {
	state goap.State
	goal  goap.GoalID
}

// goapAboveWhy returns the note of a GOAP agent of domain dom that runs a plan while a
// goal of higher priority that does not hold can never be planned (goapAbove), or "":
// worked out once per domain, state and plan goal (d.goapAbove, or d.goapOwnAbove).
func (d *diagnoser) goapAboveWhy(dom *goap.Domain, r *goap.Run, s *goap.State, of goapNotes) string {
	key := goapRunKey{*s, r.Plan.Goal}
	above, from := &d.goapAbove, "its GOAPPlanner.State"
	if of == actions {
		above, from = &d.goapOwnAbove, "the goap.State its run function returns"
	}
	note, ok := above.lookup(dom, &key)
	if !ok {
		note = goapAbove(dom, r, s, from)
		above.store(dom, &key, note)
	}
	return note
}

// goapAbove returns why an agent that carries out a plan for one goal can reach no plan
// for a goal of higher priority that does not hold (or of the same priority and declared
// before the plan's goal: PlanBest tries it first), when the check before the search
// proves none exists (goap.ErrUnreachable) and it does not wait for perception
// (goap.Domain.AwaitsPerception), or, where that check lets the goal through, no state
// the actions reach satisfies it and no sensed fact can open a way (its search ends in
// plain goap.ErrNoPlan: goap.Domain.WhyNeverReached, bounded by
// goap.NeverReachedStates): the explanation of the highest such goal
// (goap.Domain.WhyNoPlan or WhyNeverReached). goap.Planner.PlanBest passes over such a goal to a lower one,
// so the agent is busy, not idle, while what it should do first (eat, flee) is out of
// reach for good: a misspelt fact in an action's precondition, an effect left out.
// It returns "" when no such goal is above the plan's.
func goapAbove(dom *goap.Domain, r *goap.Run, s *goap.State, from string) string {
	pg := r.Plan.Goal
	if pg < 0 || int(pg) >= dom.Goals() {
		return ""
	}
	below := dom.Goal(pg)
	why, best, name, tie := "", 0.0, "", false
	for g := range goap.GoalID(dom.Goals()) {
		goal := dom.Goal(g)
		// PlanBest tries the goals by priority, those of one priority in the order
		// declared: a goal of the plan's priority declared before its goal is passed
		// over as well.
		if goal.Priority < below.Priority || goal.Priority == below.Priority && g >= pg || goap.Satisfied(s, goal.Want) {
			continue
		}
		if why != "" && goal.Priority <= best {
			continue
		}
		w := dom.WhyNoPlan(s, g)
		if w == "" {
			w = dom.WhyNeverReached(s, g) // the search ends in plain ErrNoPlan?
		} else if dom.AwaitsPerception(s, g) {
			continue
		}
		if w == "" {
			continue
		}
		why, best, name, tie = w, goal.Priority, goal.Name, goal.Priority == below.Priority
	}
	if why == "" {
		return ""
	}
	rank := "of higher priority"
	if tie {
		rank = "of the same priority and declared before it (PlanBest tries it first)"
	}
	return fmt.Sprintf("it carries out a plan for goal %q while goal %q, %s, has no plan from %s: %s", below.Name, name, rank, from, why)
}
