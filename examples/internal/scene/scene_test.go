package scene_test

import (
	"errors"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/examples/internal/scene"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlayRunsTheFramesThenReports(t *testing.T) {
	world := arche.NewWorld()
	arche.AddResource(&world, grid.New(8, 8))
	clock := ecs.NewClockSystem(0.5)
	var frame int64 = -1
	s := scene.Scene{World: &world, Sched: ecs.NewScheduler(clock, &systems.Spatial{}),
		Report: func() error { frame = ecs.ClockOf(&world).Frame; return errors.New("report") }}
	assert.EqualError(t, s.Play(3), "report")
	assert.Equal(t, int64(2), frame, "frames 0, 1 and 2 ran before the report")
}

// A world without the map its Spatial system needs: Play returns the fault of setup,
// runs nothing and does not report.
func TestPlayReturnsAFaultOfSetup(t *testing.T) {
	world := arche.NewWorld()
	reported := false
	s := scene.Scene{World: &world, Sched: ecs.NewScheduler(ecs.NewClockSystem(0.5), &systems.Spatial{}),
		Report: func() error { reported = true; return nil }}
	var err error
	require.NotPanics(t, func() { err = s.Play(3) })
	var se *ecs.SetupError
	require.ErrorAs(t, err, &se)
	assert.ErrorIs(t, err, ecs.ErrMissingResource)
	assert.Equal(t, "systems: Spatial needs the map: the world has no *grid.Grid resource; add one with arche.AddResource(w, g) before Initialize", err.Error())
	assert.False(t, reported)
	assert.Zero(t, s.Sched.Frames())
}
