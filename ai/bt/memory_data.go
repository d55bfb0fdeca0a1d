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
// tree with [Tree.CheckMemory] before ticking.
func MemoryOf(nodes []NodeMemory) Memory { return Memory{nodes: nodes} }

// Clone returns a deep copy of m: the copy and m share no node, unlike a plain
// assignment (which copies a reference to the same nodes).
func (m Memory) Clone() Memory {
	if m.nodes == nil {
		return Memory{}
	}
	return Memory{nodes: append([]NodeMemory(nil), m.nodes...)}
}

// CheckMemory reports whether m can be ticked with t: it has one node per node of t and
// every Status is one of the defined statuses (Idle … Skipped). Timers may hold any
// value (a NaN timer is a corrupt state the tree survives and diagnostics report). It
// returns an error wrapping [ErrMemoryMismatch] naming the tree and the first bad node.
func (t *Tree) CheckMemory(m Memory) error {
	if len(m.nodes) != len(t.nodes) {
		return fmt.Errorf("bt: tree %q: %w: %d nodes, the tree has %d", t.name, ErrMemoryMismatch, len(m.nodes), len(t.nodes))
	}
	for i := range m.nodes {
		if s := m.nodes[i].Status; s > Skipped {
			return fmt.Errorf("bt: tree %q node %d (%s): %w: status %d", t.name, i, t.NodeName(i), ErrMemoryMismatch, s)
		}
	}
	return nil
}
