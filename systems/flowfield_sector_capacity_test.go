package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
)

// TestSectorFollowersBeyondCapacityCountAsWaiting (review20): in
// sector mode, followers whose goal is one more than Capacity goals in use
// in the same frame get no direction; FlowField.Waiting counts them (it was
// always 0 in sector mode, so they stood without a word).
func TestSectorFollowersBeyondCapacityCountAsWaiting(t *testing.T) {
	g := sectorMaze()
	w, s, flow, es := sectorSwarm(t, g, 10, grid.Cell{X: 10, Y: 90})
	flow.Capacity = 1 // read each frame by fieldFor
	m := generic.NewMap1[components.FlowFollower](w)
	for _, e := range es[:3] {
		m.Get(e).Goal = grid.Cell{X: 90, Y: 5}
	}
	s.Update(w)
	stand := 0
	for _, e := range es {
		if ff := m.Get(e); !ff.Steer && !ff.Arrived {
			stand++
		}
	}
	require.Contains(t, []int{3, 7}, stand, "the followers of the goal asked for second (in query order) stand")
	require.Equal(t, stand, flow.Waiting, "and are counted")
}
