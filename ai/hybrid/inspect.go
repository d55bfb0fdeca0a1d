package hybrid

import (
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/utility"
)

// HTNAt returns the domain and the run function of node i of t when it is an
// [HTNAction] (built in Go, or registered with [RegisterHTN] and loaded from a file),
// and false for any other node. A diagnosis or a debugger reads an agent's plan with it
// (systems.Diagnose: an agent whose plan run by the node never decomposes; the run
// function is called with a context whose Agent is the agent's view, as a tick's is, so
// keep it a plain accessor). It reads what the node was built with (bt.Tree.Attached)
// and ticks nothing.
//
// Panics: if i is out of range.
func HTNAt(t *bt.Tree, i int) (*htn.Domain, func(ctx *bt.Context) (*htn.Run, *htn.State), bool) {
	if n, ok := t.Attached(i).(*htnNode); ok {
		return n.d, n.run, true
	}
	return nil, nil, false
}

// GOAPAt returns the domain and the run function of node i of t when it is a
// [GOAPAction] (built in Go, or registered with [RegisterGOAP] and loaded from a
// file), and false for any other node, as [HTNAt] does for an HTNAction
// (systems.Diagnose: an agent whose plan run by the node can reach no goal; the debug
// view: the plan shown as the agent's planner; package systems/save: a fingerprint of
// the domain a state's tree runs).
//
// Panics: if i is out of range.
func GOAPAt(t *bt.Tree, i int) (*goap.Domain, func(ctx *bt.Context) (*goap.Run, *goap.State), bool) {
	if n, ok := t.Attached(i).(*goapNode); ok {
		return n.d, n.run, true
	}
	return nil, nil, false
}

// SelectorAt returns the reasoner and the state function of node i of t when it is a
// [UtilitySelector], and false for any other node, as [HTNAt] does for an HTNAction
// (systems.Diagnose: a consideration of the node's reasoner reading a blackboard key
// nothing writes).
//
// Panics: if i is out of range.
func SelectorAt(t *bt.Tree, i int) (*utility.Reasoner, func(ctx *bt.Context) (*utility.State, utility.Source), bool) {
	if n, ok := t.Attached(i).(*selectorNode); ok {
		return n.r, n.state, true
	}
	return nil, nil, false
}

// htnNode is what an HTNAction's node carries for HTNAt (bt.Node.Attach).
type htnNode struct {
	d   *htn.Domain
	run func(ctx *bt.Context) (*htn.Run, *htn.State)
}

// goapNode is what a GOAPAction's node carries for GOAPAt.
type goapNode struct {
	d   *goap.Domain
	run func(ctx *bt.Context) (*goap.Run, *goap.State)
}

// selectorNode is what a UtilitySelector's node carries for SelectorAt.
type selectorNode struct {
	r     *utility.Reasoner
	state func(ctx *bt.Context) (*utility.State, utility.Source)
}
