package debugview

import (
	"reflect"
	"unsafe"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/internal/fieldscan"
	arche "github.com/mlange-42/arche/ecs"
)

// SelectorUtility is the last decision of a utility reasoner whose State the
// selected agent keeps in a field of one of its components other than its
// UtilityBrain: the State a hybrid.UtilitySelector node (a utility choice inside
// a behavior tree) decides with, as examples/fighter's Fighter.Attack.
//
// The tree node does not tell which State it uses (its state function may return
// any), so the viewer finds the utility.State values in the agent's components (a
// component that is one, or holds one in a field or array element, at most 4
// levels deep, as it finds hybrid.TreeRuns), learns each one's reasoner from the
// State itself (utility.State.Reasoner: the reasoner that last scored it) and gives
// each a utility.Trace. So a State's scores show as soon as the agent is selected
// (paused too), once some reasoner has decided with it (Utility is null before: a
// State never scored, or loaded and not scored since); the considerations' raw
// inputs show from the first decision after the selection (Traced). Its changes of
// choice join [Agent.UtilityLog], with Field set. A State held elsewhere (a
// blackboard value, a map, behind a pointer or in a slice) is not found.
type SelectorUtility struct {
	Field     string   `json:"field"`     // where the agent keeps the State: "Fighter.Attack"
	Decisions uint64   `json:"decisions"` // utility.State.Decisions
	Utility   *Utility `json:"utility"`   // the reasoner and its last decision, as [Agent.Utility]; null while no reasoner has scored the State
}

var stateType = reflect.TypeFor[utility.State]()

// stateTrace is one utility.State the selected agent holds outside its
// UtilityBrain, and the Trace the viewer gave it.
type stateTrace struct {
	id    arche.ID
	field treeRunField
	trace *utility.Trace
	seen  utilSeen // the State's choice at the last frame, for the log
}

// statesOf returns the utility.State fields of component id, cached (none for
// the UtilityBrain, whose State the Utility section shows).
func (v *Viewer) statesOf(w *arche.World, id arche.ID) []treeRunField {
	if f, ok := v.stateFields[id]; ok {
		return f
	}
	var out []treeRunField
	if info, ok := arche.ComponentInfo(w, id); ok && id != v.ids.util {
		out = fieldscan.Of(stateType, info.Type)
	}
	if v.stateFields == nil {
		v.stateFields = map[arche.ID][]treeRunField{}
	}
	v.stateFields[id] = out
	return out
}

// stateAt returns the utility.State at f of e's component id.
func stateAt(w *arche.World, e arche.Entity, id arche.ID, f treeRunField) *utility.State {
	return (*utility.State)(unsafe.Add(w.Get(e, id), f.Off))
}

// findStates lists the selected agent's components that hold utility.States
// outside its UtilityBrain (at selection and at a capture: a component added
// since is found at the next).
func (v *Viewer) findStates(w *arche.World, e arche.Entity) {
	v.stateComps = v.stateComps[:0]
	for _, id := range w.Ids(e) {
		if len(v.statesOf(w, id)) > 0 {
			v.stateComps = append(v.stateComps, id)
		}
	}
}

// observeSelectors gives a Trace of the viewer's to every utility.State the
// selected agent holds outside its UtilityBrain (found by findStates), so that
// the next decision records its inputs, and logs each State's changes of choice
// of this frame.
func (v *Viewer) observeSelectors(w *arche.World) {
	e := v.selected
	v.stateOwner = e
	for _, id := range v.stateComps {
		if !w.Has(e, id) {
			continue
		}
		for _, f := range v.statesOf(w, id) {
			st := v.stateTraceOf(id, f)
			s := stateAt(w, e, id, f)
			if s.Trace != st.trace {
				st.trace.Inputs, st.trace.Scorings, st.trace.Reasoner = st.trace.Inputs[:0], 0, nil
				s.Trace = st.trace
			}
			v.logChoice(st, s)
		}
	}
}

// logChoice appends to the utility log the change of choice of the State s
// (traced by st) since the last frame, or its choice when first seen with a
// reasoner (the log's baseline, kind "selected").
func (v *Viewer) logChoice(st *stateTrace, s *utility.State) {
	r := s.Reasoner()
	if r == nil || len(s.Scores) != r.Len() {
		st.seen = utilSeen{}
		return
	}
	prev := st.seen
	if prev.valid && prev.reasoner == r && prev.choice == s.Choice {
		st.seen.decisions = s.Decisions
		return
	}
	st.seen = utilSeen{valid: true, reasoner: r, choice: s.Choice, decisions: s.Decisions}
	v.appendUtilLog(st.field.Name, prev, utilityOfState(r, s, st.trace))
}

// stateTraceOf returns the stateTrace of the State at f of component id, adding
// one with a Trace of its own.
func (v *Viewer) stateTraceOf(id arche.ID, f treeRunField) *stateTrace {
	for i := range v.stateTraces {
		if st := &v.stateTraces[i]; st.id == id && st.field.Off == f.Off {
			return st
		}
	}
	v.stateTraces = append(v.stateTraces, stateTrace{id: id, field: f, trace: &utility.Trace{}})
	return &v.stateTraces[len(v.stateTraces)-1]
}

// selectors copies the decisions of the States the viewer traces in e.
func (v *Viewer) selectors(w *arche.World, e arche.Entity) []SelectorUtility {
	var out []SelectorUtility
	for _, st := range v.stateTraces {
		if !w.Has(e, st.id) {
			continue
		}
		s := stateAt(w, e, st.id, st.field)
		su := SelectorUtility{Field: st.field.Name, Decisions: s.Decisions}
		if r := s.Reasoner(); r != nil && len(s.Scores) == r.Len() {
			su.Utility = utilityOfState(r, s, st.trace)
		}
		out = append(out, su)
	}
	return out
}

// untraceStates takes the viewer's Traces out of the States of the agent they
// were given to, where they still are, and forgets them.
func (v *Viewer) untraceStates(w *arche.World) {
	e := v.stateOwner
	v.stateOwner = arche.Entity{}
	if !e.IsZero() && aliveIn(w, e) {
		for _, st := range v.stateTraces {
			if w.Has(e, st.id) {
				if s := stateAt(w, e, st.id, st.field); s.Trace == st.trace {
					s.Trace = nil
				}
			}
		}
	}
	clear(v.stateTraces)
	v.stateTraces, v.stateComps = v.stateTraces[:0], v.stateComps[:0]
}
