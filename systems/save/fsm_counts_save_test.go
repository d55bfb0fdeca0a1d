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

// TestFSMCountsSurviveSaveAndLoad: FSM.TotalThought counts since Initialize and used to
// restart at 0 in a loaded world, silently; it is saved with the think budget's state
// (ThinkCursorState.TotalThought, as for every decision system) and counts on from it.
func TestFSMCountsSurviveSaveAndLoad(t *testing.T) {
	w, m := idleFSMWorld(t)
	f := &systems.FSM{}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), f)
	s.Initialize(w)
	s.Run(w, 4)
	require.Equal(t, int64(12), f.TotalThought)

	data, err := save.Save(w, nil, f)
	require.NoError(t, err)
	loaded := arche.NewWorld()
	arche.AddResource(&loaded, grid.New(16, 16))
	l, err := save.LoadInto(data, save.Registry{Machines: []*fsm.Machine{m}}, &loaded)
	require.NoError(t, err)
	f2 := &systems.FSM{}
	s2 := ecs.NewScheduler(ecs.NewClockSystem(0.1), f2)
	s2.Initialize(l.World)
	require.NoError(t, l.Restore(f2))
	assert.Equal(t, f.TotalThought, f2.TotalThought, "at the load")
	s.Run(w, 2)
	s2.Run(l.World, 2)
	assert.Equal(t, f.TotalThought, f2.TotalThought, "after the load")
	assert.Equal(t, int64(18), f2.TotalThought)
}

// idleFSMWorld is a world on a 16×16 grid with three Thinkers of an FSM whose one
// state does nothing (Interval 0.1 s), and that machine (for the load's Registry).
func idleFSMWorld(t *testing.T) (*arche.World, *fsm.Machine) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	b := fsm.NewBuilder("idle")
	b.State("Idle", fsm.Hooks{})
	m, err := b.Build()
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Thinker{Machine: m, Interval: 0.1})
	require.NoError(t, err)
	for i := range 3 {
		sp.Spawn(r2.Vec{X: 1.5 + float64(i), Y: 1.5}, nil)
	}
	return w, m
}
