package bt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/archai-go/archai/ai/script"
)

// Indices of a node's condition scripts in conds.
const (
	condFailureIf = iota
	condSuccessIf
	condSkipIf
	condWhile
	condOnSuccess
	condOnFailure
	condOnHalted
	condPost
	condCount
)

// condNames are the attribute names of the condition scripts, as in BehaviorTree.CPP.
var condNames = [condCount]string{
	"_failureIf", "_successIf", "_skipIf", "_while",
	"_onSuccess", "_onFailure", "_onHalted", "_post",
}

// conds holds a node's pre- and post-condition scripts; nil entries are unset.
type conds [condCount]*script.Program

func (n *Node) setCond(i int, prog *script.Program) *Node {
	if n == nil {
		return n
	}
	if n.conds == nil {
		if prog == nil {
			return n
		}
		n.conds = &conds{}
	}
	n.conds[i] = prog
	return n
}

// compileConds copies n's condition scripts for the compiled node and checks that the
// preconditions are conditions. A node without any gets nil.
func compileConds(n *Node) (*conds, error) {
	if n.conds == nil || *n.conds == (conds{}) {
		return nil, nil
	}
	c := *n.conds
	for i := range condOnSuccess {
		if c[i] != nil && c[i].Kind() == script.String {
			return nil, fmt.Errorf("%w: %s: the script's value is a string, not a condition", ErrScript, condNames[i])
		}
	}
	return &c, nil
}

// checkScript checks the program of a Script or ScriptCondition node.
func checkScript(n *Node) error {
	if n.prog == nil {
		return ErrNilFunc
	}
	if n.kind == kindScriptCondition && n.prog.Kind() == script.String {
		return fmt.Errorf("%w: ScriptCondition: the script's value is a string, not a condition", ErrScript)
	}
	return nil
}

// precondition checks the preconditions of node i (see "Pre- and post-conditions" in
// script.go); decided reports whether one decided the node's status, without its tick.
func (t *Tree) precondition(m []NodeMemory, i int32, c *conds, ctx *Context) (s Status, decided bool) {
	if m[i].Status == Running {
		p := c[condWhile]
		if p == nil {
			return Idle, false
		}
		ok, err := p.Bool(ctx.Blackboard)
		if err == nil && ok {
			return Idle, false
		}
		t.haltRange(m, i, t.nodes[i].end, ctx)
		if err != nil {
			ctx.scriptFailed(i, err)
			return Failure, true
		}
		return Skipped, true
	}
	// On entry, in BehaviorTree.CPP's order; the first that decides wins.
	for k, result := range [...]Status{condFailureIf: Failure, condSuccessIf: Success, condSkipIf: Skipped, condWhile: Skipped} {
		p := c[k]
		if p == nil {
			continue
		}
		ok, err := p.Bool(ctx.Blackboard)
		if err != nil {
			ctx.scriptFailed(i, err)
			return Failure, true
		}
		if ok != (k == condWhile) {
			return result, true
		}
	}
	return Idle, false
}

// postcondition runs the post-conditions of node i after it returned s.
func (t *Tree) postcondition(c *conds, s Status, i int32, ctx *Context) {
	switch s {
	case Success:
		t.runScript(c[condOnSuccess], i, ctx)
	case Failure:
		t.runScript(c[condOnFailure], i, ctx)
	default:
		return
	}
	t.runScript(c[condPost], i, ctx)
}

// runScript runs a post-condition (or _onHalted) script of node i, if set.
func (t *Tree) runScript(p *script.Program, i int32, ctx *Context) {
	if p == nil {
		return
	}
	if err := p.Exec(ctx.Blackboard); err != nil {
		ctx.scriptFailed(i, err)
	}
}

// scriptFailed counts a run-time script error of node i.
func (c *Context) scriptFailed(i int32, err error) {
	c.scriptErrors++
	c.lastScriptNode = i
	c.lastScriptErr = err
}

// condLabel is the conditions of node i as Dump writes them: ` _skipIf="hp < 10"`.
func (t *Tree) condLabel(i int) string {
	c := t.nodes[i].conds
	if c == nil {
		return ""
	}
	var b strings.Builder
	for k, p := range c {
		if p != nil {
			b.WriteString(" " + condNames[k] + "=" + strconv.Quote(shortenTo(p.Source(), 32)))
		}
	}
	return b.String()
}
