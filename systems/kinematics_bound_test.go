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

// An absurd but finite MaxSpeed (1e153 cells/s: the steering arithmetic overflowed and
// the agent froze with no finding; a newcomer) is refused by the bundles and, written
// by hand, is kinematics_invalid with a note saying which value, and the agent stands
// still as documented. A radius of 0 is named as such.
func TestAnAbsurdSpeedIsRefusedAndReported(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	_, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{MaxSpeed: 1e153}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "MaxSpeed = 1e+153: want at most 1e+06 cells per second")
	_, err = systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{MaxForce: 1e300}})
	require.Error(t, err)

	sp, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	start := r2.Vec{X: 2.5, Y: 2.5}
	e := sp.Spawn(start, func(s *systems.Spawned) { s.MoveTo(r2.Vec{X: 12.5, Y: 12.5}) })
	kin := generic.NewMap[components.Kinematics](w)
	kin.Get(e).MaxSpeed = 1e153
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(w))
	s.Run(w, 60)
	pos := generic.NewMap[components.Position](w)
	assert.Equal(t, start, pos.Get(e).Vec, "stands still")
	r := systems.Diagnose(w)
	assert.Equal(t, 1, r.Counts[systems.CauseKinematics], r.String())
	assert.Contains(t, r.String(), "MaxSpeed 1e+153 cells/s, MaxForce 20 cells/s²: each must be > 0 and at most 1e+06 and 1e+09")
	assert.Zero(t, r.Counts[systems.CauseStepTooLong], r.String())

	k := kin.Get(e)
	k.MaxSpeed, k.Radius = 4, 0
	r = systems.Diagnose(w)
	assert.Contains(t, r.String(), "Radius not > 0")
}
