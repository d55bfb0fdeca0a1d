package bt

import (
	"errors"

	"github.com/archai-go/archai/ai/script"
)

// ErrScript is wrapped by the errors of [Compile] and the loaders about scripts: a
// script that does not compile (wrapping the [script.Error] too, so errors.Is also sees
// script.ErrSyntax, script.ErrUnknownEntry, script.ErrType …), or a condition whose value
// is a string. The loaders' script errors wrap [ErrPort] too (a script attribute is a
// port of its node).
var ErrScript = errors.New("script error")

// Script is a leaf that runs a script of BehaviorTree.CPP 4.x's scripting language
// ([script.Program], compiled once against the agents' blackboard schema) on the
// agent's blackboard ([Context.Blackboard]), like BehaviorTree.CPP's Script node:
//   - every statement runs in order: returns Success;
//   - a run-time error (an entry not set, a division by zero, a value that does not
//     convert, a string longer than [script.MaxString], a store of another schema): the
//     statement stops the script (earlier assignments stay), returns Failure, and
//     [Context.ScriptErrors] counts it.
//
// BehaviorTree.CPP throws on a run-time error, which aborts the whole tick; a game loop
// cannot, so the error is a Failure of this node that a Fallback can handle, and it is
// visible in [Context.LastScriptError]. Never Running. prog must not be nil.
func Script(prog *script.Program) *Node { return &Node{kind: kindScript, prog: prog} }

// ScriptCondition is a condition leaf whose question is a script (BehaviorTree.CPP 4.x's
// ScriptCondition): the script runs on the agent's blackboard and its value is the
// answer ([script.Program.Bool]: a Bool, or a number not zero):
//   - true: returns Success; false: returns Failure;
//   - a run-time error: returns Failure and [Context.ScriptErrors] counts it.
//
// A script whose value is a string is an error of [Compile] (wrapping [ErrScript]).
// Never Running. prog must not be nil.
func ScriptCondition(prog *script.Program) *Node {
	return &Node{kind: kindScriptCondition, prog: prog}
}

// FailureIf sets the _failureIf precondition: when prog is true on entry, n returns
// Failure without being ticked. It returns n. The rules are in the package doc, under
// "Pre- and post-conditions".
func (n *Node) FailureIf(prog *script.Program) *Node { return n.setCond(condFailureIf, prog) }

// SuccessIf sets the _successIf precondition: when prog is true on entry, n returns
// Success without being ticked. It returns n.
func (n *Node) SuccessIf(prog *script.Program) *Node { return n.setCond(condSuccessIf, prog) }

// SkipIf sets the _skipIf precondition: when prog is true on entry, n returns [Skipped]
// without being ticked. It returns n.
func (n *Node) SkipIf(prog *script.Program) *Node { return n.setCond(condSkipIf, prog) }

// While sets the _while precondition: when prog is false on entry n returns [Skipped]
// without being ticked; when it turns false while n is Running, n's subtree is halted and
// n returns Skipped. It returns n.
func (n *Node) While(prog *script.Program) *Node { return n.setCond(condWhile, prog) }

// OnSuccess sets the _onSuccess post-condition: prog runs after n returns Success. It
// returns n.
func (n *Node) OnSuccess(prog *script.Program) *Node { return n.setCond(condOnSuccess, prog) }

// OnFailure sets the _onFailure post-condition: prog runs after n returns Failure. It
// returns n.
func (n *Node) OnFailure(prog *script.Program) *Node { return n.setCond(condOnFailure, prog) }

// OnHalted sets the _onHalted post-condition: prog runs when n is halted while Running,
// after the halt hooks of its subtree and its own [Node.OnHalt] hook. It returns n.
func (n *Node) OnHalted(prog *script.Program) *Node { return n.setCond(condOnHalted, prog) }

// Post sets the _post post-condition: prog runs after n returns Success or Failure
// (after _onSuccess or _onFailure). It returns n.
func (n *Node) Post(prog *script.Program) *Node { return n.setCond(condPost, prog) }

// ScriptErrors returns the number of scripts that failed at run time with this Context
// since it was made: Script and ScriptCondition nodes, script preconditions and
// post-conditions. A correct tree sees 0.
func (c *Context) ScriptErrors() uint64 { return c.scriptErrors }

// CountScriptError counts err as a run-time script error of the leaf being ticked or
// halted ([Context.NodeIndex]), in [Context.ScriptErrors] and [Context.LastScriptError]:
// for a leaf that runs scripts of its own, outside the tree (hybrid.HTNAction's
// planner), so that its failures are seen where the tree's are. A nil err is not
// counted.
func (c *Context) CountScriptError(err error) {
	if err != nil {
		c.scriptFailed(int32(c.node), err)
	}
}

// LastScriptError returns the pre-order index of the node whose script failed last with
// this Context, and the error (a [*script.Error]); -1 and nil if none failed.
//
// Important: the error is shared by every agent running the tree: do not modify it.
func (c *Context) LastScriptError() (node int, err error) {
	if c.lastScriptErr == nil {
		return -1, nil
	}
	return int(c.lastScriptNode), c.lastScriptErr
}
