package save

import (
	"fmt"
	"hash/fnv"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/ai/utility"
)

// A file names trees, machines and reasoners by ID alone, and loading takes the one the
// loader's Registry holds under that ID. So that a registry holding another definition
// under a saved ID (an edited tree file, a reasoner with other actions) is an error
// rather than agents silently running it, a save records a fingerprint of each one it
// names, under "definitions", and loading compares it with the registry's. A machine's
// fingerprint covers its states, not what they run (a hybrid.TreeState's tree), so the
// file records that too, by machine and state ("states"): a tree in a state edited
// after the save is refused at load as a Brain's tree is, rather than each agent's saved
// node memory of the old tree going to the new one.

// definitions is what a file records of the trees, machines and reasoners its
// components name: a fingerprint of each, by ID.
type definitions struct {
	Trees     map[string]string `json:"trees,omitempty"`
	Machines  map[string]string `json:"machines,omitempty"`
	Reasoners map[string]string `json:"reasoners,omitempty"`
	HTN       map[string]string `json:"htn,omitempty"`  // HTN planner domains, by name
	GOAP      map[string]string `json:"goap,omitempty"` // GOAP planner domains, by name

	// States records, by machine ID and then state name, what each state of the
	// machines named runs (activitiesOf): the machine's fingerprint covers its states'
	// names and parents only. Every machine named has an entry (empty if its states run
	// nothing), so a file holding the field tells "ran nothing" from "not recorded";
	// files written before it (none) are not checked.
	States map[string]map[string][]string `json:"states,omitempty"`
}

func (d *definitions) empty() bool {
	return d == nil || len(d.Trees)+len(d.Machines)+len(d.Reasoners)+len(d.HTN)+len(d.GOAP)+len(d.States) == 0
}

// activity is a tree, reasoner or planner domain a machine's state runs, as a file
// records it: "tree \"guard\" fnv1a64:…".
type activity struct {
	kind, name, print string
}

func (a activity) String() string { return fmt.Sprintf("%s %q %s", a.kind, a.name, a.print) }

// activitiesOf returns, by state name, what each state of m runs (fsm.Machine.Activity,
// for hybrid.TreeState the state's tree), states that run nothing left out: a
// *bt.Tree, then in the tree's pre-order the reasoner of each hybrid.UtilitySelector
// and the domain of each hybrid.HTNAction and GOAPAction in it (hybrid.SelectorAt,
// HTNAt, GOAPAt: bt.Tree's fingerprint covers a node's kind and name, not what it was
// built with); a *utility.Reasoner, *htn.Domain or *goap.Domain. Another Activity (a
// program's own value for its debugger) is not recorded.
func activitiesOf(m *fsm.Machine) map[string][]activity {
	out := map[string][]activity{}
	for i := 1; i <= m.Len(); i++ {
		s := m.State(i)
		var list []activity
		add := func(kind, name string, x any) {
			list = append(list, activity{kind, name, printOf(x)})
		}
		switch v := m.Activity(s).(type) {
		case *bt.Tree:
			add("tree", v.Name(), v)
			for n := range v.Len() {
				if r, _, ok := hybrid.SelectorAt(v, n); ok {
					add("reasoner", r.Name(), r)
				}
				if d, _, ok := hybrid.HTNAt(v, n); ok {
					add("htn", d.Name(), d)
				}
				if d, _, ok := hybrid.GOAPAt(v, n); ok {
					add("goap", d.Name(), d)
				}
			}
		case *utility.Reasoner:
			add("reasoner", v.Name(), v)
		case *htn.Domain:
			add("htn", v.Name(), v)
		case *goap.Domain:
			add("goap", v.Name(), v)
		}
		if list != nil {
			out[m.Name(s)] = list
		}
	}
	return out
}

// recordStates records what the states of machine m, named id, run.
func (d *definitions) recordStates(id string, m *fsm.Machine) {
	if d.States == nil {
		d.States = map[string]map[string][]string{}
	}
	states := map[string][]string{}
	for name, list := range activitiesOf(m) {
		texts := make([]string, len(list))
		for i, a := range list {
			texts[i] = a.String()
		}
		states[name] = texts
	}
	d.States[id] = states
}

// sameStates returns an error wrapping ErrDuplicateID if what a state of m (the
// registry's machine under saved ID id) runs is not what the file records it ran,
// naming the first such state in m's order and the first tree, reasoner or domain that
// differs; nil if the file records nothing of id's states (written before it did).
func (d *definitions) sameStates(field, id string, m *fsm.Machine) error {
	saved, ok := d.States[id]
	if !ok {
		return nil
	}
	now := activitiesOf(m)
	for i := 1; i <= m.Len(); i++ {
		state := m.Name(m.State(i))
		was, is := saved[state], now[state]
		for j := 0; j < max(len(was), len(is)); j++ {
			switch {
			case j < len(was) && j < len(is) && was[j] == is[j].String():
				continue
			case j < len(is):
				a := is[j]
				prev := "nothing"
				if j < len(was) {
					prev = was[j]
				}
				return fmt.Errorf("%s: machine %q: state %q: %s %q: %w: the registry's machine %q runs %s in state %q, where the saved one ran %s: the saved agents' memory of the state would run under another definition; load with the same one, or give the new machine another name",
					field, id, state, a.kind, a.name, ErrDuplicateID, id, a, state, prev)
			default:
				return fmt.Errorf("%s: machine %q: state %q: %w: the registry's machine %q runs nothing more in state %q, where the saved one ran %s: the saved agents' memory of the state would run under another definition; load with the same one, or give the new machine another name",
					field, id, state, ErrDuplicateID, id, state, was[j])
			}
		}
	}
	return nil
}

// of returns the map of kind ("tree", "machine", "reasoner", "htn", "goap"), made if
// make is set.
func (d *definitions) of(kind string, make bool) map[string]string {
	var m *map[string]string
	switch kind {
	case "tree":
		m = &d.Trees
	case "machine":
		m = &d.Machines
	case "htn":
		m = &d.HTN
	case "goap":
		m = &d.GOAP
	default:
		m = &d.Reasoners
	}
	if *m == nil && make {
		*m = map[string]string{}
	}
	return *m
}

// printOf returns the fingerprint of x, a *bt.Tree, *fsm.Machine, *utility.Reasoner,
// *htn.Domain or *goap.Domain:
// "fnv1a64:" and 16 hex digits of FNV-1a (64 bits) over a text of what the package
// exports of it. A tree's text is its [bt.Tree.Dump] (every node's kind, name and
// nesting, and its pre- and post-conditions); a machine's, its states' names and
// parents; a reasoner's, its policy and its actions' names, weights and combinations
// and their considerations' names, ranges, curves, weights and vetoes; an HTN domain's
// facts, tasks and root; a GOAP domain's facts, actions (name, cost, preconditions,
// effects) and goals (name, priority, conditions), not its sensed facts
// (goap.Builder.Sensed changes no plan, and files saved before a domain declared
// them load against it). Leaf code (operators) and
// parameters the packages keep unexported (a Wait's duration, a leaf's ports) are not
// in it.
func printOf(x any) string {
	b := fnv.New64a()
	switch v := x.(type) {
	case *bt.Tree:
		// the FNV-1a of its Dump, in time linear in the nodes (the text is O(depth²))
		return fmt.Sprintf("fnv1a64:%016x", v.Fingerprint())
	case *fsm.Machine:
		for i := range v.Len() {
			s := v.State(i + 1)
			// the parent's index, not its StateID: the text (and so the fingerprint)
			// of files written before StateIDs carried their machine's tag
			fmt.Fprintf(b, "%q %d\n", v.Name(s), v.Parent(s).Index())
		}
	case *utility.Reasoner:
		fmt.Fprintf(b, "%+v\n", v.Policy())
		for i := range v.Len() {
			a, _ := v.Action(i)
			fmt.Fprintf(b, "%q %v %v\n", a.Name, a.Weight, a.Combine)
			for _, c := range a.Considerations {
				fmt.Fprintf(b, "\t%q %+v %+v %v %v\n", c.Name, c.Range, c.Curve, c.Weight, c.Veto)
			}
		}
	case *htn.Domain:
		for f := range v.Facts() {
			fmt.Fprintf(b, "fact %q\n", v.FactName(htn.Fact(f)))
		}
		for t := htn.TaskID(0); v.TaskName(t) != ""; t++ {
			fmt.Fprintf(b, "task %q\n", v.TaskName(t))
		}
		fmt.Fprintf(b, "root %d\n", v.Root())
	case *goap.Domain:
		for f := range v.Facts() {
			fmt.Fprintf(b, "fact %q\n", v.FactName(goap.Fact(f)))
		}
		for i := range v.Actions() {
			a := v.Action(goap.ActionID(i))
			fmt.Fprintf(b, "action %q %v %v %v\n", a.Name, a.Cost, a.Pre, a.Effects)
		}
		for i := range v.Goals() {
			g := v.Goal(goap.GoalID(i))
			fmt.Fprintf(b, "goal %q %v %v\n", g.Name, g.Priority, g.Want)
		}
	}
	return fmt.Sprintf("fnv1a64:%016x", b.Sum64())
}
