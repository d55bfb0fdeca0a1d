package components

import (
	"github.com/archai-go/archai/ai/fsm"
)

// StateMachine is an agent's state machine: the compiled machine shared by every agent
// that runs it, and this agent's current state (fsm.Memory: active state, previous
// state, time in state). systems.FSM updates it on the agent's Think cadence. The
// zero Memory starts the machine on its first update.
//
// ID, the machine's name (fsm.Machine.MachineName), is the truth of a saved world; Machine
// is a cache of its lookup (not saved). An empty ID is saved as Machine.MachineName(), and
// systems.FSM sets it so at the agent's first update. A program that swaps the Machine
// calls the old machine's Stop first (its Exit hooks run, Memory.Active is None) and
// sets ID to the new machine's name (or ""): save.Save refuses an ID that is not its
// Machine's name. Without the Stop, the Memory holds a state of the old machine;
// systems.FSM sees the ID of another machine beside a started Memory, restarts the new
// machine from its initial state, sets ID, and counts it (FSM.Swapped).
type StateMachine struct {
	ID      string       // the machine's name in the program's registry
	Machine *fsm.Machine `json:"-"`
	Memory  fsm.Memory
}
