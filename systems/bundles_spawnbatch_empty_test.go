package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// SpawnBatch's documented result for n ≤ 0: nothing is created and set is never
// called (a newcomer's SpawnBatch(-1, …) did nothing; the doc says so: "nothing for
// n ≤ 0"). Pinned here so that the documented result is also a tested one.
func TestSpawnBatchOfNoAgentsCreatesNothing(t *testing.T) {
	world := arche.NewWorld()
	sp, err := systems.NewSpawner(&world, systems.Mover{})
	require.NoError(t, err)
	for _, n := range []int{0, -1, math.MinInt} {
		sp.SpawnBatch(n, func(int, *systems.Spawned) { t.Fatalf("set called for n = %d", n) })
	}
	q := generic.NewFilter1[components.Position]().Query(&world)
	assert.Zero(t, q.Count())
	q.Close()
}
