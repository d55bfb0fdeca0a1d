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
	"gonum.org/v1/gonum/spatial/r2"
)

func TestDiagnoseUnthoughtHandClockReinitializedOrLoaded(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	clock := ecs.ClockOf(w)
	b := fsm.NewBuilder("idle")
	b.State("Idle", fsm.Hooks{})
	m, err := b.Build()
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Thinker{Machine: m, Interval: 0.1})
	require.NoError(t, err)
	for i := range 3 {
		sp.Spawn(r2.Vec{X: 1.5 + float64(i), Y: 1.5}, nil)
	}
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
