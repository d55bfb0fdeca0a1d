package systems

import (
	"strconv"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// stateBoards finds the state machines with a tree in a state (an fsm.Hooks
// Activity that is a *bt.Tree, as hybrid.TreeState sets) whose tree reads
// blackboard keys, for CauseBlackboardMissing, or has a timer node over
// MaxTreeTimer, for CauseTreeTimerLong. What it learns of a machine (the first
// such state's tree schema and the note naming it, the longest timer of its
// state trees) is kept between checks, so a check in steady state allocates
// nothing.
type stateBoards struct {
	filter *generic.Filter2[components.StateMachine, components.Blackboard]
	known  map[*fsm.Machine]stateBoard
}

// stateBoard is what a machine's states need: the schema of its first state
// tree with blackboard keys (nil for none) and the note of a finding.
type stateBoard struct {
	schema *blackboard.Schema
	note   string
	timer  exampleNote // noteTreeTimer: the longest timer of its state trees if over MaxTreeTimer, else noteNone
}

// check counts the agents whose StateMachine runs a tree with blackboard keys
// in a state while their Blackboard (the store the FSM hands to the tree) is
// absent, nil or of another schema (CauseBlackboardMissing), and those whose
// machine has a state tree with a timer over MaxTreeTimer (CauseTreeTimerLong).
func (s *stateBoards) check(w *arche.World, r *Report) {
	if s.filter == nil {
		s.filter = generic.NewFilter2[components.StateMachine, components.Blackboard]().Optional(generic.T[components.Blackboard]())
		s.known = map[*fsm.Machine]stateBoard{}
	}
	q := s.filter.Query(w)
	for q.Next() {
		sm, bb := q.Get()
		if sm.Machine == nil {
			continue
		}
		k, ok := s.known[sm.Machine]
		if !ok {
			k = machineBoard(sm.Machine)
			s.known[sm.Machine] = k
		}
		if k.timer.kind == noteTreeTimer {
			r.addNote(CauseTreeTimerLong, q.Entity(), k.timer)
		}
		if k.schema == nil {
			continue
		}
		if bb == nil || bb.Store == nil || bb.Store.Schema() != k.schema {
			r.addNote(CauseBlackboardMissing, q.Entity(), needsNote(k.note))
		}
	}
}

// machineBoard returns what m's state trees need of a blackboard, and the
// longest timer among them if it is over MaxTreeTimer.
func machineBoard(m *fsm.Machine) stateBoard {
	var sb stateBoard
	longest := 0.0
	for i := 1; i <= m.Len(); i++ {
		id := m.State(i)
		t, ok := m.Activity(id).(*bt.Tree)
		if !ok || t == nil {
			continue
		}
		if n, secs, ok := t.LongestTimer(); ok && secs > MaxTreeTimer && secs > longest {
			longest = secs
			sb.timer = exampleNote{kind: noteTreeTimer, what: t.NodeName(n), pos: r2.Vec{X: secs},
				machine: m, state: id}
		}
		if sc := t.Schema(); sb.schema == nil && sc != nil && sc.Keys() > 0 {
			sb.schema, sb.note = sc, "the tree of state "+strconv.Quote(m.FullName(id))+
				" reads blackboard keys: spawn with Thinker.Registry set to the registry that loaded it "+
				"(or a Blackboard whose Store is made from its schema)"
		}
	}
	return sb
}
