package systems

import (
	"strconv"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// stateBoards finds the state machines with a tree in a state (an fsm.Hooks
// Activity that is a *bt.Tree, as hybrid.TreeState sets) whose tree reads
// blackboard keys, for CauseBlackboardMissing. What it learns of a machine
// (the first such state's tree schema and the note naming it) is kept between
// checks, so a check in steady state allocates nothing.
type stateBoards struct {
	filter *generic.Filter2[components.StateMachine, components.Blackboard]
	known  map[*fsm.Machine]stateBoard
}

// stateBoard is what a machine's states need: the schema of its first state
// tree with blackboard keys (nil for none) and the note of a finding.
type stateBoard struct {
	schema *blackboard.Schema
	note   string
}

// check counts the agents whose StateMachine runs a tree with blackboard keys
// in a state while their Blackboard (the store the FSM hands to the tree) is
// absent, nil or of another schema.
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
		if k.schema == nil {
			continue
		}
		if bb == nil || bb.Store == nil || bb.Store.Schema() != k.schema {
			r.addNote(CauseBlackboardMissing, q.Entity(), needsNote(k.note))
		}
	}
}

// machineBoard returns what m's state trees need of a blackboard.
func machineBoard(m *fsm.Machine) stateBoard {
	for i := 1; i <= m.Len(); i++ {
		id := m.State(i)
		t, ok := m.Activity(id).(*bt.Tree)
		if !ok || t == nil {
			continue
		}
		if sc := t.Schema(); sc != nil && sc.Keys() > 0 {
			return stateBoard{schema: sc, note: "the tree of state " + strconv.Quote(m.FullName(id)) +
				" reads blackboard keys: spawn with Thinker.Registry set to the registry that loaded it " +
				"(or a Blackboard whose Store is made from its schema)"}
		}
	}
	return stateBoard{}
}
