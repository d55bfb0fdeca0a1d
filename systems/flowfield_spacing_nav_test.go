package systems_test

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Flow followers wider than FlowField.Spacing never all arrive at a shared goal: the
// arrival rule packs them at one per Spacing² cells, which discs of radius 1 cannot
// reach, so the followers outside the disk of arrived ones press towards the goal for
// good. Before, Diagnose was silent about it; it now counts them as
// CauseFlowFollowerSpacing, and with Spacing set to their diameter they all rest.
func TestFlowFollowersWiderThanTheSpacingAreReported(t *testing.T) {
	for _, spacing := range []float64{0, 2} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(40, 30))
		goal := grid.Cell{X: 20, Y: 15}
		sp, err := systems.NewSpawner(w, systems.FlowFollower{Motion: systems.Motion{Radius: 1}, Goal: goal})
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(1, 3))
		es := make([]arche.Entity, 20)
		for i := range es {
			es[i] = sp.Spawn(r2.Vec{X: 2 + r.Float64()*36, Y: 2 + r.Float64()*26}, nil)
		}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.FlowField{Spacing: spacing},
			&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
		s.Initialize(w)
		s.Run(w, 3600)
		m := generic.NewMap2[components.FlowFollower, components.Velocity](w)
		arrived, moving := 0, 0
		for _, e := range es {
			ff, v := m.Get(e)
			if ff.Arrived {
				arrived++
			}
			if r2.Norm(v.Vec) > 0.01 {
				moving++
			}
		}
		rep := systems.Diagnose(w)
		t.Logf("Spacing %v: %d of 20 arrived, %d moving after 60 s; %s", spacing, arrived, moving, rep.String())
		if spacing == 0 { // the default, 0.75
			assert.Less(t, arrived, 10, "most never arrive")
			assert.Equal(t, 20, rep.Counts[systems.CauseFlowFollowerSpacing], "%s", rep.String())
			assert.Contains(t, rep.String(), "diameter 2 is wider than FlowField.Spacing 0.75")
		} else {
			assert.Equal(t, 20, arrived)
			assert.Zero(t, moving)
			assert.Zero(t, rep.Total(), "%s", rep.String())
		}
		s.Finalize(w)
	}
}
