package hybrid

import (
	"errors"
	"fmt"
	"strings"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/utility"
)

// UtilitySelector returns a behavior-tree composite that lets a utility reasoner pick
// the branch: child i runs while action i of r wins. It is built on [bt.Choose], so on
// every tick of the node:
//   - r decides for ctx.Agent with the agent's State and random source, returned by
//     state (hysteresis, Softmax and TopN work as in [utility.Reasoner.Decide]; the
//     State keeps every score for debugging), at simulation time ctx.Time
//     ([utility.Reasoner.DecideAt]: flip-flops, [utility.State].FlipFlops, are counted
//     in seconds of it), or, for a Context with neither Time nor DT set (no clock),
//     taking each decision to last 0.1 s ([utility.Reasoner.Decide]);
//   - if the winner changed while the previous winner's subtree is Running, that
//     subtree is halted (its Running nodes get their halt hooks, deepest first, and are
//     reset) before the new winner is ticked;
//   - the winner's status is returned; no winner ([utility.None]: everything vetoed) or
//     a nil State returns Failure (every action has a child: see below).
//
// The node's kind is Choose (bt.Tree.NodeKind); its type, which bt.Tree.Dump, the
// transition log and systems/debugview show, is "UtilitySelector" (bt.Tree.NodeType),
// and [SelectorAt] returns r and state (systems.Diagnose and package systems/save learn
// the reasoners a world runs from it).
//
// A nil r (utility.New's error ignored) or a nil state makes a node that bt.Compile
// refuses with bt.ErrNilFunc. Give one child per action, in the reasoner's order:
// bt.Compile refuses a node with fewer children (an agent whose winner has no child would
// fail every tick) or more (the extra ones would never run) with an error wrapping
// [ErrChildPerAction] and bt.ErrChildCount that names the node, the reasoner, the
// numbers of actions and children, and the actions without a child. state may
// return a nil Source (random policies then pick like Argmax). Give each UtilitySelector
// a State of its own: a State that another reasoner decided with starts afresh (see
// utility.Reasoner.Score), so two nodes sharing one would never hold a choice. Keep the State in a
// field of one of the agent's components (not behind a pointer, in a slice or a
// blackboard) and systems/debugview shows its scores for the selected agent (it finds
// the State there and learns the reasoner from its decisions: utility.Trace).
//
// Removing agents: unlike a [TreeRun], a utility.State kept in a component of your own
// is not handed to a [Keeper], and its Scores and Considerations slices are not held by
// systems.Arena. Arche moves components with a byte copy Go's garbage collector does not
// see, so if such agents are removed, keep a second reference to each agent's slices
// yourself (made with Reasoner.NewState at spawn, in a table by entity ID), or keep the
// State in a components.UtilityBrain, which the Arena holds.
//
// Such a State (in a component's field) is checked by systems.Diagnose as a
// UtilityBrain's is: among others, a utility.KeyInput of r reading a key of the agent's
// blackboard schema that no store has ever held vetoes its action for every agent
// (blackboard_key_unwritten); the note names this node, its tree and state, learnt by
// calling state with the agent's *systems.Agent (see [SelectorAt]): keep state a plain
// accessor.
func UtilitySelector(name string, r *utility.Reasoner, state func(ctx *bt.Context) (*utility.State, utility.Source), children ...*bt.Node) *bt.Node {
	if r == nil || state == nil { // (utility.New's error ignored): bt.Compile refuses the node
		return bt.Choose(name, nil, children...).Typed("UtilitySelector")
	}
	return bt.Choose(name, func(ctx *bt.Context) int {
		s, src := state(ctx)
		if s == nil {
			return utility.None
		}
		if ctx.Time == 0 && ctx.DT == 0 {
			return r.Decide(ctx.Agent, s, src) // no clock given: 0.1 s a decision
		}
		return r.DecideAt(ctx.Agent, s, src, ctx.Time)
	}, children...).Typed("UtilitySelector").Validate(func(kids int) error { return childPerAction(r, kids) }).
		Attach(&selectorNode{r: r, state: state})
}

// childPerAction is a UtilitySelector's check at bt.Compile: one child per action of r.
func childPerAction(r *utility.Reasoner, kids int) error {
	n := r.Len()
	var b strings.Builder
	switch {
	case kids == n:
		return nil
	case kids == n+1:
		fmt.Fprintf(&b, "child %d matches no action (it would never run)", n)
	case kids > n:
		fmt.Fprintf(&b, "children %d to %d match no action (they would never run)", n, kids-1)
	default:
		const shown = 3 // actions named; the rest counted
		b.WriteString("action")
		if n-kids > 1 {
			b.WriteString("s")
		}
		for i := kids; i < n && i < kids+shown; i++ {
			if i > kids {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " %d %q", i, r.ActionName(i))
		}
		if n-kids > shown {
			fmt.Fprintf(&b, " and %d more", n-kids-shown)
		}
		if n-kids == 1 {
			b.WriteString(" has no child (an agent it wins for fails every tick)")
		} else {
			b.WriteString(" have no child (an agent one of them wins for fails every tick)")
		}
	}
	return fmt.Errorf("%w: %d for the %d actions of reasoner %q (%w): %s",
		bt.ErrChildCount, kids, n, r.Name(), ErrChildPerAction, b.String())
}

// TreeRun is one agent's state of a behavior tree that runs inside a state machine's
// state ([TreeState]): the tree's node memory, the bt.Context it is ticked with and its
// last status. It is plain data for a component, saved by package systems/save with
// the rest of the component (Memory and Status; Context is not saved). The zero TreeRun
// is usable: its Memory is allocated on the first tick (once per agent), and so is a
// Memory that does not fit the tree (another tree's, from a file: on the first tick
// with a Context never ticked, as a loaded one is, the Memory is checked with
// bt.Tree.CheckMemory).
//
// Context.Agent (cleared after the tick), DT and Time are copied from the fsm.Context
// on every tick, and so is
// Blackboard when the fsm.Context has one (else a Context.Blackboard set here is kept,
// but not saved: set it again after a load). Context is tagged json:"-": it is the
// scratch of one tick (the agent view, an interface, cannot be saved), and its
// counters (bt.Context.ClockFaults, ScriptErrors) are diagnostics that a load starts
// again from 0.
//
// Tree is the tree last ticked or halted with this TreeRun, set by TreeState (nil
// before its first tick; not saved): it lets a debugger (systems/debugview) find and
// show the tree and its node statuses from the agent's components alone.
//
// Removing agents: Memory is allocated after the agent is spawned, and a TreeRun usually
// sits in a component of the program's own, which Arche may move with a byte copy that
// Go's garbage collector does not see. TreeState therefore hands the TreeRun to the
// agent view's [Keeper] on its first update and whenever it allocates the Memory; under
// systems.FSM that is the world's systems.Arena, so agents with a TreeRun in any
// component may be removed with no further call (from the first update of the
// TreeRun on). Context.Agent is the view of one update only: TreeState sets it before
// the tick and clears it after the tick or halt, so the component keeps no pointer to
// it. Under a machine runner of your own whose ctx.Agent is not a Keeper, keep a
// reference to Memory.Nodes() yourself, or do not remove such agents.
type TreeRun struct {
	Memory  bt.Memory
	Context bt.Context `json:"-"`
	Status  bt.Status  // the root's last status; Idle before the first tick and after a halt
	Tree    *bt.Tree   `json:"-"`
}

// ErrChildPerAction is wrapped (with bt.ErrChildCount) by bt.Compile's error for a
// [UtilitySelector] whose children are not one per action of its reasoner.
var ErrChildPerAction = errors.New("hybrid: a UtilitySelector wants one child per action, in the reasoner's order")

// Errors of [TreeState]'s hooks (fsm.Hooks.Err), wrapped by fsm.Builder.Build.
var (
	ErrNilTree = errors.New("hybrid: TreeState has no tree (nil *bt.Tree: bt.Compile's error ignored?)")
	ErrNilRun  = errors.New("hybrid: TreeState has no run function (nil): it could find no TreeRun")
)

// TreeState returns the hooks of a state machine state that runs tree while it is
// active:
//   - Update ticks the tree once for the agent (its TreeRun is returned by run); when the
//     root returns Success, Failure or bt.Skipped and done is not nil, Update returns
//     done(ctx, status) — the state to go to, or fsm.None to stay (the tree then starts
//     over on the next update); a done that returns this state (or another active one)
//     stays too, as fsm.None does (see fsm.Hooks): to run Exit and Enter again, add a
//     row from the state to itself;
//   - a Skipped root (its own _skipIf or _while, or every child of a Sequence skipped)
//     did nothing in this update: done sees Skipped, not Success, so it can tell "the
//     tree did its work" from "the tree had nothing to do" (BehaviorTree.CPP's tick
//     returns SKIPPED to its caller too). Not calling done would leave the state for
//     good while the skip condition holds; a done written only for Success and Failure
//     must decide what Skipped means (staying is fsm.None);
//   - Exit halts the tree ([bt.Tree.Halt]: every Running node gets its halt hook once,
//     then the node memory is reset but for cooldowns still running), so a re-entered
//     state starts the tree afresh and a Cooldown in it still limits its child; a
//     TreeRun shared by states of different trees starts each tree with a fresh
//     memory when its state is entered (cooldowns included): give each state its own
//     TreeRun to keep its cooldowns;
//   - a TreeRun whose Memory is another tree's (an earlier build of tree: the agent's
//     machine swapped for one built again over a reloaded tree since its last update;
//     or another state's tree in a TreeRun the states share) is halted by the tree it
//     belongs to (bt.Memory.Tree), its Running nodes getting their halt hooks once,
//     deepest first, and then starts tree from its root, as a Brain's memory does when
//     its Tree is replaced; Exit halts such a Memory with the tree it belongs to too.
//     package systems/save writes an idle TreeRun of an earlier build as this update
//     makes it and refuses one with a node Running (see the README's hot reload);
//   - Activity is tree, so a debugger shows the tree under the state (see
//     fsm.Hooks.Activity), and each tick sets TreeRun.Tree to tree (a halt, to the
//     tree that halted).
//
// Set Enter on the returned Hooks to add an entry action. A nil TreeRun from run skips
// the tick. The tree's dt is the machine's ctx.DT.
//
// A nil tree (bt.Compile's error ignored) or a nil run makes hooks whose Err wraps
// ErrNilTree or ErrNilRun: fsm.Builder.Build refuses the state with fsm.ErrHooks,
// naming it, rather than a state that does nothing (hooks used without Build do
// nothing: Update stays, Exit returns).
func TreeState(tree *bt.Tree, run func(ctx *fsm.Context) *TreeRun, done func(ctx *fsm.Context, s bt.Status) fsm.StateID) fsm.Hooks {
	var fault error
	switch {
	case tree == nil:
		fault = ErrNilTree
	case run == nil:
		fault = ErrNilRun
	}
	if fault != nil {
		return fsm.Hooks{Err: fault, Update: func(*fsm.Context) fsm.StateID { return fsm.None }}
	}
	state := new(stateKey) // this state's key for a Keeper
	return fsm.Hooks{
		Activity: tree,
		Update: func(ctx *fsm.Context) fsm.StateID {
			r := run(ctx)
			if r == nil {
				return fsm.None
			}
			// a Context never ticked (a new TreeRun, or one loaded: Context is not
			// saved) checks the Memory once: one of the tree's length may still
			// not fit it (another tree's, a tampered file)
			// another state's tree in a TreeRun the states share: that state's
			// Exit halted it, so the nodes start over for this tree (on the
			// same storage when it has room)
			fresh := r.Context.Visits() == 0
			r.Context.Agent, r.Context.DT, r.Context.Time = ctx.Agent, 0, ctx.Time
			if ctx.Blackboard != nil {
				r.Context.Blackboard = ctx.Blackboard
			}
			if old := r.Memory.Tree(); old != nil && old != tree {
				// another build of the tree (the machine was swapped for one built
				// again since the agent's last update) or another state's tree: the
				// nodes still Running in it are halted by the tree they ran in, as
				// a Brain's are when its Tree is replaced, then they start over
				if r.Memory.Len() == old.Len() {
					old.Halt(&r.Memory, &r.Context)
				}
				tree.ResetMemory(&r.Memory)
				fresh = true
			} else if r.Memory.Len() != tree.Len() || fresh && tree.CheckMemory(r.Memory) != nil {
				tree.ResetMemory(&r.Memory)
				fresh = true
			}
			r.Context.DT = ctx.DT
			r.Tree = tree
			if k, ok := ctx.Agent.(Keeper); ok && fresh {
				k.KeepTreeRun(state, r)
			}
			r.Status = tree.Tick(&r.Memory, &r.Context)
			r.Context.Agent = nil // the view of one update: not kept in the component
			if r.Status != bt.Running && done != nil {
				return done(ctx, r.Status)
			}
			return fsm.None
		},
		Exit: func(ctx *fsm.Context) {
			r := run(ctx)
			if r == nil {
				return
			}
			by := tree
			if old := r.Memory.Tree(); old != nil && old != tree {
				// another build of the tree (a machine swapped since the agent's last
				// update) or another state's tree: halted by the tree it ran in
				by = old
			}
			if r.Memory.Len() != by.Len() {
				return
			}
			r.Context.Agent, r.Context.DT, r.Context.Time = ctx.Agent, 0, ctx.Time
			if ctx.Blackboard != nil {
				r.Context.Blackboard = ctx.Blackboard
			}
			by.Halt(&r.Memory, &r.Context)
			r.Status, r.Tree, r.Context.Agent = bt.Idle, by, nil
		},
	}
}

// Keeper is implemented by an agent view (the fsm.Context.Agent of a state machine's
// update) whose owner can keep a second reference to what a [TreeRun] points to;
// systems.Agent implements it with the world's systems.Arena.
//
// Why: an ECS that moves components with a plain byte copy (Arche v0.15.3 does, when an
// entity is removed or changes archetype) hides such a move from Go's garbage collector,
// so node memory referenced only from a moved TreeRun can be freed while in use. A
// TreeRun is usually a field of a component of the program's own, which archai's own
// bookkeeping does not know; [TreeState] therefore hands it to the Keeper whenever the
// TreeRun's Memory may be new to it: on the first update of a TreeRun's Context (a new
// or loaded TreeRun) and whenever it allocates the Memory.
//
// KeepTreeRun must keep r.Memory's node memory (bt.Memory.Nodes), r.Context.Blackboard
// and r.Tree for the agent, replacing what it kept before under the same state key (one
// key per TreeState, so a TreeRun shared by several states is kept by each) and
// dropping it when the agent's entity is replaced. It is called from the goroutine
// updating the agent: several at once when machines are updated by workers. It must not
// keep r itself (r points into a component).
type Keeper interface {
	KeepTreeRun(state any, r *TreeRun)
}

// stateKey identifies one TreeState to a Keeper (a pointer: not zero-sized, so each
// new one is distinct).
type stateKey struct{ _ byte }
