package debugview

import (
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A machine with an "Idle" under "Patrol" and another under "Combat": the page's
// previous state names its parents, since the short name cannot say which Idle the
// agent left (it showed "Idle" for both).
func TestPreviousStateNamesItsParents(t *testing.T) {
	b := fsm.NewBuilder("guard")
	patrol := b.State("Patrol", fsm.Hooks{})
	pIdle := b.Substate(patrol, "Idle", fsm.Hooks{})
	combat := b.State("Combat", fsm.Hooks{})
	cIdle := b.Substate(combat, "Idle", fsm.Hooks{})
	m, err := b.Build()
	require.NoError(t, err)

	out := fsmOf(&components.StateMachine{Machine: m, Memory: fsm.Memory{Active: cIdle, Previous: pIdle}})
	assert.Equal(t, []string{"Combat", "Idle"}, out.Active)
	assert.Equal(t, "Patrol/Idle", out.Previous)
	assert.Equal(t, "None", fsmOf(&components.StateMachine{Machine: m}).Previous)
}
