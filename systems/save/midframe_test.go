package save_test

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// saver is a program's "save on key press" system: it saves in the frame given.
type saver struct {
	at    int
	frame int
	data  []byte
	err   error
}

func (s *saver) Initialize(*arche.World) {}
func (s *saver) Finalize(*arche.World)   {}
func (s *saver) Update(w *arche.World) {
	if s.frame++; s.frame == s.at {
		s.data, s.err = save.Save(w, nil)
	}
}

// A save from a system scheduled between two others (after Steer, before Movement) is
// refused, naming them: the file held a frame half done and the loaded run parted from
// the unbroken one (a reviewer). From a system scheduled last it is taken, and the
// loaded run continues as the unbroken one.
func TestSaveBetweenSystemsOfAFrameIsRefused(t *testing.T) {
	build := func(sv *saver, last bool) (*arche.World, *ecs.Scheduler) {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(16, 16))
		sp, err := systems.NewSpawner(w, systems.Mover{})
		require.NoError(t, err)
		for i := range 4 {
			sp.Spawn(r2.Vec{X: 1.5, Y: 1.5 + 2*float64(i)}, func(s *systems.Spawned) { s.MoveTo(r2.Vec{X: 14.5, Y: 8.5}) })
		}
		list := []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{}, &systems.PathFollow{}, &systems.Steer{}}
		if sv != nil && !last {
			list = append(list, sv)
		}
		list = append(list, &systems.Movement{})
		if sv != nil && last {
			list = append(list, sv)
		}
		s := ecs.NewScheduler(list...)
		require.NoError(t, s.InitializeChecked(w))
		return w, s
	}
	mid := &saver{at: 30}
	w, s := build(mid, false)
	s.Run(w, 40)
	require.ErrorIs(t, mid.err, save.ErrState)
	assert.Contains(t, mid.err.Error(), "steer has run this frame, movement has not")
	assert.Nil(t, mid.data)

	end := &saver{at: 30}
	w, s = build(end, true)
	s.Run(w, 30)
	require.NoError(t, end.err)
	l, err := save.Load(end.data, save.Registry{})
	require.NoError(t, err)
	arche.AddResource(l.World, grid.New(16, 16))
	ls := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	require.NoError(t, ls.InitializeChecked(l.World))
	require.NoError(t, l.Restore())
	for f := range 60 {
		s.Update(w)
		ls.Update(l.World)
		require.Equal(t, systems.StateHash(w), systems.StateHash(l.World), "frame %d after the load", f)
	}
}

// With schedulers nested (one run as a system of another) or side by side (a
// simulation's, then a tool's, each frame), a save from the outer frame's last system
// is taken, and one between two systems of any scheduler's frame is refused (the
// world's one Frame resource held only the last initialized scheduler's list, so the
// first was refused naming the inner scheduler's systems, the second missed; a
// reviewer).
func TestSaveBetweenSystemsWithSeveralSchedulers(t *testing.T) {
	build := func() *arche.World {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(16, 16))
		sp, err := systems.NewSpawner(w, systems.Mover{})
		require.NoError(t, err)
		sp.Spawn(r2.Vec{X: 1.5, Y: 1.5}, func(s *systems.Spawned) { s.MoveTo(r2.Vec{X: 14.5, Y: 8.5}) })
		return w
	}
	w := build()
	last, inside := &saver{at: 5}, &saver{at: 5}
	movement := ecs.NewScheduler(&systems.Spatial{}, &systems.PathFollow{}, inside, &systems.Steer{}, &systems.Movement{})
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), movement, last)
	require.NoError(t, s.InitializeChecked(w))
	s.Run(w, 6)
	require.NoError(t, last.err, "from the outer frame's last system")
	require.ErrorIs(t, inside.err, save.ErrState, "from inside the nested scheduler")
	assert.Contains(t, inside.err.Error(), "clock has run this frame, *save_test.saver has not")

	w = build()
	mid := &saver{at: 5}
	sim := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathFollow{}, &systems.Steer{}, mid, &systems.Movement{})
	tool := &saver{at: 5}
	ui := ecs.NewScheduler(tool)
	require.NoError(t, sim.InitializeChecked(w))
	require.NoError(t, ui.InitializeChecked(w))
	for range 6 {
		sim.Update(w)
		ui.Update(w)
	}
	require.ErrorIs(t, mid.err, save.ErrState, "between steer and movement")
	require.NoError(t, tool.err, "from a tool's scheduler after the simulation's")
}
