package save_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// overGoalsWorld is a FlowField (MaxFields 4) over 40 followers on a 20×20 grid, each
// with a goal of its own (spawn: a loaded world has them from the file), with a Clock
// at 60 frames a second.
func overGoalsWorld(t *testing.T, w *arche.World, spawn bool) (*systems.FlowField, *ecs.Scheduler) {
	t.Helper()
	arche.AddResource(w, grid.New(20, 20))
	if spawn {
		m := generic.NewMap2[components.Position, components.FlowFollower](w)
		for i := range 40 {
			m.NewWith(&components.Position{Vec: r2.Vec{X: 0.5 + float64(i%20), Y: 0.5 + float64(i/20)}},
				&components.FlowFollower{Goal: grid.Cell{X: int32(i % 20), Y: int32(10 + i/20)}})
		}
	}
	ff := &systems.FlowField{Capacity: 2, MaxFields: 4, Workers: 1}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), ff)
	require.NoError(t, s.InitializeChecked(w))
	return ff, s
}

// TestFlowGoalsOverSurvivesSaveAndLoad: Diagnose reports a FlowField asked for more
// goals than MaxFields in every frame for 2 s (Report.FlowGoalsOver). A world saved
// 90 frames into such a stretch used to load with the count of frames at 0 (and
// FlowField.Waiting at 0 until its next Update): the loaded run dropped the finding
// the unbroken one reported and reported it 90 frames late. The FlowField's state now
// holds both: Diagnose right after the load, and at every frame after it, equals the
// unbroken run's.
func TestFlowGoalsOverSurvivesSaveAndLoad(t *testing.T) {
	world := arche.NewWorld()
	ff, s := overGoalsWorld(t, &world, true)
	for range 90 {
		s.Update(&world)
	}
	require.Equal(t, 36, ff.Waiting)
	data, err := save.Save(&world, nil, ff)
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	ff2, s2 := overGoalsWorld(t, l.World, false)
	require.NoError(t, l.Restore(ff2))
	assert.Equal(t, ff.Waiting, ff2.Waiting, "Waiting right after the load")
	assert.Equal(t, systems.Diagnose(&world).String(), systems.Diagnose(l.World).String(), "Diagnose right after the load")
	reported := false
	for f := range 60 {
		s.Update(&world)
		s2.Update(l.World)
		r, r2 := systems.Diagnose(&world), systems.Diagnose(l.World)
		require.Equal(t, r.String(), r2.String(), "frame %d after the load", f)
		require.Equal(t, r.FlowGoalsOver, r2.FlowGoalsOver, "frame %d after the load", f)
		reported = reported || r.FlowGoalsOver > 0
	}
	assert.True(t, reported, "the unbroken run reports the goals over MaxFields within the 1 s after the load")
	assert.Equal(t, systems.StateHash(&world), systems.StateHash(l.World))
}

// TestFlowStateOldFileWithoutGoalsOver: a FlowField state written before the goals
// over MaxFields were saved loads with none: the frames count from the load.
func TestFlowStateOldFileWithoutGoalsOver(t *testing.T) {
	world := arche.NewWorld()
	ff, s := overGoalsWorld(t, &world, true)
	for range 150 {
		s.Update(&world)
	}
	require.Positive(t, systems.Diagnose(&world).FlowGoalsOver)
	require.NoError(t, ff.LoadState([]byte(`{"capacity":4}`)))
	assert.Zero(t, ff.Waiting)
	assert.Zero(t, systems.Diagnose(&world).FlowGoalsOver, "no frames over MaxFields yet")
	for _, bad := range []string{`{"capacity":4,"goals_over":{"goals":-1,"frames":3}}`,
		`{"capacity":4,"goals_over":{"goals":5,"frames":0}}`, `{"capacity":4,"goals_over":{"goals":0,"frames":4}}`,
		`{"capacity":4,"waiting":-1}`} {
		assert.ErrorIs(t, ff.LoadState([]byte(bad)), systems.ErrOutOfDomain, bad)
	}
}
