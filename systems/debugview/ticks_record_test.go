package debugview_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The viewer has the selected agent's tree memory record its ticks (to show the nodes of
// a run that is over as Idle) and turns the record off when another agent is selected,
// at a deselection and at Finalize: no other agent pays for it.
func TestTickRecordFollowsTheSelection(t *testing.T) {
	tw := newTestWorld(t, 4, 0, nil)
	brains := generic.NewMap[components.Brain](tw.w)
	recording := func() []bool {
		var out []bool
		for _, e := range tw.agents {
			out = append(out, brains.Get(e).Memory.RecordingTicks())
		}
		return out
	}
	tw.run(2)
	assert.Equal(t, []bool{false, false, false, false}, recording())
	require.True(t, tw.v.Select(tw.agents[1].ID()))
	tw.run(2)
	assert.Equal(t, []bool{false, true, false, false}, recording())
	require.True(t, tw.v.Select(tw.agents[2].ID()))
	tw.run(2)
	assert.Equal(t, []bool{false, false, true, false}, recording())
	tw.v.Finalize(tw.w)
	assert.Equal(t, []bool{false, false, false, false}, recording())
}
