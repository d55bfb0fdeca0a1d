package systems

import (
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// The checks of the plans and choices that hybrid nodes run inside an agent's trees
// (a hybrid.HTNAction, a hybrid.UtilitySelector, in a Brain's tree or in a state
// machine state's tree): their htn.Run and utility.State sit in components of the
// program's own, found the way ownStateChecks finds the States (internal/fieldscan,
// learnt once per component type), so a check costs, per agent, only the agents
// holding such a component, and nothing is added to a tick. Only for an agent found
// at fault does Diagnose call the agent's hybrid nodes' run and state functions
// (hybrid.HTNAt, hybrid.SelectorAt) with the agent's view, to learn which node runs
// the Run or State: the domain that explains the plan's failure, and the tree and
// state the note names.

// hybridIdles reports whether the htn.Run of a hybrid.HTNAction (kept in a component
// of the program's own) has found no decomposition on every planning for
// HTNNoPlanSpan or longer: from NoPlanSince to NoPlanLast, the times the action's
// ticks gave it (no Think tells when the action last ticked).
func hybridIdles(r *htn.Run) bool {
	return !r.HasPlan() && r.NoPlan && r.NoPlanLast-r.NoPlanSince >= HTNNoPlanSpan
}

// ownRunHit is an agent's htn.Run found idle: the component (index in
// ownStateChecks.comps) and the field (index in its runs).
type ownRunHit struct {
	e           arche.Entity
	comp, field int32
}

// checkRuns counts under CausePlannerDomainError the agents whose htn.Run in a
// component of the program's own has found no decomposition for HTNNoPlanSpan or
// longer (hybridIdles), once an agent (one plannerChecks counted for its
// HTNPlanner is not counted again). When one of the agent's hybrid.HTNActions runs
// the Run, its domain explains the failure from the State the node pairs with it
// (htn.Domain.WhyNoPlan, worked out once per domain and state): a root that now
// decomposes is not counted, as for an HTNPlanner. A Run no node of the agent's
// trees runs (the program's own planner code) is counted with a note that cannot
// explain it.
func (c *ownStateChecks) checkRuns(w *arche.World, r *Report, d *diagnoser) {
	c.learn(w)
	c.runHits = c.runHits[:0]
	for k := range c.comps {
		oc := &c.comps[k]
		if len(oc.runs) == 0 {
			continue
		}
		q := w.Query(&oc.mask)
		for q.Next() {
			p := q.Get(oc.id)
			for j := range oc.runs {
				if hybridIdles((*htn.Run)(unsafe.Add(p, oc.runs[j].Off))) {
					c.runHits = append(c.runHits, ownRunHit{e: q.Entity(), comp: int32(k), field: int32(j)})
				}
			}
		}
	}
	for _, h := range c.runHits {
		if d.hybrid.counted(h.e) {
			continue
		}
		oc := &c.comps[h.comp]
		f := &oc.runs[h.field]
		run := (*htn.Run)(unsafe.Add(w.Get(h.e, oc.id), f.Off))
		n := exampleNote{kind: noteHybridHTN, then: f.Name, pos: r2.Vec{X: run.NoPlanSince, Y: run.NoPlanLast}}
		if at, ok := d.hybrid.find(w, d, h.e, unsafe.Pointer(run), kindHTN); ok {
			why, known := d.htnWhys.lookup(at.dom, at.hstate)
			if !known {
				why = at.dom.WhyNoPlan(at.hstate)
				d.htnWhys.store(at.dom, at.hstate, why)
			}
			if why == "" { // its root decomposes now: the next tick plans
				continue
			}
			n.what, n.tree, n.node, n.machine, n.state = why, at.tree, at.node, at.machine, at.state
		}
		d.hybrid.count(h.e)
		r.addNote(CausePlannerDomainError, h.e, n)
	}
}

// goapDomainErrors is the note of a goap.Run of a hybrid.GOAPAction whose searches
// were cut, as a GOAPPlanner's.
var goapDomainErrors = fmt.Sprintf("its goal could not be planned within goap.MaxSteps (%d) actions or the planner's node budget "+
	"(goap.Run.DomainErrors: ErrPlanTooLong or ErrBudget; a plan may exist): split the goal into nearer ones", goap.MaxSteps)

// checkGOAPRuns counts under CausePlannerDomainError, as plannerChecks counts a
// GOAPPlanner, the agents whose goap.Run in a component of the program's own is run
// by one of their hybrid.GOAPActions and failed without a plan while no goal that
// does not hold can be planned from the State the action pairs with it, or carries
// out a plan below a goal that can never be planned (goapWhy), or whose searches were
// cut (Run.DomainErrors > 0), once an agent. Only the Runs that may be at fault (a
// plan, Status Failure, DomainErrors) cost a look-up of the action (hybridNodes.find),
// whose domain and State the notes need; a Run no GOAPAction of the agent's trees runs
// is counted only for DomainErrors (nothing else tells its domain).
func (c *ownStateChecks) checkGOAPRuns(w *arche.World, r *Report, d *diagnoser) {
	c.runHits = c.runHits[:0]
	for k := range c.comps {
		oc := &c.comps[k]
		if len(oc.goapRuns) == 0 {
			continue
		}
		q := w.Query(&oc.mask)
		for q.Next() {
			p := q.Get(oc.id)
			for j := range oc.goapRuns {
				if run := (*goap.Run)(unsafe.Add(p, oc.goapRuns[j].Off)); run.HasPlan() || run.Status == goap.Failure || run.DomainErrors > 0 {
					c.runHits = append(c.runHits, ownRunHit{e: q.Entity(), comp: int32(k), field: int32(j)})
				}
			}
		}
	}
	for _, h := range c.runHits {
		if d.hybrid.counted(h.e) {
			continue
		}
		oc := &c.comps[h.comp]
		f := &oc.goapRuns[h.field]
		run := (*goap.Run)(unsafe.Add(w.Get(h.e, oc.id), f.Off))
		n := exampleNote{kind: noteHybridGOAP, then: f.Name}
		at, found := d.hybrid.find(w, d, h.e, unsafe.Pointer(run), kindGOAP)
		if found {
			n.what = d.goapWhy(at.gdom, run, at.gstate, actions)
			n.tree, n.node, n.machine, n.state = at.tree, at.node, at.machine, at.state
		}
		if n.what == "" && run.DomainErrors > 0 {
			n.what = goapDomainErrors
		}
		if n.what == "" {
			continue
		}
		d.hybrid.count(h.e)
		r.addNote(CausePlannerDomainError, h.e, n)
	}
}

// hybridKind is which hybrid node hybridNodes.find looks for.
type hybridKind uint8

const (
	kindHTN    hybridKind = iota // a hybrid.HTNAction running an htn.Run
	kindGOAP                     // a hybrid.GOAPAction running a goap.Run
	kindChoice                   // a hybrid.UtilitySelector deciding with a utility.State
)

// hybridNodes finds which hybrid node of an agent's trees runs a given htn.Run or
// utility.State, and keeps the entities counted under CausePlannerDomainError in
// this check (so an agent is counted once). The hybrid nodes of each tree met are
// learnt once and kept while the tree is in use.
type hybridNodes struct {
	trees map[*bt.Tree][]int32      // the HTNAction, GOAPAction and UtilitySelector nodes of each tree met (forgotten past maxHybridTrees)
	done  map[arche.Entity]struct{} // counted under CausePlannerDomainError in this check
	view  Agent                     // the agent view handed to the nodes' functions
	ctx   bt.Context                // and the context (here, not on find's stack: it escapes to them)
}

// maxHybridTrees bounds the trees whose hybrid nodes hybridNodes keeps (trees
// rebuilt by hot reloads are not kept alive for good).
const maxHybridTrees = 256

// hybridAt is the hybrid node found running a Run or State: the tree, the node's
// index, the machine and state whose tree it is (nil machine: the Brain's tree), for
// an HTNAction or a GOAPAction its domain and the believed state its run function
// pairs with the Run, for a UtilitySelector its reasoner.
type hybridAt struct {
	tree    *bt.Tree
	node    int
	machine *fsm.Machine
	state   fsm.StateID
	dom     *htn.Domain
	hstate  *htn.State
	gdom    *goap.Domain // a GOAPAction's
	gstate  *goap.State

	reasoner *utility.Reasoner // a UtilitySelector's
}

// begin starts plannerChecks: no agent counted yet.
func (h *hybridNodes) begin() { clear(h.done) }

func (h *hybridNodes) counted(e arche.Entity) bool {
	_, ok := h.done[e]
	return ok
}

func (h *hybridNodes) count(e arche.Entity) {
	if h.done == nil {
		h.done = map[arche.Entity]struct{}{}
	}
	h.done[e] = struct{}{}
}

// nodes returns the hybrid nodes of t.
func (h *hybridNodes) nodes(t *bt.Tree) []int32 {
	ns, ok := h.trees[t]
	if !ok {
		for i := range t.Len() {
			_, _, isPlan := hybrid.HTNAt(t, i)
			_, _, isGOAP := hybrid.GOAPAt(t, i)
			_, _, isChoice := hybrid.SelectorAt(t, i)
			if isPlan || isGOAP || isChoice {
				ns = append(ns, int32(i))
			}
		}
		if h.trees == nil || len(h.trees) >= maxHybridTrees {
			h.trees = map[*bt.Tree][]int32{}
		}
		h.trees[t] = ns
	}
	return ns
}

// find returns the hybrid node of e's trees (its Brain's, its StateMachine's state
// trees) of the kind asked whose run function (an HTNAction's, a GOAPAction's) or
// state function (a UtilitySelector's) returns at, calling them with e's view as a
// tick would; a function that panics on it is taken as not returning at. w must not
// be locked.
func (h *hybridNodes) find(w *arche.World, d *diagnoser, e arche.Entity, at unsafe.Pointer, kind hybridKind) (hybridAt, bool) {
	h.fill(w, d, e)
	h.ctx = bt.Context{Agent: &h.view, Blackboard: h.view.Blackboard}
	if h.view.Clock != nil {
		h.ctx.Time = h.view.Clock.Time
	}
	ctx := &h.ctx
	defer func() { h.view, h.ctx = Agent{}, bt.Context{} }() // keeps no component pointer
	if id := arche.ComponentID[components.Brain](w); w.Has(e, id) {
		if t := (*components.Brain)(w.Get(e, id)).Tree; t != nil {
			if found, ok := h.inTree(t, ctx, at, kind); ok {
				return found, true
			}
		}
	}
	if id := arche.ComponentID[components.StateMachine](w); w.Has(e, id) {
		if m := (*components.StateMachine)(w.Get(e, id)).Machine; m != nil {
			for i := 1; i <= m.Len(); i++ {
				s := m.State(i)
				t, ok := m.Activity(s).(*bt.Tree)
				if !ok || t == nil {
					continue
				}
				if found, ok := h.inTree(t, ctx, at, kind); ok {
					found.machine, found.state = m, s
					return found, true
				}
			}
		}
	}
	return hybridAt{}, false
}

// inTree returns the hybrid node of t that runs at.
func (h *hybridNodes) inTree(t *bt.Tree, ctx *bt.Context, at unsafe.Pointer, kind hybridKind) (hybridAt, bool) {
	for _, i := range h.nodes(t) {
		switch kind {
		case kindHTN:
			if dom, run, ok := hybrid.HTNAt(t, int(i)); ok {
				if r, s := callRun(run, ctx); r != nil && s != nil && unsafe.Pointer(r) == at {
					return hybridAt{tree: t, node: int(i), dom: dom, hstate: s}, true
				}
			}
			continue
		case kindGOAP:
			if dom, run, ok := hybrid.GOAPAt(t, int(i)); ok {
				if r, s := callGOAPRun(run, ctx); r != nil && s != nil && unsafe.Pointer(r) == at {
					return hybridAt{tree: t, node: int(i), gdom: dom, gstate: s}, true
				}
			}
			continue
		}
		if rs, state, ok := hybrid.SelectorAt(t, int(i)); ok {
			if s := callState(state, ctx); s != nil && unsafe.Pointer(s) == at {
				return hybridAt{tree: t, node: int(i), reasoner: rs}, true
			}
		}
	}
	return hybridAt{}, false
}

// fill makes h.view e's view, as the decision systems hand it to leaves.
func (h *hybridNodes) fill(w *arche.World, d *diagnoser, e arche.Entity) {
	a := &h.view
	*a = Agent{World: w, Grid: d.grid, Clock: ecs.Resource[ecs.Clock](w), Entity: e}
	if bb := getOf[components.Blackboard](w, e); bb != nil {
		a.Blackboard = bb.Store
	}
	a.Position = getOf[components.Position](w, e)
	a.Velocity = getOf[components.Velocity](w, e)
	a.Intent = getOf[components.Intent](w, e)
	a.Perception = getOf[components.Perception](w, e)
	a.Health = getOf[components.Health](w, e)
	a.Path = getOf[components.Path](w, e)
	a.Rand = getOf[components.Rand](w, e)
}

// getOf returns e's component T, nil if it has none.
func getOf[T any](w *arche.World, e arche.Entity) *T {
	id := arche.ComponentID[T](w)
	if !w.Has(e, id) {
		return nil
	}
	return (*T)(w.Get(e, id))
}

// callRun calls an HTNAction's run function; a panic returns nils.
func callRun(run func(*bt.Context) (*htn.Run, *htn.State), ctx *bt.Context) (r *htn.Run, s *htn.State) {
	defer func() {
		if recover() != nil {
			r, s = nil, nil
		}
	}()
	return run(ctx)
}

// callGOAPRun calls a GOAPAction's run function; a panic returns nils.
func callGOAPRun(run func(*bt.Context) (*goap.Run, *goap.State), ctx *bt.Context) (r *goap.Run, s *goap.State) {
	defer func() {
		if recover() != nil {
			r, s = nil, nil
		}
	}()
	return run(ctx)
}

// callState calls a UtilitySelector's state function; a panic returns nil.
func callState(state func(*bt.Context) (*utility.State, utility.Source), ctx *bt.Context) (s *utility.State) {
	defer func() {
		if recover() != nil {
			s = nil
		}
	}()
	s, _ = state(ctx)
	return s
}

// appendHybridWhere writes which hybrid node runs the plan or choice of note n, and
// where: "run by hybrid.HTNAction "Gather" in tree "work" of state "Awake/Work"".
func appendHybridWhere(b *strings.Builder, n *exampleNote, node string) {
	if n.tree == nil {
		return
	}
	b.WriteString(", run by hybrid.")
	b.WriteString(node)
	b.WriteString(" ")
	b.WriteString(strconv.Quote(n.tree.NodeName(n.node)))
	b.WriteString(" in tree ")
	b.WriteString(strconv.Quote(n.tree.Name()))
	if n.machine != nil {
		b.WriteString(" of state ")
		b.WriteString(strconv.Quote(n.machine.FullName(n.state)))
		b.WriteString(" (machine ")
		b.WriteString(strconv.Quote(n.machine.MachineName()))
		b.WriteString(")")
	} else {
		b.WriteString(" (its Brain)")
	}
}

// appendHybridHTN writes the note of CausePlannerDomainError for an htn.Run kept in a
// component of the program's own (noteHybridHTN).
func appendHybridHTN(b *strings.Builder, n *exampleNote) {
	b.WriteString(", its htn.Run ")
	b.WriteString(n.then)
	appendHybridWhere(b, n, "HTNAction")
	b.WriteString(": the plan's root task found no decomposition on every planning from ")
	b.WriteString(strconv.FormatFloat(n.pos.X, 'f', 1, 64))
	b.WriteString(" s to ")
	b.WriteString(strconv.FormatFloat(n.pos.Y, 'f', 1, 64))
	b.WriteString(" s (htn.Run.NoPlanSince, NoPlanLast), so the action fails on every tick: ")
	if n.what == "" {
		b.WriteString("no hybrid.HTNAction of the agent's Brain or state trees runs it, so Diagnose cannot explain it (htn.Domain.WhyNoPlan does)")
	} else {
		b.WriteString(n.what)
	}
	b.WriteString("; if it has nothing to do then, give the root a last method without conditions (an Idle task, or no subtasks)")
}

// appendHybridGOAP writes the note of CausePlannerDomainError for a goap.Run kept in
// a component of the program's own (noteHybridGOAP).
func appendHybridGOAP(b *strings.Builder, n *exampleNote) {
	b.WriteString(", its goap.Run ")
	b.WriteString(n.then)
	appendHybridWhere(b, n, "GOAPAction")
	b.WriteString(": ")
	b.WriteString(n.what)
	if n.tree == nil {
		b.WriteString(" (no hybrid.GOAPAction of the agent's Brain or state trees runs it)")
	}
}

// appendHybridKey writes the note of CauseBlackboardKeyUnwritten for a utility.State
// kept in a component of the program's own (noteHybridKey).
func appendHybridKey(b *strings.Builder, n *exampleNote) {
	b.WriteString(", its utility.State ")
	b.WriteString(n.then)
	appendHybridWhere(b, n, "UtilitySelector")
	b.WriteString(": reasoner ")
	name := ""
	if n.reasoner != nil {
		name = n.reasoner.Name()
	}
	b.WriteString(strconv.Quote(name))
	b.WriteString(" reads key ")
	b.WriteString(strconv.Quote(n.what))
	b.WriteString(" through a utility.KeyInput and no store of its schema has ever held it: it reads NaN, " +
		"which scores 0 and vetoes the action for every agent; write it (blackboard.Set, from the system or code meant to), " +
		"or fix a key declared twice under two names")
}
