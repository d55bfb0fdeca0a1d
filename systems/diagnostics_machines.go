package systems

import (
	"fmt"
	"slices"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// machinesAlike finds Report.MachinesAlike: the distinct machines the agents
// run, grouped by tag. Its maps and slices are kept between checks, and so
// is each pair's text, so a check in steady state allocates nothing.
type machinesAlike struct {
	seen  map[*fsm.Machine]struct{}
	list  []*fsm.Machine // distinct machines in the order met
	reps  []*fsm.Machine // one tag's distinct definitions so far
	texts map[[2]*fsm.Machine]string
}

// machineTag returns the tag in m's StateIDs (see fsm.StateID); 0 for a
// machine without states, whose IDs nobody can take.
func machineTag(m *fsm.Machine) uint32 {
	if m.Len() == 0 {
		return 0
	}
	return uint32(m.State(1)) >> 16
}

// sameDefinition reports whether a and b are two builds of one definition:
// one name, and states of the same names and parents index by index, so a
// StateID of one names the same state in the other.
func sameDefinition(a, b *fsm.Machine) bool {
	if a.MachineName() != b.MachineName() || a.Len() != b.Len() {
		return false
	}
	for i := 1; i <= a.Len(); i++ {
		sa, sb := a.State(i), b.State(i)
		if a.Name(sa) != b.Name(sb) || a.Parent(sa).Index() != b.Parent(sb).Index() {
			return false
		}
	}
	return true
}

// appendAlike appends to dst a text for each machine whose tag an earlier
// met machine of another definition has (against the first such): see
// Report.MachinesAlike.
func (a *machinesAlike) appendAlike(w *arche.World, f *generic.Filter4[components.StateMachine, components.Think, components.Position, components.Intent], dst []string) []string {
	if a.seen == nil {
		a.seen, a.texts = map[*fsm.Machine]struct{}{}, map[[2]*fsm.Machine]string{}
	}
	clear(a.seen)
	a.list = a.list[:0]
	q := f.Query(w)
	for q.Next() {
		sm, _, _, _ := q.Get()
		m := sm.Machine
		if m == nil || m.Len() == 0 {
			continue
		}
		if _, ok := a.seen[m]; !ok {
			a.seen[m] = struct{}{}
			a.list = append(a.list, m)
		}
	}
	if len(a.list) < 2 {
		return dst
	}
	// by tag, in the order met within one tag
	slices.SortStableFunc(a.list, func(x, y *fsm.Machine) int { return int(machineTag(x)) - int(machineTag(y)) })
	for i := 0; i < len(a.list); {
		j := i + 1
		for j < len(a.list) && machineTag(a.list[j]) == machineTag(a.list[i]) {
			j++
		}
		a.reps = append(a.reps[:0], a.list[i])
		for _, m := range a.list[i+1 : j] {
			if slices.ContainsFunc(a.reps, func(r *fsm.Machine) bool { return sameDefinition(r, m) }) {
				continue
			}
			dst = append(dst, a.text(a.reps[0], m))
			a.reps = append(a.reps, m)
		}
		i = j
	}
	return dst
}

// text returns the entry of machines x (met first) and y.
func (a *machinesAlike) text(x, y *fsm.Machine) string {
	k := [2]*fsm.Machine{x, y}
	if t, ok := a.texts[k]; ok {
		return t
	}
	why := "one name"
	if x.MachineName() != y.MachineName() {
		why = "their tags collide"
	}
	t := fmt.Sprintf("%q and %q (%s)", x.MachineName(), y.MachineName(), why)
	a.texts[k] = t
	return t
}

// reentryChecks counts the machines that entered their active state again on each of
// their last ReentryLimit updates or more (CauseStateReentered); the note names the
// state.
func reentryChecks(w *arche.World, r *Report, f *generic.Filter4[components.StateMachine, components.Think, components.Position, components.Intent]) {
	q := f.Query(w)
	for q.Next() {
		sm, _, _, _ := q.Get()
		if sm.Machine != nil && sm.Memory.Reentries >= ReentryLimit && sm.Machine.Has(sm.Memory.Active) {
			other := sm.Memory.Previous // a bounce between two leaves, or None for a state re-entered
			if other == sm.Memory.Active || !sm.Machine.Has(other) {
				other = fsm.None
			}
			r.addNote(CauseStateReentered, q.Entity(), exampleNote{kind: noteState, machine: sm.Machine, state: sm.Memory.Active, other: other, n: sm.Memory.Reentries})
		}
	}
}
