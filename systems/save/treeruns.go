package save

import (
	"fmt"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/hybrid"
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
type liveTrees struct {
	trees map[*bt.Tree]bool
	names map[string]bool // the names of trees
}

// liveTreesOf collects the trees w's Brains and state machines run. Call it outside
// any query of w.
func liveTreesOf(w *arche.World) *liveTrees {
	l := &liveTrees{trees: map[*bt.Tree]bool{}, names: map[string]bool{}}
	add := func(t *bt.Tree) {
		if t != nil && !l.trees[t] {
			l.trees[t], l.names[t.Name()] = true, true
		}
	}
	bq := generic.NewFilter1[components.Brain]().Query(w)
	for bq.Next() {
		add(bq.Get().Tree)
	}
	seen := map[*fsm.Machine]bool{}
	mq := generic.NewFilter1[components.StateMachine]().Query(w)
	for mq.Next() {
		m := mq.Get().Machine
		if m == nil || seen[m] {
			continue
		}
		seen[m] = true
		for i := 1; i <= m.Len(); i++ {
			if t, ok := m.Activity(m.State(i)).(*bt.Tree); ok {
				add(t)
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
