package save

import (
	"fmt"
	"hash/fnv"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/utility"
)

// A file names trees, machines and reasoners by ID alone, and loading takes the one the
// loader's Registry holds under that ID. So that a registry holding another definition
// under a saved ID (an edited tree file, a reasoner with other actions) is an error
// rather than agents silently running it, a save records a fingerprint of each one it
// names, under "definitions", and loading compares it with the registry's.

// definitions is what a file records of the trees, machines and reasoners its
// components name: a fingerprint of each, by ID.
type definitions struct {
	Trees     map[string]string `json:"trees,omitempty"`
	Machines  map[string]string `json:"machines,omitempty"`
	Reasoners map[string]string `json:"reasoners,omitempty"`
	HTN       map[string]string `json:"htn,omitempty"`  // HTN planner domains, by name
	GOAP      map[string]string `json:"goap,omitempty"` // GOAP planner domains, by name
}

func (d *definitions) empty() bool {
	return d == nil || len(d.Trees)+len(d.Machines)+len(d.Reasoners)+len(d.HTN)+len(d.GOAP) == 0
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
