package save_test

import (
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiagnoseUnthoughtHandClockReinitializedOrLoaded(t *testing.T) {
	w, m := idleFSMWorld(t)
	clock := ecs.ClockOf(w) // after the spawns: they read time 0 either way
	f := &systems.FSM{}
	s := ecs.NewScheduler(f)
	s.Initialize(w)
	for range 10 {
		s.Update(w)
		clock.Time += clock.DT
		clock.Frame++
	}
	require.Zero(t, systems.Diagnose(w).Unthought)

	// re-Initialize
	s.Finalize(w)
	s.Initialize(w)
	r := systems.Diagnose(w)
	assert.Zero(t, r.Unthought, "re-Initialized at frame 10: %s", r)

	data, err := save.Save(w, nil, f)
	require.NoError(t, err)
	loaded := arche.NewWorld()
	arche.AddResource(&loaded, grid.New(16, 16))
	l, err := save.LoadInto(data, save.Registry{Machines: []*fsm.Machine{m}}, &loaded)
	require.NoError(t, err)
	f2 := &systems.FSM{}
	s2 := ecs.NewScheduler(f2)
	s2.Initialize(l.World)
	require.NoError(t, l.Restore(f2))
	r = systems.Diagnose(l.World)
	assert.Zero(t, r.Unthought, "loaded at frame 10, thought %d: %s", f2.TotalThought, r)
}
