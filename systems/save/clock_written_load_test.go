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

// A ClockSystem reports a Clock DT the program wrote alone between frames
// (clock_dt_written, ecs.IgnoredDT). A load writes the whole Clock (ecs.SetClock): no
// loaded world reports it, also when the saved clock has the frame, time and started
// flag of the world's clock and another DT (a save made before the first frame under
// 1/30, loaded into a world whose ClockSystem of 1/60 is initialized), nor after a
// variable step saved; the load's DT is the last frame's step, as documented.
func TestLoadedClockIsNotReportedAsWritten(t *testing.T) {
	build := func(w *arche.World, dt float64) (*ecs.Scheduler, *systems.PathQueue) {
		pq := &systems.PathQueue{}
		return ecs.NewScheduler(ecs.NewClockSystem(dt), &systems.Spatial{}, pq, &systems.PathFollow{},
			&systems.Steer{}, &systems.Movement{}), pq
	}
	for _, frames := range []int{0, 30} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(16, 16))
		sp, err := systems.NewSpawner(w, systems.Mover{})
		require.NoError(t, err)
		sp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 12.5, Y: 9.5}) })
		s, pq := build(w, 1.0/30)
		s.Initialize(w)
		s.Run(w, frames)
		data, err := save.Save(w, nil, pq)
		require.NoError(t, err)

		// into a world whose ClockSystem is initialized (its clock at frame 0, time 0, not started)
		world2 := arche.NewWorld()
		w2 := &world2
		arche.AddResource(w2, grid.New(16, 16))
		s2, pq2 := build(w2, 1.0/60)
		s2.Initialize(w2)
		l, err := save.LoadInto(data, save.Registry{}, w2)
		require.NoError(t, err)
		require.NoError(t, l.Restore(pq2))
		s2.Run(w2, 10)
		r := systems.Diagnose(w2)
		assert.Equal(t, systems.ClockUsable, r.ClockFault, "frames %d: %s", frames, r)
		n, _, _ := ecs.IgnoredDT(w2)
		assert.Zero(t, n, "frames %d", frames)
		want := float64(frames) * (1.0 / 30) // the saved frames, then the first at the new step
		if frames == 0 {
			want = 0 // not started: frame 0 at Frame·DT
		}
		assert.InDelta(t, want+9.0/60, ecs.ClockOf(w2).Time, 1e-12, "frames %d", frames)

		// into a new world, systems initialized after the load (the README's way)
		l, err = save.Load(data, save.Registry{})
		require.NoError(t, err)
		arche.AddResource(l.World, grid.New(16, 16))
		s3, pq3 := build(l.World, 1.0/60)
		s3.Initialize(l.World)
		require.NoError(t, l.Restore(pq3))
		s3.Run(l.World, 10)
		assert.Equal(t, systems.ClockUsable, systems.Diagnose(l.World).ClockFault, "frames %d", frames)
	}
}
