package components

import (
	"github.com/archai-go/archai/ai/blackboard"
)

// Blackboard is an agent's typed key/value store (see package ai/blackboard) for
// designer-added facts that data-driven trees read and write through ports. Make the
// store from the schema of the registry that loaded the agent's trees
// (bt.Registry.Schema().NewStore()), after the trees are built, so every key they
// declare has a slot. The decision systems hand it to the agent's leaves as
// bt.Context.Blackboard (utility considerations and state machines get it too); a nil
// Store is a blackboard with nothing in it. systems.Perception writes the well-known
// perception keys (systems.KeyTarget, ...) that the store's schema declares. Give each
// agent a Store of its own: agents holding one Store share their facts (systems.Diagnose
// counts them: CauseBlackboardShared).
type Blackboard struct {
	Store *blackboard.Store
}
