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
// Spacing left at zero (automatic) now fits them (2.5 radii: 2.5): they all rest
// too, and nothing is reported.
func TestFlowFollowersWiderThanTheSpacingAreReported(t *testing.T) {
	for _, spacing := range []float64{0.75, 2, 0} {
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
		if spacing == 0.75 { // set by hand to the old default
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

// TestFlowFieldAutomaticSpacing: a FlowField whose Spacing is left at zero
// starts at DefaultFlowSpacing (0.75) and, from the frame after it sees them,
// fits its widest follower: 2.5 radii once a diameter is over 1.2·0.75 (radius
// 0.45 stays at 0.75, 0.46 gets 1.15, 1 gets 2.5; the radius 0.3 of default
// followers, 0.75). A Spacing set by hand after Initialize is kept, and a
// second Initialize (a level restart) keeps it automatic.
func TestFlowFieldAutomaticSpacing(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(40, 30))
	sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 20, Y: 15}})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 5, Y: 5}, nil)
	ff := &systems.FlowField{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, ff, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(w))
	require.Equal(t, systems.DefaultFlowSpacing, ff.Spacing)
	kin := generic.NewMap[components.Kinematics](w)
	for _, c := range []struct{ r, want float64 }{{0.3, 0.75}, {0.45, 0.75}, {0.46, 2.5 * 0.46}, {1, 2.5}, {0.3, 0.75}} {
		kin.Get(e).Radius = c.r
		s.Run(w, 1)
		assert.InDelta(t, c.want, ff.Spacing, 1e-12, "radius %v", c.r)
	}
	ff.Spacing = 1
	kin.Get(e).Radius = 1
	s.Run(w, 2)
	assert.Equal(t, 1.0, ff.Spacing, "set by hand: kept")
	s.Finalize(w)
	ff.Spacing = 0
	require.NoError(t, s.InitializeChecked(w))
	s.Run(w, 1)
	assert.Equal(t, 2.5, ff.Spacing)
	s.Finalize(w)
	require.NoError(t, s.InitializeChecked(w)) // Spacing 2.5, as the automatic rule left it
	kin.Get(e).Radius = 0.3
	s.Run(w, 1)
	assert.Equal(t, 0.75, ff.Spacing, "still automatic after a second Initialize")
	s.Finalize(w)
}
