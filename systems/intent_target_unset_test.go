package systems_test

import (
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

// A newcomer set Intent.Mode to IntentPursue and no Target: the zero Target means
// Intent.Point, whose zero value is (0, 0), so the agent walked to the grid's corner
// and Diagnose said "no misconfiguration" (goal_unset covers only Move with the zero
// Goal). Fleeing, pursuing or evading the zero Target with Point exactly (0, 0) is
// now target_unset, one finding; a Point set (the corner cell's centre included), a
// live Target, and IntentGo with Point (0, 0) are not counted.
func TestIntentTargetNotSetYet(t *testing.T) {
	for _, c := range []struct {
		name  string
		set   func(in *components.Intent, foe arche.Entity)
		unset bool
	}{
		{"pursue, zero Target and Point", func(in *components.Intent, _ arche.Entity) { in.Mode = components.IntentPursue }, true},
		{"flee, zero Target and Point", func(in *components.Intent, _ arche.Entity) { in.Mode = components.IntentFlee }, true},
		{"evade, zero Target and Point", func(in *components.Intent, _ arche.Entity) { in.Mode = components.IntentEvade }, true},
		{"pursue the corner cell's centre", func(in *components.Intent, _ arche.Entity) {
			in.Mode, in.Point = components.IntentPursue, r2.Vec{X: 0.5, Y: 0.5}
		}, false},
		{"pursue a live foe", func(in *components.Intent, foe arche.Entity) {
			in.Mode, in.Target = components.IntentPursue, foe
		}, false},
		{"go, zero Point, no Move", func(in *components.Intent, _ arche.Entity) {}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			arche.AddResource(w, grid.New(48, 48))
			sp, err := systems.NewSpawner(w, systems.Mover{})
			require.NoError(t, err)
			foe := sp.Spawn(r2.Vec{X: 30.5, Y: 30.5}, nil)
			e := sp.Spawn(r2.Vec{X: 20.5, Y: 20.5}, nil)
			intents, places := generic.NewMap1[components.Intent](w), generic.NewMap1[components.Position](w)
			c.set(intents.Get(e), foe)
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
				&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
			require.NoError(t, s.InitializeChecked(w))
			defer s.Finalize(w)
			r := systems.Diagnose(w)
			if !c.unset {
				assert.Zero(t, r.Counts[systems.CauseTargetUnset], "%s", r)
				assert.Zero(t, r.Total(), "%s", r)
				return
			}
			assert.Equal(t, 1, r.Counts[systems.CauseTargetUnset], "%s", r)
			assert.Equal(t, e, r.Examples[systems.CauseTargetUnset])
			assert.Equal(t, 1, r.Total(), "one fault, one finding: %s", r)
			assert.Contains(t, r.String(), "target_unset 1 (e.g. entity 2, no Target and Point (0, 0), the grid's corner: set Intent.Target or Intent.Point with the Mode)")
			s.Run(w, 600)
			if intents.Get(e).Mode == components.IntentPursue {
				assert.Less(t, r2.Norm(places.Get(e).Vec), 1.0, "it walks to the corner")
			}
			assert.Equal(t, 1, systems.Diagnose(w).Counts[systems.CauseTargetUnset], "still counted while it runs")
		})
	}
}
