package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A horizon given in milliseconds (TimeHorizon 2000 for 2 s) is legal and honoured,
// but makes every agent scan far beyond its path each frame (break15: 137 times the
// default's cost on a maze): Diagnose counts it as orca_horizon_too_long, as it
// counts a think interval given in milliseconds. The defaults and a horizon of a
// minute are not counted.
func TestDiagnoseCountsORCAHorizonsInMilliseconds(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	spawn := func(a systems.Avoider) arche.Entity {
		sp, err := systems.NewSpawner(w, systems.Mover{}, a)
		require.NoError(t, err)
		return sp.Spawn(r2.Vec{X: 8, Y: 8}, nil)
	}
	spawn(systems.Avoider{})
	spawn(systems.Avoider{TimeHorizon: 60, ObstacleHorizon: 60})
	ms := spawn(systems.Avoider{TimeHorizon: 2000})
	obs := spawn(systems.Avoider{ObstacleHorizon: 1000})

	r := systems.Diagnose(w)
	assert.Equal(t, 2, r.Counts[systems.CauseORCAHorizonLong], "%s", r)
	assert.Contains(t, []arche.Entity{ms, obs}, r.Examples[systems.CauseORCAHorizonLong])
	assert.Zero(t, r.Counts[systems.CauseORCAInvalid])
	assert.Equal(t, "orca_horizon_too_long", systems.CauseORCAHorizonLong.String())

	o := (*components.ORCA)(w.Get(ms, arche.ComponentID[components.ORCA](w)))
	assert.True(t, systems.UsableORCA(o), "honoured as given: counted, not refused")
}
