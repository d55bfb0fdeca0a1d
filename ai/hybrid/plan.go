package hybrid

import (
	"fmt"
	"sync"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
)

// HTNAction returns a behavior-tree action that carries out an HTN plan of domain d: the
// agent's plan state and believed world state are returned by run (typically the fields
// Run and State of its components.HTNPlanner). Every tick is one [htn.Domain.Tick] with
// the tree's Agent, DT and Time:
//   - Running while the plan runs;
//   - Success on the tick the plan completes (an empty plan, from methods without
//     subtasks, on the tick that makes it), Failure when the root does not decompose;
//   - halted while Running (a reactive node preempts it, the tree is halted): the
//     running task gets its Halt and the plan is dropped, so the next tick plans again.
//
// A nil d (a Registry.Domain lookup that found none) or a nil run makes an action that
// bt.Compile refuses with bt.ErrNilFunc ([RegisterHTN] returns that error). A condition
// or effect script of d that fails at run time is counted in the tree's
// bt.Context (ScriptErrors, LastScriptError, at this action's node), as the tree's own
// scripts are. A nil run result fails the tick. Planning borrows an htn.Planner from a pool shared by
// the node's ticks, so the node may tick on several workers at once; a tick allocates
// nothing once the pool holds a planner per concurrent tick that has planned with d.
//
// The action runs d for its life: a hot reload of d's domain in its registry
// (htn.Registry.ReloadFile, ReloadJSON, Replace), which systems.HTN follows, does not
// reach it, and its agents go on with the old definition. To run the edited domain, build
// the tree again with the new domain (for a tree from a file, a new bt.Registry with the
// action registered again) and swap the agents' trees, whose halt drops the old plans; a
// State laid out by the old domain's facts must then be laid out by the new one's.
//
// A root that never decomposes fails the action on every tick (Run.NoPlans counts the
// plannings). systems.Diagnose counts such an agent (planner_domain_error) once every
// planning from Run.NoPlanSince to Run.NoPlanLast found none for systems.HTNNoPlanSpan,
// with d's explanation (htn.Domain.WhyNoPlan) and this node, its tree and state, when
// the Run is a field of one of the agent's components (not behind a pointer, in a slice
// or map) and the tree is its Brain's or a state's tree of its StateMachine (a
// TreeState). To learn which action runs the Run it calls run with a Context whose
// Agent is the agent's *systems.Agent (see [HTNAt]): keep run a plain accessor.
func HTNAction(name string, d *htn.Domain, run func(ctx *bt.Context) (*htn.Run, *htn.State)) *bt.Node {
	if d == nil || run == nil {
		return bt.Action(name, nil) // bt.Compile refuses it (ErrNilFunc)
	}
	tick, halt := htnFuncs(d, run)
	return bt.Action(name, tick).OnHalt(halt).Attach(&htnNode{d: d, run: run})
}

// RegisterHTN registers [HTNAction] under name in r, for trees loaded from files: the
// element <name/> runs d's plan (d itself, not a domain reloaded in its place later: see
// HTNAction).
func RegisterHTN(r *bt.Registry, name string, d *htn.Domain, run func(ctx *bt.Context) (*htn.Run, *htn.State)) error {
	if d == nil || run == nil {
		return fmt.Errorf("hybrid: RegisterHTN(%q): %w: a nil domain or run function", name, bt.ErrNilFunc)
	}
	tick, halt := htnFuncs(d, run)
	at := &htnNode{d: d, run: run}
	return r.RegisterAction(name, func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		p.OnHalt(halt)
		p.Attach(at)
		return tick, nil
	})
}

// GOAPAction returns a behavior-tree action that carries out a GOAP plan of domain d,
// like [HTNAction]: one [goap.Domain.Tick] per tick, Running while the plan runs,
// Success when it completes, Failure when no goal has a plan; halting it halts the
// running action and drops the plan. A nil d or run is refused as for HTNAction. As
// with HTNAction, a domain put in d's place by goap.Registry.Replace does not reach the
// action: it runs d for its life.
//
// systems.Diagnose counts an agent whose Run (a field of one of its components, found
// as for HTNAction) the action runs under planner_domain_error as it counts a
// GOAPPlanner's: the Run failed without a plan (Status Failure) and no goal that does
// not hold can be planned from the State the run function pairs with it
// (goap.Domain.WhyNoPlan, WhyNeverReached), or it carries out a plan while a goal
// above the plan's has none, or its searches were cut (Run.DomainErrors), naming this
// node, its tree and state. To learn which action runs the Run it calls run with a
// Context whose Agent is the agent's *systems.Agent (see [GOAPAt]): keep run a plain
// accessor.
func GOAPAction(name string, d *goap.Domain, run func(ctx *bt.Context) (*goap.Run, *goap.State)) *bt.Node {
	if d == nil || run == nil {
		return bt.Action(name, nil) // bt.Compile refuses it (ErrNilFunc)
	}
	tick, halt := goapFuncs(d, run)
	return bt.Action(name, tick).OnHalt(halt).Attach(&goapNode{d: d, run: run})
}

// RegisterGOAP registers [GOAPAction] under name in r.
func RegisterGOAP(r *bt.Registry, name string, d *goap.Domain, run func(ctx *bt.Context) (*goap.Run, *goap.State)) error {
	if d == nil || run == nil {
		return fmt.Errorf("hybrid: RegisterGOAP(%q): %w: a nil domain or run function", name, bt.ErrNilFunc)
	}
	tick, halt := goapFuncs(d, run)
	at := &goapNode{d: d, run: run}
	return r.RegisterAction(name, func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
		p.OnHalt(halt)
		p.Attach(at)
		return tick, nil
	})
}

func htnFuncs(d *htn.Domain, run func(ctx *bt.Context) (*htn.Run, *htn.State)) (func(*bt.Context) bt.Status, func(*bt.Context)) {
	var pool pool[htnWorker]
	tick := func(c *bt.Context) bt.Status {
		r, s := run(c)
		if r == nil || s == nil {
			return bt.Failure
		}
		w := pool.get()
		w.ctx = htn.Context{Agent: c.Agent, DT: c.DT, Time: c.Time}
		before := w.p.ScriptErrors
		st := d.Tick(r, s, &w.p, &w.ctx)
		for range w.p.ScriptErrors - before { // the planner's script errors are the tree's
			c.CountScriptError(w.p.LastScriptError)
		}
		w.ctx = htn.Context{}
		pool.put(w)
		switch st {
		case htn.Running:
			return bt.Running
		case htn.Success:
			return bt.Success
		}
		return bt.Failure
	}
	halt := func(c *bt.Context) {
		if r, s := run(c); r != nil && s != nil {
			w := pool.get()
			w.ctx = htn.Context{Agent: c.Agent, DT: c.DT, Time: c.Time}
			d.Halt(r, s, &w.ctx)
			w.ctx = htn.Context{}
			pool.put(w)
		}
	}
	return tick, halt
}

func goapFuncs(d *goap.Domain, run func(ctx *bt.Context) (*goap.Run, *goap.State)) (func(*bt.Context) bt.Status, func(*bt.Context)) {
	var pool pool[goapWorker]
	tick := func(c *bt.Context) bt.Status {
		r, s := run(c)
		if r == nil || s == nil {
			return bt.Failure
		}
		w := pool.get()
		w.ctx = goap.Context{Agent: c.Agent, DT: c.DT, Time: c.Time}
		st := d.Tick(r, s, &w.p, &w.ctx)
		w.ctx = goap.Context{}
		pool.put(w)
		switch st {
		case goap.Running:
			return bt.Running
		case goap.Success:
			return bt.Success
		}
		return bt.Failure
	}
	halt := func(c *bt.Context) {
		if r, s := run(c); r != nil && s != nil {
			w := pool.get()
			w.ctx = goap.Context{Agent: c.Agent, DT: c.DT, Time: c.Time}
			d.Halt(r, s, &w.ctx)
			w.ctx = goap.Context{}
			pool.put(w)
		}
	}
	return tick, halt
}

// htnWorker and goapWorker are what one tick borrows: a planner and the context it
// hands to operators (kept off the stack: operators may keep pointers into it during
// the call).
type htnWorker struct {
	p   htn.Planner
	ctx htn.Context
}

type goapWorker struct {
	p   goap.Planner
	ctx goap.Context
}

// pool is a free list of planners: scratch buffers only, so which one a tick gets does
// not change its result.
type pool[P any] struct {
	mu   sync.Mutex
	free []*P
}

func (p *pool[P]) get() *P {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		x := p.free[n-1]
		p.free = p.free[:n-1]
		return x
	}
	return new(P)
}

func (p *pool[P]) put(x *P) {
	p.mu.Lock()
	p.free = append(p.free, x)
	p.mu.Unlock()
}
