package debugview

import (
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
)

// hybridPlan returns the HTN plan that a hybrid.HTNAction runs for agent e, for an agent
// without an HTNPlanner or GOAPPlanner (hybridGOAPPlan: a GOAPAction's, for one without
// an HTNAction either): the action's domain and the Run and State its
// run function returns for e (hybrid.HTNAt), found in e's Brain's tree or its
// StateMachine's state trees. Of several such actions, the first whose Run carries out a
// plan, else the first; false without one. It calls the actions' run functions with a
// *systems.Agent view of e (the world must not be locked).
func (v *Viewer) hybridPlan(w *arche.World, e arche.Entity) (*htn.Domain, *htn.Run, *htn.State, bool) {
	return findHybridPlan(v, w, e, hybrid.HTNAt)
}

// planRun is the Run of a hybrid planning action: *htn.Run or *goap.Run.
type planRun interface {
	comparable
	HasPlan() bool
}

// findHybridPlan is hybridPlan and hybridGOAPPlan, for the actions at reports
// (hybrid.HTNAt, hybrid.GOAPAt).
func findHybridPlan[D any, R planRun, S comparable](v *Viewer, w *arche.World, e arche.Entity,
	at func(t *bt.Tree, i int) (D, func(*bt.Context) (R, S), bool)) (dom D, run R, state S, found bool) {
	if w.IsLocked() {
		return dom, run, state, false
	}
	ctx := v.hybridContext(w, e)
	var noRun R
	var noState S
	v.hybridTrees(w, e, func(t *bt.Tree) bool { // true: a running plan found
		for i := range t.Len() {
			d, fn, ok := at(t, i)
			if !ok {
				continue
			}
			r, s := callRun(fn, ctx)
			if r == noRun || s == noState {
				continue
			}
			if !found || r.HasPlan() && !run.HasPlan() {
				dom, run, state, found = d, r, s, true
			}
			if r.HasPlan() {
				return true
			}
		}
		return false
	})
	return dom, run, state, found
}

// hybridContext returns the context the run functions of e's hybrid actions are
// called with: a *systems.Agent view of e, as a tick's.
func (v *Viewer) hybridContext(w *arche.World, e arche.Entity) *bt.Context {
	a := &systems.Agent{World: w, Entity: e, Grid: v.grid}
	if w.Has(e, v.ids.board) {
		a.Blackboard = (*components.Blackboard)(w.Get(e, v.ids.board)).Store
	}
	if w.Has(e, v.ids.pos) {
		a.Position = (*components.Position)(w.Get(e, v.ids.pos))
	}
	if w.Has(e, v.ids.intent) {
		a.Intent = (*components.Intent)(w.Get(e, v.ids.intent))
	}
	if w.Has(e, v.ids.path) {
		a.Path = (*components.Path)(w.Get(e, v.ids.path))
	}
	return &bt.Context{Agent: a, Blackboard: a.Blackboard}
}

// hybridTrees calls look with e's Brain's tree, then its StateMachine's state trees,
// until look returns true.
func (v *Viewer) hybridTrees(w *arche.World, e arche.Entity, look func(t *bt.Tree) bool) {
	if w.Has(e, v.ids.brain) {
		if t := (*components.Brain)(w.Get(e, v.ids.brain)).Tree; t != nil && look(t) {
			return
		}
	}
	if w.Has(e, v.ids.machine) {
		if m := (*components.StateMachine)(w.Get(e, v.ids.machine)).Machine; m != nil {
			for i := 1; i <= m.Len(); i++ {
				if t, ok := m.Activity(m.State(i)).(*bt.Tree); ok && t != nil && look(t) {
					return
				}
			}
		}
	}
}

// hybridGOAPPlan is hybridPlan for a hybrid.GOAPAction (hybrid.GOAPAt), for an agent
// with neither planner nor HTNAction.
func (v *Viewer) hybridGOAPPlan(w *arche.World, e arche.Entity) (*goap.Domain, *goap.Run, *goap.State, bool) {
	return findHybridPlan(v, w, e, hybrid.GOAPAt)
}

// goapRunView is goapView for a Run of domain d kept outside a GOAPPlanner.
func goapRunView(r *goap.Run, d *goap.Domain) runView {
	return goapView(&components.GOAPPlanner{Run: *r}, d)
}

// callRun calls a hybrid action's run function; a panic returns zero values (nils).
func callRun[R, S any](run func(*bt.Context) (R, S), ctx *bt.Context) (r R, s S) {
	defer func() {
		if recover() != nil {
			var noRun R
			var noState S
			r, s = noRun, noState
		}
	}()
	return run(ctx)
}

// htnRunView is htnView for a Run of domain d kept outside an HTNPlanner.
func htnRunView(r *htn.Run, d *htn.Domain) runView {
	return htnView(&components.HTNPlanner{Run: *r}, d)
}
