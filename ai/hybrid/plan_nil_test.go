package hybrid

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An HTNAction or GOAPAction given a nil domain (a Registry.Domain lookup that found
// none) or a nil run function compiled and panicked at its first tick (a nil pointer in
// Domain.Tick, or calling run); RegisterHTN and RegisterGOAP took them too. bt.Compile
// refuses such an action now with ErrNilFunc naming it, and the Register functions
// return an error.
func TestPlanActionsWithoutDomainOrRunAreRefused(t *testing.T) {
	d := patrolDomain(t)
	htnRun := func(*bt.Context) (*htn.Run, *htn.State) { return nil, nil }
	goapRun := func(*bt.Context) (*goap.Run, *goap.State) { return nil, nil }
	var noHTN *htn.Domain
	var noGOAP *goap.Domain
	for name, n := range map[string]*bt.Node{
		"htn nil domain":  HTNAction("Plan", noHTN, htnRun),
		"htn nil run":     HTNAction("Plan", d, nil),
		"goap nil domain": GOAPAction("Plan", noGOAP, goapRun),
		"goap nil run":    GOAPAction("Plan", nil, nil),
	} {
		_, err := bt.Compile("t", n)
		require.ErrorIs(t, err, bt.ErrNilFunc, name)
		assert.ErrorContains(t, err, "Plan", name)
	}
	r := bt.NewRegistry(nil)
	assert.Error(t, RegisterHTN(r, "Plan", noHTN, htnRun))
	assert.Error(t, RegisterHTN(r, "Plan", d, nil))
	assert.Error(t, RegisterGOAP(r, "Plan", noGOAP, goapRun))
	require.NoError(t, RegisterHTN(r, "Plan", d, htnRun))

	tree, err := bt.Compile("t", HTNAction("Plan", d, htnRun))
	require.NoError(t, err)
	mem := tree.NewMemory()
	assert.Equal(t, bt.Failure, tree.Tick(&mem, &bt.Context{}), "a nil Run from run fails the tick, as documented")
}
