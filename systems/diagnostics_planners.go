package systems

import (
	"fmt"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
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
	hq := d.htns.Query(w)
	for hq.Next() {
		b, _, _, _ := hq.Get()
		if d, _ := hr.Resolve(b.Name, b.Domain); d == nil {
			r.add(CausePlannerDomain, hq.Entity())
		} else if b.Run.DomainErrors > 0 {
			r.addNote(CausePlannerDomainError, hq.Entity(), needsNote("its domain failed to plan (ErrDepth, ErrLength or ErrBudget): a recursion without end?"))
		}
	}
	gq := d.goaps.Query(w)
	for gq.Next() {
		b, _, _, _ := gq.Get()
		if d, _ := gr.Resolve(b.Name, b.Domain); d == nil {
			r.add(CausePlannerDomain, gq.Entity())
		} else if b.Run.DomainErrors > 0 {
			r.addNote(CausePlannerDomainError, gq.Entity(), needsNote(fmt.Sprintf("its goal could not be planned within goap.MaxSteps (%d) actions or the planner's node budget (ErrPlanTooLong or ErrBudget): split the goal into nearer ones, or raise GOAP.NodeBudget", goap.MaxSteps)))
		}
	}
}
