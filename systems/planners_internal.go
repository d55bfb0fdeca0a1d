package systems

import (
	"fmt"

	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
)

// planThinks is the think loop [HTN] and [GOAP] share: the due agents of planner
// component B, and per worker a planner P, a context C and a log of events E. tick runs
// one think; it is a plain function, so a think allocates nothing more than tick does.
type planThinks[B, P, C, E any] struct {
	due      thinkers[B]
	planners []perWorker[P] // per worker
	ctxs     []perWorker[C] // per worker
	logs     []planLog[E]
	log      bool // Log of the system, copied at Update
	ready    func(*B) bool
	swaps    []padded // per worker: the agents whose domain was swapped in the last frame
	Swapped  uint64   // the swaps since init

	// tick sets ctx for agent a (dt and now in seconds of simulation time; observe nil
	// without a log), runs one think of b with planner p and returns the plans adopted
	// and whether the think found the agent's domain swapped (see [HTN].Swapped).
	tick func(b *B, p *P, ctx *C, a *Agent, dt, now float64, observe func(E)) (plans int, swapped bool)
}

// init builds the filter, starts the workers and makes their planners, contexts and
// logs. It returns the number of workers.
func (t *planThinks[B, P, C, E]) init(w *arche.World, workers int) int {
	n := t.due.init(w, workers)
	t.planners = make([]perWorker[P], n)
	t.ctxs = make([]perWorker[C], n)
	t.logs = newLogs[E](n)
	t.swaps = make([]padded, n)
	t.Swapped = 0
	return n
}

// update thinks for the due agents within budget and returns the frame's events in
// agent order, reusing events.
func (t *planThinks[B, P, C, E]) update(w *arche.World, budget int, log bool, events []PlanEvent[E]) []PlanEvent[E] {
	t.log = log
	t.due.run(w, budget, t.ready, t)
	for i := range t.swaps {
		t.Swapped += uint64(t.swaps[i].n)
		t.swaps[i].n = 0
	}
	return gatherLogs(t.logs, events)
}

// Work implements ecs.Job: it runs the planners of jobs [lo, hi).
func (t *planThinks[B, P, C, E]) Work(worker, lo, hi int) {
	now := t.due.clock.Time
	ctx := &t.ctxs[worker].v
	p := &t.planners[worker].v
	var zero C
	thinking := -1 // the job thinking; an operator or sensor that panics leaves it set
	defer func() {
		if thinking >= 0 {
			t.due.panicked(worker, thinking, now)
			*ctx = zero
		}
	}()
	for i := lo; i < hi; i++ {
		j := t.due.job(worker, i)
		var observe func(E)
		if t.log {
			l := &t.logs[worker]
			l.entity, l.time, observe = j.agent.Entity, now, l.observe
		}
		thinking = i
		j.agent.DT = sinceLast(j.think, now)
		plans, swapped := t.tick(j.brain, p, ctx, &j.agent, j.agent.DT, now, observe)
		thinking = -1
		t.due.count(worker, plans)
		if swapped {
			t.swaps[worker].n++
		}
		t.due.thought(j, now)
	}
	*ctx = zero
}

// mustRegistry returns the world's registry resource R (*htn.Registry or *goap.Registry,
// of package pkg) for planner system sys.
//
// Panics: if the world has no such resource, saying how to add it.
func mustRegistry[R any](w *arche.World, sys, pkg string) *R {
	r := ecs.Resource[R](w)
	if r == nil {
		panic(setupFault(sys, ecs.ErrMissingResource, fmt.Sprintf("systems: %s: the world has no *%s.Registry resource: add the registry of the agents' domains with arche.AddResource(w, registry) before Initialize", sys, pkg)))
	}
	return r
}

// plannerRegistry is what [HTN] and [GOAP] ask of their registry resource
// (*htn.Registry, *goap.Registry) with domain D and ID I.
type plannerRegistry[D comparable, I any] interface {
	Domain(id I) D
	Resolve(name string, hint I) (D, I)
}

// plannerDomain is what [HTN] and [GOAP] ask of a domain (*htn.Domain, *goap.Domain):
// its name, and Halt, which gives the running task or action of a Run its halt hook and
// drops the plan.
type plannerDomain[R, S, C any] interface {
	comparable
	Name() string
	Halt(r *R, s *S, ctx *C)
}

// readyPlanner is the find pass's test of a planner component (name, id, cache, run):
// whether it has a domain. A component whose Cache made the plan that runs but is no
// longer the domain its Name resolves to (the program swapped the domain by Name, the
// truth) keeps the old domain in Cache for the think, which halts that plan first
// ([swapPlanner]); it is ready if the name resolves. So does a component whose Cache was
// replaced in the registry under its name (a hot reload, see htn.Registry.ReloadJSON),
// with a plan or not: the think also carries its believed facts over by name.
func readyPlanner[R plannerRegistry[D, I], D plannerDomain[Run, S, C], I, Run, S, C any](r R, name *string,
	id *I, cache *D, running bool) bool {
	var none D
	if old := *cache; old != none {
		if running && *name != old.Name() {
			d, _ := r.Resolve(*name, *id)
			return d != none
		}
		// old replaced under its name (a reload), plan or not: the think carries the
		// believed facts over by name
		if *name == old.Name() && r.Domain(*id) != old {
			if d, _ := r.Resolve(*name, *id); d != none && d != old {
				return true
			}
		}
	}
	return resolvePlanner(r, name, id, cache)
}

// swapPlanner runs at the start of a think: if the domain in the component's Cache is
// not the one its Name resolves to (see [readyPlanner]: Name set to another domain, or
// the domain of that name replaced in the registry), the old domain halts the running
// plan (the running task's or action's Halt runs, with the agent in ctx; the plan is
// dropped) and the new domain is resolved, so the think plans afresh with it: the old
// plan's task or action IDs never index the new domain. It returns the old domain and
// whether it swapped.
func swapPlanner[R plannerRegistry[D, I], D plannerDomain[Run, S, C], I, Run, S, C any](r R, name *string,
	id *I, cache *D, run *Run, state *S, ctx *C) (D, bool) {
	var none D
	old := *cache
	if old == none {
		return none, false
	}
	if *name == old.Name() {
		if d, _ := r.Resolve(*name, *id); d == none || d == old {
			return none, false
		}
	}
	old.Halt(run, state, ctx)
	resolvePlanner(r, name, id, cache)
	return old, true
}

// resolvePlanner checks a planner component's cached domain against the registry
// (interned name, same registry) and resolves it again from name and id when it does
// not hold, interning the name. It reports whether the component has a domain.
func resolvePlanner[R plannerRegistry[D, I], D interface {
	comparable
	Name() string
}, I any](r R, name *string, id *I, cache *D) bool {
	var none D
	if d := *cache; d != none && *name == d.Name() && r.Domain(*id) == d {
		return true
	}
	d, nid := r.Resolve(*name, *id)
	*cache, *id = d, nid
	if d == none {
		return false
	}
	*name = d.Name() // interned
	return true
}

// factDomain is what carrying believed facts over by name asks of a planner domain
// (*htn.Domain, *goap.Domain) with facts F.
type factDomain[F ~uint8] interface {
	Facts() int
	FactName(f F) string
	FactIndex(name string) (F, bool)
}

// carryFacts writes into dst the believed state src, held by the facts of domain from,
// by the facts of domain to: each fact of to takes the value of from's fact of the same
// name, and a fact from lacks (one the edit added) starts at 0. dst and src must not
// overlap. It is how a think carries an agent's state over a reload of its domain
// (htnTick, goapTick) and how a spawner's starting State follows one (Spawner.htnState).
func carryFacts[F ~uint8, V any](dst, src []V, from, to factDomain[F]) {
	clear(dst)
	for f := range to.Facts() {
		if i, ok := from.FactIndex(to.FactName(F(f))); ok {
			dst[f] = src[i]
		}
	}
}
