package goap

import (
	"errors"
	"fmt"
	"math"
	"unsafe"
)

// Errors of [Planner.Plan] and [Planner.PlanBest].
var (
	// ErrNoPlan: no sequence of at most MaxSteps actions reaches the goal (the search
	// ran out of states), or PlanBest found no goal to plan for.
	ErrNoPlan = errors.New("goap: no plan reaches the goal")
	// ErrPlanTooLong wraps ErrNoPlan when the search was cut at MaxSteps actions: no
	// plan of at most MaxSteps actions reaches the goal (the search is exact within the
	// bound), and a longer one might (some state is MaxSteps actions from the start, so
	// the search could not expand it).
	ErrPlanTooLong = fmt.Errorf("%w within MaxSteps (%d) actions; a longer plan might (split the goal into nearer ones)", ErrNoPlan, MaxSteps)
	// ErrUnreachable wraps ErrNoPlan when no plan of any length exists, found before
	// searching: a condition the goal needs, directly or through the preconditions of
	// every action that could make it true, holds neither in the start state nor after
	// any action that can come to start from it (typically a fact no action's effect
	// sets and the state lacks). [Domain.WhyNoPlan] names the goal, the actions and the
	// fact. Add an action that makes the condition true, or set the fact in the state.
	ErrUnreachable = fmt.Errorf("%w: a condition it needs holds neither in the state nor after any action that can start from it (Domain.WhyNoPlan names it)", ErrNoPlan)
	// ErrBudget: the search generated Planner.MaxNodes states without reaching the
	// goal, nor finding that no plan exists. A plan may exist: raise the node budget
	// (Planner.MaxNodes, up to MaxNodesLimit), or split the goal into nearer ones.
	ErrBudget = errors.New("goap: node budget exhausted before a plan was found (raise the node budget, or split the goal into nearer ones)")
	// ErrGoal: Plan was given a GoalID that is not one of the domain's goals.
	ErrGoal = errors.New("goap: no such goal in the domain")
)

// DefaultMaxNodes is the node budget of a Planner whose MaxNodes is 0.
const DefaultMaxNodes = 4096

// MaxNodesLimit is the largest node budget: a larger Planner.MaxNodes is clamped to it
// (a node is 96 bytes, about 160 with its open-list entry and table slots: a search that
// uses it all holds about 160 MiB). The planner's buffers grow with the nodes a search
// generates, not with the budget. A search that spends it all takes seconds in one think
// (4.9 s measured on a 2-core machine, for a goal that needs more than MaxSteps actions):
// inside a game loop keep the budget near DefaultMaxNodes and split far goals into nearer
// ones.
const MaxNodesLimit = 1 << 20

// Plan is a sequence of actions that reaches Goal from the state it was planned from.
type Plan struct {
	Steps [MaxSteps]ActionID
	Len   int
	Cost  float64 // the sum of the actions' costs
	Goal  GoalID
}

// Actions returns the plan's steps (a slice of p.Steps).
func (p *Plan) Actions() []ActionID { return p.Steps[:p.Len] }

// Planner searches plans. It keeps its buffers between searches, so a search allocates
// nothing once they have grown to the budget. A Planner is not safe for concurrent use:
// give each worker its own.
type Planner struct {
	// MaxNodes is the node budget: the most nodes one search generates (the start
	// included); DefaultMaxNodes if 0 or negative, MaxNodesLimit if larger. A node is a
	// path to a state; a state has more than one node only when reached by a dearer but
	// shorter path, or again more cheaply after an inconsistent heuristic expanded it.
	MaxNodes int

	// Expanded and Generated count the nodes of the last search.
	Expanded, Generated int

	nodes []node
	reach []bool // the actions that may start, for the check before a search (reach.go)
	heap  []entry
	table []slot // open addressing, len a power of two
	gen   uint32
	next  State
	// cut: the last PlanBest (or check above a running plan) passed over a goal whose
	// search was cut at MaxSteps actions (ErrPlanTooLong), whatever it returned
	cut bool
}

// node is one path to a state: its cost g, its length depth and its last action.
// Several nodes hold the same state when none of them dominates another (see
// Planner.search); they are chained by same from the one in the table.
type node struct {
	state  State
	g      float64
	h      float64
	parent int32
	same   int32 // the next node holding the same state, or -1
	action ActionID
	depth  uint8
	closed bool // popped (or dropped as dominated); not in the open list
	// expanded: its successors were generated. An expanded node never changes, so the
	// paths through it stay as recorded.
	expanded bool
}

type entry struct {
	f, h float64
	g    float64 // the node's g when pushed: stale if it changed
	n    int32
}

type slot struct {
	gen  uint32
	n    int32
	hash uint64
}

// Plan finds a cheapest plan from start to goal (see the package doc for the
// conditions) and writes it to out. A goal that already holds gives an empty plan. It
// returns ErrNoPlan (ErrUnreachable, which wraps it, when no plan of any length exists
// and a check before the search finds so; ErrPlanTooLong, which wraps it too, when the
// search was cut at MaxSteps actions) or ErrBudget, leaving out with Len 0 and Goal
// NoGoal, or an error wrapping ErrGoal for a goal that is not one of d's.
func (p *Planner) Plan(d *Domain, start *State, goal GoalID, out *Plan) error {
	*out = Plan{Goal: NoGoal}
	if goal < 0 || int(goal) >= len(d.goals) {
		return fmt.Errorf("%w: goal %d of domain %q's %d goals", ErrGoal, goal, d.name, len(d.goals))
	}
	want := d.goals[goal].Want
	if err := p.search(d, start, want, out); err != nil {
		return err
	}
	out.Goal = goal
	return nil
}

// PlanBest tries the goals that do not hold in start, from the highest priority down
// (ties in the order added), and writes the first goal's cheapest plan to out.
//
// Important: a goal whose search runs out of the node budget (Planner.MaxNodes) stops
// PlanBest with ErrBudget, and no goal below it is tried: a spent budget does not show
// that the goal has no plan, so planning a lower goal instead would quietly put it first
// (htn.Planner.Plan does the same with its visit budget). A goal with no plan of at most
// MaxSteps actions (ErrNoPlan, ErrUnreachable, ErrPlanTooLong: each exact, no budget
// changes it) is passed over for the next one. When none is reached it returns, of the
// goals tried, ErrPlanTooLong if some search was cut at MaxSteps actions, else
// ErrUnreachable if for every one the check before the search found that no plan
// exists, else ErrNoPlan (as when every goal holds). out is left with Len 0 and Goal
// NoGoal on every error.
func (p *Planner) PlanBest(d *Domain, start *State, out *Plan) error {
	return p.planAbove(d, start, math.Inf(-1), true, out)
}

// planAbove is PlanBest over the goals of priority > floor (>= if inclusive).
func (p *Planner) planAbove(d *Domain, start *State, floor float64, inclusive bool, out *Plan) error {
	*out = Plan{Goal: NoGoal}
	err := ErrNoPlan
	tried, unreachable := 0, 0
	p.cut = false
	for _, g := range d.byPriority {
		goal := &d.goals[g]
		if goal.Priority < floor || (!inclusive && goal.Priority == floor) {
			break
		}
		if Satisfied(start, goal.Want) {
			continue
		}
		tried++
		switch e := p.search(d, start, goal.Want, out); e {
		case nil:
			out.Goal = g
			return nil
		case ErrBudget: // not proof of no plan: no lower goal may stand in
			*out = Plan{Goal: NoGoal}
			return ErrBudget
		case ErrPlanTooLong:
			p.cut = true
			if err == ErrNoPlan {
				err = ErrPlanTooLong
			}
		case ErrUnreachable:
			unreachable++
		}
	}
	*out = Plan{Goal: NoGoal}
	if err == ErrNoPlan && tried > 0 && unreachable == tried {
		return ErrUnreachable
	}
	return err
}

// search is A* from start to a state satisfying want, over paths of at most MaxSteps
// actions.
//
// A node is a path (its state, cost g and length depth). A path is dropped when a node
// of the same state is no dearer and no longer: whatever continuation of at most
// MaxSteps actions follows the dropped path also follows that node, at no higher cost.
// A state keeps one node per cost-length trade-off that can matter: a dearer but
// shorter path to a state already reached more cheaply is kept, since near the
// MaxSteps bound only the shorter one may still reach the goal. So the search is exact
// within the bound: it finds a cheapest plan of at most MaxSteps actions whenever one
// exists, and ErrPlanTooLong means there is none.
//
// A new path that dominates a node not yet expanded takes that node over in place; one
// that dominates an expanded node (which only an inconsistent heuristic allows) gets a
// node of its own and the old one stays closed, so the parents of recorded paths never
// change.
func (p *Planner) search(d *Domain, start *State, want []Cond, out *Plan) error {
	budget := p.budget()
	p.reset()
	p.Expanded, p.Generated = 0, 0
	if !p.possible(d, start, want) {
		return ErrUnreachable // no plan of any length: no search needed
	}
	h := d.heuristic(start, want)
	p.nodes = append(p.nodes, node{state: *start, h: h, parent: -1, same: -1, action: -1})
	p.insert(0, p.hash(start))
	p.push(entry{f: h, h: h, n: 0})
	p.Generated = 1
	budgetHit, cut := false, false
	for len(p.heap) > 0 {
		e := p.pop()
		n := &p.nodes[e.n]
		if n.closed || e.g != n.g {
			continue // stale
		}
		if Satisfied(&n.state, want) {
			p.write(e.n, out)
			return nil
		}
		n.closed = true
		if int(n.depth) >= MaxSteps {
			cut = true
			continue
		}
		n.expanded = true
		p.Expanded++
		for ai := range d.actions {
			a := &d.actions[ai]
			n = &p.nodes[e.n] // the arena may have grown
			if !a.applicable(&n.state) {
				continue
			}
			next := &p.next // a field: a user heuristic gets a pointer to it
			*next = n.state
			if !a.apply(next) {
				continue // no change: never on a cheapest plan
			}
			g := n.g + a.Cost
			depth := n.depth + 1
			hash := p.hash(next)
			first := p.find(next, hash)
			if first >= 0 && p.reached(first, g, depth, e.n, ActionID(ai)) {
				continue
			}
			if len(p.nodes) >= budget {
				budgetHit = true
				continue
			}
			var hn float64
			if first >= 0 {
				hn = p.nodes[first].h // the same state: the same estimate
			} else {
				hn = d.heuristic(next, want)
			}
			k := int32(len(p.nodes))
			p.nodes = append(p.nodes, node{state: *next, g: g, h: hn, parent: e.n, same: -1, action: ActionID(ai), depth: depth})
			if first >= 0 {
				f := &p.nodes[first]
				p.nodes[k].same, f.same = f.same, k
			} else {
				p.insert(k, hash)
			}
			p.push(entry{f: g + hn, h: hn, g: g, n: k})
			p.Generated++
		}
	}
	if budgetHit {
		return ErrBudget
	}
	if cut && p.cutShort() {
		return ErrPlanTooLong
	}
	return ErrNoPlan
}

// reached handles a new path (cost g, length depth, its last step action from node
// parent) to the state of the nodes chained from first. It reports true if the path
// needs no node of its own: a node dominates it (is no dearer and no longer), or it
// took over a node it dominates that was not expanded yet. Other unexpanded nodes it
// dominates are closed.
func (p *Planner) reached(first int32, g float64, depth uint8, parent int32, action ActionID) bool {
	for k := first; k >= 0; k = p.nodes[k].same {
		if m := &p.nodes[k]; m.g <= g && m.depth <= depth {
			return true
		}
	}
	took := false
	for k := first; k >= 0; k = p.nodes[k].same {
		m := &p.nodes[k]
		if m.expanded || g > m.g || depth > m.depth {
			continue // an expanded node never changes; or not dominated
		}
		if took {
			m.closed = true // dominated by the node taken over
			continue
		}
		took = true
		push := g != m.g || m.closed // else its entry in the open list stands
		m.g, m.parent, m.action, m.depth, m.closed = g, parent, action, depth, false
		if push {
			p.push(entry{f: g + m.h, h: m.h, g: g, n: k})
		}
	}
	return took
}

// cutShort reports whether, after a search that did not reach its goal, some state was
// left unexpanded because every path found to it is MaxSteps actions long: a longer
// plan through it might reach the goal.
func (p *Planner) cutShort() bool {
	for k := range p.nodes {
		n := &p.nodes[k]
		if n.expanded || int(n.depth) < MaxSteps {
			continue
		}
		expanded := false
		for j := p.find(&n.state, p.hash(&n.state)); j >= 0 && !expanded; j = p.nodes[j].same {
			expanded = p.nodes[j].expanded
		}
		if !expanded {
			return true
		}
	}
	return false
}

// budget returns the node budget: MaxNodes, DefaultMaxNodes if it is 0 or
// negative, MaxNodesLimit if it is larger.
func (p *Planner) budget() int {
	if p.MaxNodes <= 0 {
		return DefaultMaxNodes
	}
	return min(p.MaxNodes, MaxNodesLimit)
}

// write writes the path to node k into out.
func (p *Planner) write(k int32, out *Plan) {
	n := &p.nodes[k]
	out.Len = int(n.depth)
	out.Cost = n.g
	for i := out.Len - 1; i >= 0; i-- {
		out.Steps[i] = n.action
		k = n.parent
		n = &p.nodes[k]
	}
}

// reset empties the arena, the heap and (by a new generation) the table. Nothing is
// sized from the budget: the arena and the heap grow by append and the table doubles
// (growTable) as nodes are generated, so a large MaxNodes costs memory only as far as
// a search gets, and a warm Planner allocates nothing.
func (p *Planner) reset() {
	if len(p.table) == 0 {
		p.table = make([]slot, minTable)
		p.gen = 0
	}
	p.gen++
	if p.gen == 0 { // wrapped: clear the stamps once
		clear(p.table)
		p.gen = 1
	}
	p.nodes = p.nodes[:0]
	p.heap = p.heap[:0]
}

// minTable is the table's first size (a power of two).
const minTable = 256

// growTable doubles the table and inserts the arena's nodes again (the first node of
// each state: the others are chained from it); called before the table would be more
// than half full.
func (p *Planner) growTable() {
	p.table = make([]slot, 2*len(p.table))
	p.gen = 1
	for k := range p.nodes {
		s := &p.nodes[k].state
		if h := p.hash(s); p.find(s, h) < 0 {
			p.place(int32(k), h)
		}
	}
}

// hash returns hashState(s).
func (p *Planner) hash(s *State) uint64 { return hashState(s) }

// hashState mixes the state's words (SplitMix64's finalizer over a running sum).
func hashState(s *State) uint64 {
	w := (*[MaxFacts / 4]uint64)(unsafe.Pointer(s))
	h := uint64(0x9e3779b97f4a7c15)
	for _, x := range w {
		h ^= x
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	return h
}

// find returns the node holding s (of hash h), or -1.
func (p *Planner) find(s *State, h uint64) int32 {
	mask := uint64(len(p.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &p.table[i]
		if sl.gen != p.gen {
			return -1
		}
		if sl.hash == h && p.nodes[sl.n].state == *s {
			return sl.n
		}
	}
}

// insert adds node k, whose state has hash h, to the table (its state is not there);
// k is the arena's last node.
func (p *Planner) insert(k int32, h uint64) {
	if 2*(int(k)+1) > len(p.table) {
		p.growTable() // which inserts every state of the arena, k's included
		return
	}
	p.place(k, h)
}

// place puts node k, whose state has hash h, in the table's first free slot of its
// probe sequence.
func (p *Planner) place(k int32, h uint64) {
	mask := uint64(len(p.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		if p.table[i].gen != p.gen {
			p.table[i] = slot{gen: p.gen, n: k, hash: h}
			return
		}
	}
}

// less orders the open list: lower f, then lower h, then the older node.
func less(a, b entry) bool {
	if a.f != b.f {
		return a.f < b.f
	}
	if a.h != b.h {
		return a.h < b.h
	}
	return a.n < b.n
}

func (p *Planner) push(e entry) {
	p.heap = append(p.heap, e)
	h := p.heap
	i := len(h) - 1
	for i > 0 {
		up := (i - 1) / 2
		if !less(h[i], h[up]) {
			break
		}
		h[i], h[up] = h[up], h[i]
		i = up
	}
}

func (p *Planner) pop() entry {
	h := p.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		c := l
		if r := l + 1; r < len(h) && less(h[r], h[l]) {
			c = r
		}
		if !less(h[c], h[i]) {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
	p.heap = h
	return top
}
