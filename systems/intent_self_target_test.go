package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// An agent told to pursue itself (Intent.Target = its own entity, a leaf that wrote
// a.Entity where it meant the foe) stands still; Diagnose counts it as target_unusable
// instead of reporting no misconfiguration.
func TestPursuingItselfIsTargetUnusable(t *testing.T) {
	w := arche.NewWorld()
	arche.AddResource(&w, grid.New(16, 16))
	sp, err := systems.NewSpawner(&w, systems.Mover{})
	require.NoError(t, err)
	var self arche.Entity
	self = sp.Spawn(r2.Vec{X: 3.5, Y: 3.5}, nil)
	in := (*components.Intent)(w.Get(self, arche.ComponentID[components.Intent](&w)))
	in.Mode, in.Target = components.IntentPursue, self
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(&w)
	defer s.Finalize(&w)
	s.Run(&w, 60)
	r := systems.Diagnose(&w)
	assert.Equal(t, 1, r.Counts[systems.CauseTargetUnusable], "%v", r)
	assert.Equal(t, self, r.Examples[systems.CauseTargetUnusable])
}
