package components

import (
	"github.com/archai-go/archai/ai/fsm"
)

// StateMachine is an agent's state machine: the compiled machine shared by every agent
// that runs it, and this agent's current state (fsm.Memory: active state, previous
// state, time in state). systems.FSM updates it on the agent's Think cadence. The
// zero Memory starts the machine on its first update.
type StateMachine struct {
	Machine *fsm.Machine
	Memory  fsm.Memory
}
