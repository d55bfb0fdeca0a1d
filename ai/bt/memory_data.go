package bt

import (
	"errors"
	"fmt"
)

// ErrMemoryMismatch is returned (wrapped, with the tree's name and the node) by
// [Tree.CheckMemory] when a Memory does not fit a tree.
var ErrMemoryMismatch = errors.New("memory does not fit the tree")

// MemoryOf returns a Memory over nodes, in pre-order, without copying them: the Memory
// aliases nodes. It is for restoring a saved state and for callers that own the node
// storage (an arena that keeps every agent's nodes referenced). Check it against its
// tree with [Tree.CheckMemory] before ticking. It belongs to no tree until one ticks or
// halts it (see [Memory]).
func MemoryOf(nodes []NodeMemory) Memory { return Memory{nodes: nodes} }

// Clone returns a deep copy of m: the copy and m share no node, unlike a plain
// assignment (which copies a reference to the same nodes).
func (m Memory) Clone() Memory {
	if m.nodes == nil {
		return Memory{}
	}
	return Memory{nodes: append([]NodeMemory(nil), m.nodes...), tree: m.tree}
}

// CheckMemory reports whether m can be ticked with t: it has one node per node of t,
// every Status is one of the defined statuses (Idle … Skipped), the running child a
// composite (Sequence, Selector, their memory, reactive and async forms, IfThenElse,
// WhileDoElse, Switch, Choose, TryCatch) holds is one of its children, a RunOnce's
// remembered status is a defined status, and the time a Running Wait, Sleep, Timeout or
// Delay has counted is not negative (ticks only add a DT >= 0 to it from 0: one of
// -1e300 s, or -Inf, would keep the node Running for good). Other timers may hold any
// value, and so may those of nodes not Running (reset on entry); a NaN timer is a
// corrupt state the tree survives (the wait is over). Two states no tick leaves are
// refused as well: a Running node under a parent that is not Running (no tick resumes
// it, no halt reaches it: its halt hook would never run), and a Running Parallel whose
// finished children already reach a threshold (it ticks only its unfinished children
// and decides after one finishes: with none left, it stayed Running for good). It
// returns an error wrapping [ErrMemoryMismatch] naming the tree and the first bad
// node. (A Sequence whose saved running child is past its last one would succeed
// without ticking a child.)
func (t *Tree) CheckMemory(m Memory) error {
	if len(m.nodes) != len(t.nodes) {
		return fmt.Errorf("bt: tree %q: %w: %d nodes, the tree has %d", t.name, ErrMemoryMismatch, len(m.nodes), len(t.nodes))
	}
	for i := range m.nodes {
		nm := &m.nodes[i]
		if s := nm.Status; s > Skipped {
			return fmt.Errorf("bt: tree %q node %d (%s): %w: status %d", t.name, i, t.NodeName(i), ErrMemoryMismatch, s)
		}
		switch n := &t.nodes[i]; n.kind {
		case kindSequence, kindSequenceWithMemory, kindSelector, kindReactiveSequence, kindReactiveSelector,
			kindIfThenElse, kindWhileDoElse, kindSwitch, kindChoose, kindTryCatch, kindAsyncSequence, kindAsyncFallback:
			if int(nm.Child) >= int(n.nkids) {
				return fmt.Errorf("bt: tree %q node %d (%s): %w: running child %d of %d children",
					t.name, i, t.NodeName(i), ErrMemoryMismatch, nm.Child, n.nkids)
			}
		case kindRunOnce:
			if nm.Count == 1 && Status(nm.Child) > Skipped {
				return fmt.Errorf("bt: tree %q node %d (%s): %w: remembered status %d",
					t.name, i, t.NodeName(i), ErrMemoryMismatch, nm.Child)
			}
		case kindWait, kindSleep, kindTimeout, kindDelay:
			if nm.Status == Running && nm.Timer < 0 {
				return fmt.Errorf("bt: tree %q node %d (%s): %w: %v s counted, below 0",
					t.name, i, t.NodeName(i), ErrMemoryMismatch, nm.Timer)
			}
		}
	}
	for p := range t.nodes {
		n := &t.nodes[p]
		kids := t.kids[n.kidOff : n.kidOff+int32(n.nkids)]
		if m.nodes[p].Status != Running {
			for _, k := range kids {
				if m.nodes[k].Status == Running {
					return fmt.Errorf("bt: tree %q node %d (%s): %w: Running under node %d (%s), which is %v",
						t.name, k, t.NodeName(int(k)), ErrMemoryMismatch, p, t.NodeName(p), m.nodes[p].Status)
				}
			}
			continue
		}
		if n.kind == kindParallel {
			var succ, fail int32
			for _, k := range kids {
				switch m.nodes[k].Status {
				case Success:
					succ++
				case Failure:
					fail++
				}
			}
			if succ >= n.n1 || fail >= n.n2 || int32(len(kids))-fail < n.n1 {
				return fmt.Errorf("bt: tree %q node %d (%s): %w: Running with %d of %d children succeeded and %d failed, which decides it",
					t.name, p, t.NodeName(p), ErrMemoryMismatch, succ, len(kids), fail)
			}
		}
	}
	return nil
}

// Adopt makes m, a Memory over saved nodes that no tree has ticked or halted yet
// ([MemoryOf]), t's without ticking or halting it, after [Tree.CheckMemory]: for a
// loader that restores a memory whose tree is not the one the agent runs next (a tree
// swap pending at the save: the decision system halts t at the agent's next think). It
// returns an error if m belongs to another tree, or if CheckMemory does.
func (t *Tree) Adopt(m *Memory) error {
	if m.tree != nil && m.tree != t {
		return fmt.Errorf("bt: tree %q: %w: the memory is tree %q's", t.name, ErrMemoryMismatch, m.tree.name)
	}
	if err := t.CheckMemory(*m); err != nil {
		return err
	}
	m.tree = t
	return nil
}
