// Package bt implements behavior trees for thousands of agents: one immutable compiled
// tree shared by every agent, and a small per-agent [Memory] kept in an ECS component.
//
// # Design
//
// Following Unreal Engine's behavior trees (a shared tree asset with per-instance node
// memory) rather than BehaviorTree.CPP's tree copy per agent:
//
//   - A tree is described once, with the builder functions below or as data
//     ([Registry.LoadXML] for BehaviorTree.CPP v4 XML as drawn in Groot2,
//     [Registry.LoadJSON] for our JSON), and passed to [Compile], which validates it and
//     flattens it into an immutable pre-order node array: a [Tree]. Node 0 is the root;
//     the children of node i follow it, each child's subtree contiguous.
//   - Each agent gets a [Memory] from [Tree.NewMemory] once: one 16-byte [NodeMemory]
//     per node (last status, running child, counter, timer). [Tree.Tick] allocates
//     nothing; one Tree may be ticked from several goroutines on distinct Memory and
//     [Context] values.
//   - Leaves are shared functions. A leaf receives a [Context]: the caller's per-agent
//     view (ctx.Agent), dt and simulation time, and its own node memory
//     ([Context.Node]).
//   - Timers use simulation time only ([Context.DT], [Context.Time]), never the wall
//     clock. dt is the time since this agent last ticked, so agents may think at
//     different rates. A dt that is NaN, infinite or negative, or a time that is NaN or
//     infinite, counts as 0 for that tick and is counted by [Context.ClockFaults]; a
//     duration that is not finite and >= 0 is an error of [Compile] and of the loaders.
//
// # Status and the halt contract
//
// A tick returns Running, Success, Failure or Skipped ([Status]; Skipped comes from
// preconditions, see below, from [SkipUnlessUpdated] when its entry was not updated, from
// a [Loop] whose ifEmpty is Skipped, and from a control node whose children were all
// skipped). A node's memory keeps the last status it returned; Running
// means it is in progress and resumes next tick, anything else means the next tick
// enters it afresh.
//
// When a parent abandons a Running child (a reactive node preempts it, an ancestor is
// halted, [Tree.Halt] on tree swap or agent death), every Running node of that subtree
// is halted exactly once, deepest first: an Action's OnHalt hook runs, then its memory is
// reset to Idle (a re-entered Wait waits its full time again). Idle and completed nodes
// are not halted.
//
// Each node's exact rule is in its constructor's doc comment, as a short list. Node
// vocabulary and semantics follow BehaviorTree.CPP v4 unless the comment says otherwise:
//
//   - control: [Sequence], [SequenceWithMemory], [Selector] (Fallback),
//     [ReactiveSequence], [ReactiveSelector], [Parallel], [IfThenElse], [WhileDoElse],
//     [Switch], and [Choose], the hook for hybrids (a utility reasoner or a state machine
//     picking the branch; a library's node built on it shows its own type with
//     [Node.Typed] and has Compile check what bt cannot, such as one child per option,
//     with [Node.Validate]);
//   - decorators: [Inverter], [ForceSuccess], [ForceFailure], [Repeat],
//     [RepeatUntilFailure], [RepeatUntilSuccess], [Retry], [Cooldown] (Unreal's rule),
//     [Timeout], [Delay], [RunOnce], [RunOnceThenSkip], [Precondition], [SubTree];
//   - leaves: [Condition], [Action], [Wait], [SetBlackboard], [CheckBlackboard],
//     [AlwaysSuccess], [AlwaysFailure], [Script], [ScriptCondition].
//   - BehaviorTree.CPP 4.x additions: [TryCatch], [ParallelAll], [AsyncSequence],
//     [AsyncFallback] (control);
//     [Loop] (LoopInt, LoopDouble, LoopString, LoopBool), [SkipUnlessUpdated],
//     [WaitValueUpdate] (decorators); [WasEntryUpdated], [Sleep], [UnsetBlackboard]
//     (leaves). The entry
//     nodes read the per-key sequence numbers of the blackboard ([blackboard.Entry]).
//
// Where we chose a rule that BehaviorTree.CPP leaves open or that does not fit a game
// loop, a test pins it: unbounded Repeat/Retry run at most one cycle per tick; timers
// count simulation time like [Wait] (the first tick's dt is not counted); reactive nodes
// halt the preempted branch after the preempting child's tick; a script that fails at
// run time is a Failure of its node, counted by [Context.ScriptErrors], where
// BehaviorTree.CPP throws.
//
// # Scripts, pre- and post-conditions
//
// [Script] and [ScriptCondition] run BehaviorTree.CPP 4.x scripts (package
// [github.com/archai-go/archai/ai/script], compiled once, evaluated on the agent's
// blackboard without allocating). Any node may carry preconditions ([Node.FailureIf],
// [Node.SuccessIf], [Node.SkipIf], [Node.While]) and post-conditions ([Node.OnSuccess],
// [Node.OnFailure], [Node.OnHalted], [Node.Post]), in files the attributes _failureIf …
// _post; a precondition may skip a node, and each control node's doc says how it treats
// a skipped child and all children skipped (BehaviorTree.CPP's rules).
//
// # Pre- and post-conditions
//
// Pre- and post-conditions (BehaviorTree.CPP 4.x's _failureIf, _successIf, _skipIf,
// _while, _onSuccess, _onFailure, _onHalted, _post) are scripts attached to any node, run
// on the agent's blackboard around the node's own tick. A node gets them with
// [Node.SkipIf] and its siblings (or as attributes in a file); a nil program removes one.
//
// Preconditions, checked before the node is ticked, in this order, the first that
// decides wins:
//
//  1. _failureIf true: the node returns Failure without being ticked;
//  2. _successIf true: the node returns Success without being ticked;
//  3. _skipIf true: the node returns [Skipped] without being ticked;
//  4. _while false: the node returns Skipped without being ticked.
//
// They are checked only when the node is entered (its last status is not Running): a
// Running node is not re-checked by _failureIf, _successIf and _skipIf. _while alone is
// also checked on every tick of a Running node: when it turns false the node's subtree
// is halted (halt hooks and _onHalted scripts, deepest first, as for any halt) and the
// node returns Skipped.
//
// Post-conditions run after the node finished with Success or Failure, whether its tick
// or a precondition decided it: _onSuccess (on Success) or _onFailure (on Failure), then
// _post. _onHalted runs when a Running node is halted, after its subtree's hooks and its
// own halt hook. Running and Skipped run no post-condition. The status a node returns is
// not changed by its post-conditions.
//
// Errors: a precondition whose script fails at run time (an entry not set …) counts as
// a Failure of the node: a Running node is halted first, then the node returns Failure
// without being ticked and its post-conditions run. A post-condition that fails stops
// (its earlier assignments stay) and the node's status is unchanged. Every run-time
// error is counted by [Context.ScriptErrors] (BehaviorTree.CPP throws instead).
//
// Precondition scripts must have a boolean or numeric value ([script.Program.Kind] not
// String): [Compile] reports others, wrapping [ErrScript]. A node without conditions
// costs one nil check per tick.
//
// Differences from BehaviorTree.CPP 4.x, each pinned by a test (cond_test.go): a
// skipped node's memory holds Skipped (BehaviorTree.CPP keeps it Idle), so [Tracer] and
// [Tree.Dump] show it; preconditions are checked whenever a node is entered, also a
// node that still holds Success or Failure, since here every status but Running means
// the next tick enters the node afresh (BehaviorTree.CPP checks them only on an Idle
// node, so its root ticked again after finishing skips them); a run-time error is a
// Failure, not an exception, since a game loop ticking thousands of agents cannot
// unwind on one agent's bad data.
//
// # Scripts in files
//
// Every attribute that takes a script (Script code, ScriptCondition code, Precondition
// if, and the pre- and post-conditions _failureIf, _successIf,
// _skipIf, _while, _onSuccess, _onFailure, _onHalted, _post on any node, SubTree
// included) is compiled once when the tree is built ([Registry.Tree]), against the
// registry's schema:
//
//   - names resolve like ports: through the SubTree scope of the node (a SubTree's
//     remapped port reads and writes the parent's key, a port remapped to a literal is a
//     constant, other names are the SubTree's private keys); @name is the key name of
//     the agent's root blackboard (the main tree's scope), from any SubTree. Conditions
//     on a <SubTree> element itself resolve in the scope that holds the element, as in
//     BehaviorTree.CPP.
//   - An entry a script reads must be declared: by a user leaf's port, a blackboard node
//     (SetBlackboard, CheckBlackboard, Switch), a := of another script anywhere in the
//     tree and its subtrees, or in Go on the registry's schema. Order in the file does
//     not matter: scripts that read an entry no one has declared yet wait until another
//     script's := declares it; user leaves' ports come first, then scripts, then the
//     blackboard nodes (which take their keys' types from the ports and scripts) when
//     scripts still wait for them. A script that does not compile declares nothing: an
//     unknown entry that only such a script's := would declare is reported with a note
//     that it follows from that script's error, and where ("this follows from the error
//     at guard.xml:21: the script there declares "alarm" and does not compile").
//   - A syntax error, an unknown entry, an entry whose type is not a boolean, number or
//     string (but a string assigned to an entry of a type implementing
//     encoding.TextUnmarshaler is converted by it: a literal once, at load; see
//     ai/script), a type error, or a condition whose value is a string is a [LoadError]
//     wrapping [ErrScript], [ErrPort] and the [*script.Error], naming file and line of
//     the element, the attribute, and the column in the script.
//
// Names registered with [Registry.RegisterEnum] are integer constants in scripts
// (BehaviorTree.CPP's scripting enums). archai also accepts {name} around a name in a
// script (" {hp} < 10 "), the comparison syntax of its earlier versions;
// BehaviorTree.CPP's scripts write names bare.
//
// # Blackboard and ports
//
// Leaves read and write the agent's blackboard ([Context.Blackboard], a
// [blackboard.Store]) through ports: [In] (a literal or a key, [Literal], [FromKey])
// and [Out] ([ToKey]). Reading a missing key is a clear result (false), never a panic.
// Leaves registered by name ([Registry.RegisterAction]) declare their ports with
// [InputPort] and [OutputPort] when a file is loaded, so a missing port, an unknown
// port, a literal that does not parse or a key used with two types is a load error
// naming the file, line (or JSON path) and node.
//
// A port written in a file is a literal or a blackboard entry: "{key}" (spaces around
// the braces and the name are ignored: " { key } "), "{=}" (the entry named like the
// port), "{@key}" (the agent's root blackboard, the same entry from every subtree). A
// slice port takes BehaviorTree.CPP's ';'-separated literal: "1;2;3" for []int, "a;b"
// for []string; a point port (r2.Vec, or any struct of the float64 fields X and Y)
// takes "x;y", as BehaviorTree.CPP's tutorial writes its Position2D: "3;4". [InputPortDefault] and [OutputPortDefault] give a port a default written
// the same way ("{point}", "{=}", "5,6"), used when the node does not write the port.
//
// In files, SetBlackboard and CheckBlackboard take their key's type from the ports of
// the user leaves that use the key, else from the literal (bool, int, float64, string).
// SetBlackboard works on a key of any type: it copies another key of the same type
// (value="{other}") or parses a literal by the type's UnmarshalText or kind, so
// <SetBlackboard value="{target_position}" output_key="goal"/> copies a vector. Whatever
// runs the tree hands it the agent's store: systems.Decision passes the Store of the
// agent's components.Blackboard, made from [Registry.Schema].
//
// # Tree files
//
// A BehaviorTree.CPP v4 document as Groot2 saves it loads unchanged
// ([Registry.LoadXML], [Registry.LoadXMLFrom], [Registry.LoadDocument]):
//
//	<root BTCPP_format="4">                      main_tree_to_execute is optional
//	  <include path="lib/moves.xml"/>             relative to this file
//	  <BehaviorTree ID="Guard" _description="…">  one root node; ID optional if alone
//	    <Fallback>
//	      <SubTree ID="Flee" name="flee" target="{home}" _autoremap="true"/>
//	      <Patrol speed="1.5" goal="{@goal}"/>
//	    </Fallback>
//	  </BehaviorTree>
//	  <TreeNodesModel>                            checked against registered leaves
//	    <Action ID="Patrol">
//	      <input_port name="speed" type="double" default="1.5"/>
//	      <input_port name="goal" type="r2.Vec"/>
//	    </Action>
//	    <SubTree ID="Flee"><input_port name="target" default="{home}"/></SubTree>
//	  </TreeNodesModel>
//	</root>
//
// Every tree of a document is registered under its ID, and [Registry.Tree] builds any of
// them: the main tree is main_tree_to_execute, else the document's only tree; a project
// with several trees and none named (Groot2 removes the attribute on save) has none, and
// [Document.Trees] lists what was loaded. <include> reads another file relative to the
// including one, each file once, and a cycle is an error naming the chain. _description
// is accepted on every element. A TreeNodesModel entry of a registered leaf must agree
// with the ports the leaf's factory declares (name, direction, type, default), and a
// SubTree model gives the SubTree's ports their defaults. Two SubTrees of one tree may
// not share a name. A loaded node is named by its name attribute, else by its type as
// the file writes it, and its type ([Tree.NodeType]) is that type (a registered leaf's
// registered name, for <TargetSeen/> and <Condition ID="TargetSeen"/> alike), so
// [Tree.Dump] and [Tracer] logs read like the file. Every problem
// is a [LoadError] with file and line; the full rules are in [Registry.LoadXML].
//
// # Seeing what the tree did
//
// [Memory.Status] is each node's last status; a [Tracer] records one agent's transition
// log (only changes, with simulation time); [Tree.Dump] prints the tree with an
// agent's statuses, and [Tree.Fingerprint] hashes its text (without the statuses) in
// time linear in the nodes; [Context.Visits] counts nodes ticked.
//
// # Types
//
//   - [Node]: a builder spec, made by the constructors; [Node.Named], [Node.Typed], [Node.OnStart],
//     [Node.OnHalt], and the conditions [Node.SkipIf] … [Node.Post].
//   - [Tree]: a compiled tree; [Compile], [Tree.Tick], [Tree.Halt], [Tree.NewMemory],
//     [Tree.NodeName], [Tree.NodeKind], [Tree.NodeType], [Tree.Children], [Tree.Parent], [Tree.Dump].
//   - [Registry], [Ports], [LoadError], [Document]: trees as data, user leaves by name;
//     [RegisterLoop] for a loop over a queue of the user's type.
//   - [Tracer] and [Transition]: transition logs.
//   - [Memory] and [NodeMemory]: one agent's state, readable for debugging and saving.
//   - [Context]: what a leaf sees.
//   - [Status]: Idle, Running, Success, Failure, Skipped.
//
// # Sources
//
//   - M. Colledanchise and P. Ögren, Behavior Trees in Robotics and AI: An Introduction,
//     CRC Press, 2018 (node semantics, reactivity, Sequence/Fallback with memory).
//   - BehaviorTree.CPP v4 documentation, https://www.behaviortree.dev (Sequence,
//     Fallback, ReactiveSequence, ReactiveFallback, halt semantics).
//   - Unreal Engine behavior trees: a shared tree asset with per-instance node memory,
//     and the Cooldown decorator, https://dev.epicgames.com/documentation/en-us/unreal-engine/behavior-tree-in-unreal-engine---overview
package bt
