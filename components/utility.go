package components

import (
	"github.com/archai-go/archai/ai/utility"
)

// UtilityBrain is an agent's utility reasoner: the reasoner shared by every agent that
// uses it, and this agent's state (its choice and every score of its last decision,
// allocated once with Reasoner.NewState). systems.Utility decides for it on the
// agent's Think cadence; the agent's Rand component, if any, is the random source of
// Softmax and TopN policies.
//
// ID, the reasoner's name (utility.Reasoner.Name), is the truth of a saved world;
// Reasoner is a cache of its lookup (not saved). An empty ID is saved as
// Reasoner.Name(). A program that swaps the Reasoner sets ID to the new one's name
// (or ""): save.Save refuses an ID that is not its Reasoner's name. The State
// starts afresh at the new reasoner's first decision (Choice None, counts 0), even
// when both reasoners have as many actions and considerations (utility.Reasoner.Score).
type UtilityBrain struct {
	ID       string            // the reasoner's name in the program's registry
	Reasoner *utility.Reasoner `json:"-"`
	State    utility.State
}
