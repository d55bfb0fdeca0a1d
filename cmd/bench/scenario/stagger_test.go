package scenario

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGuardsStaggerByStorageBlocks: the guards' first thinks fall in the six
// frames of one 0.1 s interval, about a sixth of the crowd in each, in runs of
// consecutive agents in storage order (3000 agents: blocks of 3000/48 = 62).
func TestGuardsStaggerByStorageBlocks(t *testing.T) {
	const n = 3000
	sc, err := NewGuards(Config{Agents: n, Seed: 5, Workers: 1})
	require.NoError(t, err)
	f := generic.NewFilter1[components.Think]()
	q := f.Query(sc.World)
	var perFrame [6]int
	runs, last := 0, -1
	for q.Next() {
		th := q.Get()
		require.GreaterOrEqual(t, th.Next, 0.0)
		require.Less(t, th.Next, th.Interval, "within one interval")
		frame := int(th.Next * 60)
		perFrame[frame]++
		if frame != last {
			runs++
			last = frame
		}
	}
	for k, c := range perFrame {
		assert.InDelta(t, n/6, c, 62, "frame %d", k)
	}
	assert.InDelta(t, n/62, runs, 2, "runs of 62 agents")
}
