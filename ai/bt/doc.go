// Package bt implements behavior trees for thousands of agents: one immutable compiled
// tree shared by every agent, and a small per-agent [Memory] kept in an ECS component.
//
// # Design
//
// Following Unreal Engine's behavior trees (a shared tree asset with per-instance node
// memory) rather than BehaviorTree.CPP's tree copy per agent:
//
//   - A tree is described once with the builder functions ([Sequence], [Selector],
//     [ReactiveSequence], [ReactiveSelector], [Inverter], [Cooldown], [Wait],
//     [Condition], [Action]) and passed to [Compile], which validates it and flattens it
//     into an immutable pre-order node array: a [Tree]. Node 0 is the root; the children
//     of node i follow it, each child's subtree contiguous.
//   - Each agent gets a [Memory] from [Tree.NewMemory] once: one 16-byte [NodeMemory]
//     per node (last status, running child, counter, timer). [Tree.Tick] allocates
//     nothing; one Tree may be ticked from several goroutines on distinct Memory and
//     [Context] values.
//   - Leaves are shared functions. A leaf receives a [Context]: the caller's per-agent
//     view (ctx.Agent), dt and simulation time, and its own node memory
//     ([Context.Node]).
//   - Timers use simulation time only ([Context.DT], [Context.Time]), never the wall
//     clock. dt is the time since this agent last ticked, so agents may think at
//     different rates.
//
// # Status and the halt contract
//
// A tick returns Running, Success or Failure ([Status]). A node's memory keeps the last
// status it returned; Running means it is in progress and resumes next tick, anything
// else means the next tick enters it afresh.
//
// When a parent abandons a Running child (a reactive node preempts it, an ancestor is
// halted, [Tree.Halt] on tree swap or agent death), every Running node of that subtree
// is halted exactly once, deepest first: an Action's OnHalt hook runs, then its memory is
// reset to Idle (a re-entered Wait waits its full time again). Idle and completed nodes
// are not halted.
//
// Each node's exact rule is in its constructor's doc comment. Sequence and Selector have
// memory and follow BehaviorTree.CPP v4's Sequence and Fallback (resume at the running
// child; a Sequence restarts from its first child after a failure); the reactive ones
// follow ReactiveSequence and ReactiveFallback; Cooldown follows Unreal's Cooldown
// decorator.
//
// # Types
//
//   - [Node]: a builder spec, made by the constructors; [Node.Named], [Node.OnStart],
//     [Node.OnHalt].
//   - [Tree]: a compiled tree; [Compile], [Tree.Tick], [Tree.Halt], [Tree.NewMemory],
//     [Tree.NodeName], [Tree.Children].
//   - [Memory] and [NodeMemory]: one agent's state, readable for debugging and saving.
//   - [Context]: what a leaf sees.
//   - [Status]: Idle, Running, Success, Failure.
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
