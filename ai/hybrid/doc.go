// Package hybrid joins archai's decision models the way shipped games combine them:
//
//   - a behavior tree on the outside with a utility choice inside a branch:
//     [UtilitySelector] is a bt node (built on bt.Choose) whose children are the
//     options of a utility.Reasoner; the reasoner picks the branch on every tick, and the
//     branch it abandons is halted;
//   - a state machine for the top-level mode with a behavior tree inside a state:
//     [TreeState] returns the fsm.Hooks of a state that ticks a tree while active and
//     halts it on exit; [TreeRun] is the agent's tree memory for it.
//   - a behavior tree that carries out a plan: [HTNAction] and [GOAPAction] are bt
//     actions that run an ai/htn or ai/goap plan one think per tick and halt its running
//     task when the tree abandons them; [RegisterHTN] and [RegisterGOAP] register them
//     in a bt.Registry for trees loaded from files.
//
// [HTNAt], [GOAPAt] and [SelectorAt] find these nodes in a compiled tree and return
// what they were built with (domain or reasoner, and the run or state function):
// systems.Diagnose reads an agent's plans and choices with them, and the debug view
// shows an HTNAction's or GOAPAction's plan as the agent's planner.
//
// The parts stay independent: ai/utility and ai/fsm know nothing of ai/bt; only this
// package imports all three. Like them it allocates nothing per decision and keeps all
// per-agent state in plain data the caller stores in components.
//
// Sources: the hybrid architectures in K. Dill, "Structural Architecture — Common Tricks
// of the Trade", Game AI Pro ch. 5, 2013, and D. Mark's utility-driven behavior
// selection (Behavioral Mathematics for Game AI, 2009).
package hybrid
