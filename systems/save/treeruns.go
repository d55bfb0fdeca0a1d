package save

import (
	"fmt"
	"reflect"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// liveTrees is what Save knows of the trees a world's agents run: each Brain's Tree
// and the tree of every hybrid.TreeState (fsm.Machine.Activity) of the machines its
// StateMachine components hold. It lets Save tell a hybrid.TreeRun whose Memory is
// still an earlier build's (a tree built again under its name, its machine swapped
// since the agent's last update) from one of the build its state runs: a file names no
// build, so the load would give the earlier build's nodes to the new one, which the
// unbroken run resets (hybrid.TreeState: a Memory of another tree is halted and starts
// over).
//
// It knows the reasoners too: each UtilityBrain's, and that of every
// hybrid.UtilitySelector of those trees (hybrid.SelectorAt), for a utility.State in a
// component of the program's own, still the earlier build's reasoner (the tree built
// again over a reloaded reasoner): the next decision starts it afresh
// (utility.Reasoner.Score), which a load would not know.
type liveTrees struct {
	trees     map[*bt.Tree]bool
	names     map[string]bool // the names of trees
	reasoners map[*utility.Reasoner]bool
	rnames    map[string]bool // the names of reasoners
}

// liveTreesOf collects the trees w's Brains and state machines run. Call it outside
// any query of w. It registers no component type in w (a query of a type w does not
// know would, and the file's type list would then differ from one written before).
func liveTreesOf(w *arche.World) *liveTrees {
	l := &liveTrees{trees: map[*bt.Tree]bool{}, names: map[string]bool{},
		reasoners: map[*utility.Reasoner]bool{}, rnames: map[string]bool{}}
	addR := func(r *utility.Reasoner) {
		if r != nil && !l.reasoners[r] {
			l.reasoners[r], l.rnames[r.Name()] = true, true
		}
	}
	add := func(t *bt.Tree) {
		if t == nil || l.trees[t] {
			return
		}
		l.trees[t], l.names[t.Name()] = true, true
		for i := range t.Len() {
			if r, _, ok := hybrid.SelectorAt(t, i); ok {
				addR(r)
			}
		}
	}
	known := map[reflect.Type]bool{}
	for _, id := range arche.ComponentIDs(w) {
		if info, ok := arche.ComponentInfo(w, id); ok {
			known[info.Type] = true
		}
	}
	if known[reflect.TypeFor[components.Brain]()] {
		var last *bt.Tree // most agents share a tree: one map look-up a run of them
		for q := generic.NewFilter1[components.Brain]().Query(w); q.Next(); {
			if t := q.Get().Tree; t != last {
				add(t)
				last = t
			}
		}
	}
	if known[reflect.TypeFor[components.UtilityBrain]()] {
		var last *utility.Reasoner
		for q := generic.NewFilter1[components.UtilityBrain]().Query(w); q.Next(); {
			if r := q.Get().Reasoner; r != last {
				addR(r)
				last = r
			}
		}
	}
	if known[reflect.TypeFor[components.StateMachine]()] {
		seen := map[*fsm.Machine]bool{}
		var last *fsm.Machine
		for q := generic.NewFilter1[components.StateMachine]().Query(w); q.Next(); {
			m := q.Get().Machine
			if m == nil || m == last || seen[m] {
				continue
			}
			seen[m], last = true, m
			for i := 1; i <= m.Len(); i++ {
				if t, ok := m.Activity(m.State(i)).(*bt.Tree); ok {
					add(t)
				}
			}
		}
	}
	return l
}

// runNodes returns the node memory to save for r in place of its own, or nil to save
// r as it is. A Memory of an earlier build of a tree the world runs (another tree of
// that name, not one the world runs: the machine swapped for one built again) is what
// r's TreeState halts and starts over at the agent's next update: idle, it is saved as
// that update makes it (every node Idle, cooldowns cleared), so the loaded run
// continues as the unbroken one; with a node Running, whose halt hook that update runs
// with the earlier build (which a load cannot give back), it returns an error wrapping
// ErrMemory that says to save after the agent's next update.
func (l *liveTrees) runNodes(r *hybrid.TreeRun, at path) ([]bt.NodeMemory, error) {
	old := r.Memory.Tree()
	if l == nil || old == nil || l.trees[old] || !l.names[old.Name()] {
		return nil, nil
	}
	nodes := r.Memory.Nodes()
	for i := len(nodes) - 1; i >= 0; i-- { // the last Running in pre-order: a leaf whose halt hook would run
		if nodes[i].Status == bt.Running {
			return nil, fmt.Errorf("%s: %w: a hybrid.TreeRun whose Memory is an earlier build of tree %q (a tree built again under its name, the agent's machine swapped since the agent's last update), with node %d (%s) Running: the state's TreeState halts it with that build at the agent's next update (or when the state is left), which a load could not do, as that build is gone; save after that update",
				at, ErrMemory, old.Name(), i, old.NodeName(i))
		}
	}
	return make([]bt.NodeMemory, len(nodes)), nil
}

// utilityState returns the state to save in place of s, and whether to: a State last
// decided by an earlier build of a reasoner the world's trees or UtilityBrains run
// (another reasoner of its name, not one they run) starts afresh at its next decision
// (utility.Reasoner.Score: no choice, every score 0), and is saved so; a load could
// not tell it from the new reasoner's and would keep its choice.
func (l *liveTrees) utilityState(s *utility.State) (utility.State, bool) {
	old := s.Reasoner()
	if l == nil || old == nil || l.reasoners[old] || !l.rnames[old.Name()] {
		return utility.State{}, false
	}
	fresh := utility.State{Choice: utility.None, Previous: utility.None}
	if s.Scores != nil {
		fresh.Scores = make([]float64, len(s.Scores))
	}
	if s.Considerations != nil {
		fresh.Considerations = make([]float64, len(s.Considerations))
	}
	return fresh, true
}
