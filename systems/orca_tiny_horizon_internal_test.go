package systems

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
)

// A horizon so small that its inverse overflows (5e-324 s) passed UsableORCA: every
// half-plane of that kind overflowed, orca.Velocity drops those, and the agent avoided
// nothing, unreported. It is unusable now, and Diagnose counts it (CauseORCAInvalid).
func TestORCAHorizonWhoseInverseOverflowsIsUnusable(t *testing.T) {
	for _, o := range []components.ORCA{
		{TimeHorizon: 5e-324, ObstacleHorizon: 1, MaxNeighbours: 10, NeighbourDist: 5},
		{TimeHorizon: 2, ObstacleHorizon: math.SmallestNonzeroFloat64, MaxNeighbours: 10, NeighbourDist: 5},
	} {
		assert.False(t, UsableORCA(&o), "%+v", o)
		w, _ := newWorld(10, 10)
		goodAgent(t, w)
		e := goodAgent(t, w)
		func(w *arche.World, e arche.Entity) { put(w, e, o) }(w, e)
		r := Diagnose(w)
		assert.Equal(t, e, r.Examples[CauseORCAInvalid], "%s", r)
	}
	// tiny but invertible horizons stay usable
	o := components.ORCA{TimeHorizon: 1e-300, ObstacleHorizon: 1e-300, NeighbourDist: 5}
	assert.True(t, UsableORCA(&o))
}
