package systems

import (
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
	decisionChecks(w, r, d.htns, d.lacks(sysHTN), always)
	decisionChecks(w, r, d.goaps, d.lacks(sysGOAP), func(*components.GOAPPlanner) bool { return true })
	d.htnWhys.begin()
	defer d.htnWhys.end()
	d.goapWhys.begin()
	defer d.goapWhys.end()
	hq := d.htns.Query(w)
	for hq.Next() {
		b, th, _, _ := hq.Get()
		if dom, _ := hr.Resolve(b.Name, b.Domain); dom == nil {
			r.add(CausePlannerDomain, hq.Entity())
		} else if why := d.htnWhy(dom, b, th); why != "" {
			r.addNote(CausePlannerDomainError, hq.Entity(), exampleNote{kind: noteHTNIdle, what: why, pos: r2.Vec{X: b.Run.NoPlanSince, Y: th.Last}})
		} else if b.Run.DomainErrors > 0 {
			r.addNote(CausePlannerDomainError, hq.Entity(), needsNote("its domain failed to plan (ErrDepth, ErrLength or ErrBudget): a recursion without end?"))
		}
	}
	gq := d.goaps.Query(w)
	for gq.Next() {
		b, _, _, _ := gq.Get()
		if dom, _ := gr.Resolve(b.Name, b.Domain); dom == nil {
			r.add(CausePlannerDomain, gq.Entity())
		} else if note := d.goapWhy(dom, b); note != "" {
			r.addNote(CausePlannerDomainError, gq.Entity(), needsNote(note))
		} else if b.Run.DomainErrors > 0 {
			r.addNote(CausePlannerDomainError, gq.Entity(), needsNote(fmt.Sprintf("its goal could not be planned within goap.MaxSteps (%d) actions or the planner's node budget (ErrPlanTooLong or ErrBudget; a plan may exist): split the goal into nearer ones, or raise GOAP.NodeBudget", goap.MaxSteps)))
		}
	}
}

// goapNoPlan returns why an agent that idles without a plan (its last think found
// none) can reach none of its domain's goals that do not hold, when for each the check
// before the search proves no plan exists (goap.ErrUnreachable): the explanation of the
// one of highest priority (goap.Domain.WhyNoPlan). It returns "" for an agent with a
// plan, when some such goal may have a plan (a search decides: none, or cut), or when
// one waits for perception (goap.Domain.AwaitsPerception: a fact declared with
// goap.Builder.Sensed that the state lacks; the agent waits, its domain is not at fault).
func goapNoPlan(d *goap.Domain, b *components.GOAPPlanner) string {
	if b.Run.HasPlan() || b.Run.Status != goap.Failure {
		return ""
	}
	why, best := "", 0.0
	for g := range goap.GoalID(d.Goals()) {
		goal := d.Goal(g)
		if goap.Satisfied(&b.State, goal.Want) {
			continue
		}
		w := d.WhyNoPlan(&b.State, g)
		if w == "" || d.AwaitsPerception(&b.State, g) {
			return ""
		}
		if why == "" || goal.Priority > best {
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

// goapWhy returns the note of a GOAP agent of domain dom that idles with no plan
// (goapNoPlan), or "": worked out once per domain and state (d.goapWhys).
func (d *diagnoser) goapWhy(dom *goap.Domain, b *components.GOAPPlanner) string {
	if b.Run.HasPlan() || b.Run.Status != goap.Failure {
		return ""
	}
	note, ok := d.goapWhys.lookup(dom, &b.State)
	if !ok {
		if why := goapNoPlan(dom, b); why != "" {
			note = "it idles, no plan exists from its GOAPPlanner.State: " + why
		}
		d.goapWhys.store(dom, &b.State, note)
	}
	return note
}
