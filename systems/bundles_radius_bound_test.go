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

// Motion{Radius: 1e9} (even 1e300) on a 32×32 map was accepted by NewSpawner and the
// agents moved as if nothing were wrong (routed with the clearance of a radius of
// 254.5, the largest grid.ClearanceFor represents). A Radius above MaxKinematicRadius
// is refused by the bundles, and Kinematics holding one are unusable: the agent
// stands still and Diagnose counts it as kinematics_invalid.
func TestRadiusAboveTheBoundIsRefused(t *testing.T) {
	for _, r := range []float64{1e9, 1e300, 255} {
		world := arche.NewWorld()
		_, err := systems.NewSpawner(&world, systems.Mover{Motion: systems.Motion{Radius: r}})
		require.Error(t, err, "radius %v", r)
		assert.Contains(t, err.Error(), "want at most 254.5 cells (a unit mistake?)")
	}
	world := arche.NewWorld()
	_, err := systems.NewSpawner(&world, systems.Mover{Motion: systems.Motion{Radius: systems.MaxKinematicRadius}})
	require.NoError(t, err, "the bound itself is a radius")

	assert.False(t, systems.UsableKinematics(&components.Kinematics{MaxSpeed: 4, MaxForce: 20, Radius: 1e9}))
	assert.True(t, systems.UsableKinematics(&components.Kinematics{MaxSpeed: 4, MaxForce: 20, Radius: systems.MaxKinematicRadius}))

	// Set by hand (a save, a program's own component): it stands still, and is counted.
	world = arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(32, 32))
	sp, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 4.5, Y: 4.5}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 28.5, Y: 28.5}) })
	kin := generic.NewMap1[components.Kinematics](w)
	kin.Get(e).Radius = 1e9
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)
	s.Run(w, 120)
	pos := generic.NewMap1[components.Position](w)
	assert.Equal(t, r2.Vec{X: 4.5, Y: 4.5}, pos.Get(e).Vec, "it stands still")
	r := systems.Diagnose(w)
	assert.Equal(t, 1, r.Counts[systems.CauseKinematics], "%s", r)
	assert.Contains(t, r.String(), "and Radius finite and at most 254.5 cells (MaxKinematicRadius): it stands still")
}
