// Package fsm implements finite and hierarchical state machines for thousands of agents:
// one immutable compiled [Machine] shared by every agent, and a 24-byte per-agent
// [Memory] kept in an ECS component. It imports nothing of archai but ai/blackboard
// (the type of [Context].Blackboard).
//
// # Design
//
//   - A machine is described with a [Builder]: states with [Hooks] (Enter, Update,
//     Exit), nested with [Builder.Substate] into hierarchical states (a state that is
//     itself a machine, with its own initial state and transitions), and a transition
//     table of [Transition] rows (from, event or guard, to), including any-state rows
//     ([Any]). [Builder.Build] validates it into a [Machine].
//   - Transitions are kept in the table, or inside states: an Update hook returns the
//     state to go to. Events are dispatched with [Machine.Dispatch]. Since a hook may
//     enter any state, [Builder.Build] takes states that no row reaches from the
//     initial state (see "Reachability" there).
//   - [Machine.Update] and [Machine.Dispatch] allocate nothing. Hooks receive a caller-
//     owned [Context] (the agent view in Context.Agent, DT and Time in simulation
//     seconds, the agent's blackboard store in Context.Blackboard), like bt.Context.
//   - Enter and exit order across levels follow UML's external transitions: exits from
//     the active leaf up to the least common ancestor (inner first), then entries down
//     to the target and its initial substates (outer first). A transition from a state
//     to one below it is local (the source is not left) and a row to an active target
//     below its source is skipped; an Update hook returning an active state stays. The
//     deepest active state's rows are tried first, after any-state rows. See [Machine]
//     for the exact rules.
//   - [Memory].Elapsed is the time in the active leaf; [Memory].Reentries counts the
//     updates in a row that re-entered it (a self-transition whose guard keeps holding).
//   - A state that runs a behavior tree and halts it on exit lives in package
//     ai/hybrid, which may import both.
//   - A log of transitions (not of updates) comes from [Builder.Observe]; the active
//     path from [Machine.Path]. Nothing iterates a Go map.
//
// # Types
//
//   - [Builder]: [NewBuilder], [Builder.State], [Builder.Substate], [Builder.Initial],
//     [Builder.Transition], [Builder.When], [Builder.On], [Builder.Observe],
//     [Builder.Build].
//   - [Machine]: [Machine.Update], [Machine.Dispatch], [Machine.Stop],
//     [Machine.IsActive], [Machine.Path], [Machine.Name] (a state's name),
//     [Machine.FullName] (with its parents: "Busy/Move"), [Machine.MachineName]
//     (the machine's own, its components.StateMachine.ID).
//   - [Memory], [Context], [Hooks], [Transition], [StateID] ([None], [Any],
//     [StateID.Index]: a StateID carries a tag of its machine, so another machine's
//     state is no state of this one), [Event]; [Machine.State], [Machine.Has],
//     [Machine.Lookup].
//
// # Sources
//
//   - D. Harel, "Statecharts: a visual formalism for complex systems", Science of
//     Computer Programming 8(3), 1987 (hierarchical states).
//   - OMG Unified Modeling Language 2.5.1, §14.2 State Machines (external transitions,
//     least common ancestor, entry/exit order); W3C SCXML 1.0 (transition priority by
//     document depth).
//   - R. Nystrom, Game Programming Patterns, "State", 2014 (hierarchical and
//     concurrent state machines in games).
package fsm
