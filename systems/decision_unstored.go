package systems

import (
	"strconv"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
)

// Reads of a missing store. A tree compiled in Go (bt.Compile) whose leaves read blackboard
// keys, on an agent spawned without a store (a Thinker with no Schema), reads every key as
// missing: it never sees what Perception found, and nothing in its data says so (the tree
// declares no schema; a tree that reads no key, as the bench's guards, needs no store). So
// Decision hands such an agent's tick a blackboard.Probe's store instead of nil, which
// behaves as a nil store but counts the reads by key, and notes the agents whose tick read
// one, for Diagnose (CauseBlackboardMissing). The notes are for diagnosis only: not saved.

// unstoredProbe is one worker's probe and the agents it found reading keys this frame.
type unstoredProbe struct {
	p     *blackboard.Probe
	found []unstoredFound
}

// unstoredFound is an agent whose tick read key with no store.
type unstoredFound struct {
	e    arche.Entity
	tree *bt.Tree
	key  string
}

// unstoredRead is what Decision keeps of an agent found: its entity, the tree ticked, the
// key last read and the note Diagnose gives (made once per key).
type unstoredRead struct {
	e    arche.Entity
	tree *bt.Tree
	key  string
	note string
}

// initUnstored makes the workers' probes and forgets the agents noted.
func (s *Decision) initUnstored(workers int) {
	s.probes = make([]perWorker[unstoredProbe], workers)
	for i := range s.probes {
		s.probes[i].v.p = blackboard.NewProbe()
	}
	s.unstored = map[uint32]unstoredRead{}
}

// probeFor returns the store to hand the tick of an agent whose store is st: st, or the
// worker's probe's (reset) when st is nil.
func (s *Decision) probeFor(worker int, st *blackboard.Store) *blackboard.Store {
	if st != nil {
		return st
	}
	p := s.probes[worker].v.p
	p.Reset()
	return p.Store()
}

// probed notes agent e, whose tree was ticked with the worker's probe, if it read a key.
func (s *Decision) probed(worker int, e arche.Entity, tree *bt.Tree) {
	w := &s.probes[worker].v
	if w.p.Reads() > 0 {
		w.found = append(w.found, unstoredFound{e: e, tree: tree, key: w.p.LastKey()})
	}
}

// gatherUnstored moves the workers' finds of the frame into s.unstored (keyed by entity
// ID, so the map stays as large as the world's entities).
func (s *Decision) gatherUnstored() {
	for i := range s.probes {
		w := &s.probes[i].v
		for _, f := range w.found {
			u := s.unstored[f.e.ID()]
			if u.key != f.key {
				u.key = f.key
				u.note = "its tree read key " + strconv.Quote(f.key) +
					" but the agent has no blackboard store: give the Thinker a Schema (systems.Thinker{Tree: t, Schema: s})"
			}
			u.e, u.tree = f.e, f.tree
			s.unstored[f.e.ID()] = u
		}
		w.found = w.found[:0]
	}
}

// unstoredNote returns the note of the agent e whose Brain's tree is tree and that has no
// store, if Decision found its tree reading a key.
func (s *Decision) unstoredNote(e arche.Entity, tree *bt.Tree) (string, bool) {
	u, ok := s.unstored[e.ID()]
	if !ok || u.e != e || u.tree != tree {
		return "", false
	}
	return u.note, true
}

// unstoredNote returns the note of CauseBlackboardMissing for agent e, whose Brain's tree
// (built in Go: no schema) is tree and whose Blackboard is bb, if it has no store and the
// live Decision found that tree reading a key.
func (d *diagnoser) unstoredNote(e arche.Entity, tree *bt.Tree, bb *components.Blackboard) (string, bool) {
	if d.decision == nil || bb != nil && bb.Store != nil {
		return "", false
	}
	return d.decision.unstoredNote(e, tree)
}
