package components

import (
	"github.com/archai-go/archai/ai/utility"
)

// UtilityBrain is an agent's utility reasoner: the reasoner shared by every agent that
// uses it, and this agent's state (its choice and every score of its last decision,
// allocated once with Reasoner.NewState). systems.Utility decides for it on the
// agent's Think cadence; the agent's Rand component, if any, is the random source of
// Softmax and TopN policies.
type UtilityBrain struct {
	Reasoner *utility.Reasoner
	State    utility.State
}
