package save_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// cornerGrid is a 64² grid with a corridor x 30..34 going south from y 40.
func cornerGrid() *grid.Grid {
	g := grid.New(64, 64)
	for y := int32(40); y < 64; y++ {
		for x := int32(0); x < 64; x++ {
			if x < 30 || x >= 35 {
				g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
			}
		}
	}
	return g
}

// pinAll puts every follower back at the west of the corner cell (29, 39),
// against the corridor wall's face, as a crowd would push it.
func pinAll(w *arche.World) {
	q := generic.NewFilter1[components.Position]().Query(w)
	k := 0
	for q.Next() {
		p := q.Get()
		p.X, p.Y = 29.3+0.01*float64(k%8), 39.7
		k++
	}
}

// A whole-grid FlowField checks one follower in aimTurns a frame on sight, by
// query index and the Clock's frame, or in a world without a Clock its own
// count of Updates (which the save holds since the session of 2026-12-06
// 09:17; the loaded run counted from 0): a run saved and loaded checks the
// same followers in the same frames as the run not interrupted, so the
// followers pinned behind a wall's corner sample again in the same frames in
// both, with 1 or 2 workers.
func TestWholeGridAimCheckContinuesAfterLoad(t *testing.T) {
	for _, c := range []struct {
		clock   bool
		workers int
	}{{false, 1}, {false, 2}, {true, 1}, {true, 2}} {
		t.Run(fmt.Sprintf("clock %v, %d workers", c.clock, c.workers), func(t *testing.T) {
			aimCheckContinues(t, c.clock, c.workers)
		})
	}
}

func aimCheckContinues(t *testing.T, clock bool, workers int) {
	build := func() (*arche.World, *systems.FlowField, *ecs.Scheduler) {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, cornerGrid())
		flow := &systems.FlowField{Workers: workers}
		s := ecs.NewScheduler(flow)
		if clock {
			s = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), flow)
		}
		return w, flow, s
	}
	w, flow, s := build()
	sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 32, Y: 60}})
	require.NoError(t, err)
	for k := range 20 { // each samples on its first frame, from the cell's east side
		sp.Spawn(r2.Vec{X: 29.9, Y: 39.5 - 0.01*float64(k)}, nil)
	}
	require.NoError(t, s.InitializeChecked(w))
	t.Cleanup(func() { s.Finalize(w) })
	s.Update(w)
	pinAll(w)
	s.Update(w)
	s.Update(w)
	s.Update(w)
	data, err := save.Save(w, nil, flow)
	require.NoError(t, err)

	lw, lflow, ls := build()
	l, err := save.LoadInto(data, save.Registry{}, lw)
	require.NoError(t, err)
	require.NoError(t, ls.InitializeChecked(lw))
	t.Cleanup(func() { ls.Finalize(lw) })
	require.NoError(t, l.Restore(lflow))
	require.Equal(t, systems.StateHash(w), systems.StateHash(lw), "at load")
	again := 0
	for k := range 40 {
		before := aims(w)
		s.Update(w)
		ls.Update(lw)
		require.Equal(t, systems.StateHash(w), systems.StateHash(lw), "frame %d after the load", k)
		for i, a := range aims(w) {
			if a != before[i] {
				again++
			}
		}
		pinAll(w)
		pinAll(lw)
	}
	// once each, those not checked in the 3 frames before the save (6 of
	// 20 were: query indices 1–3 and 17–19)
	require.Equal(t, 14, again, "pinned followers sampled again after the load")
}

// aims returns the followers' Aims in query order.
func aims(w *arche.World) []r2.Vec {
	var a []r2.Vec
	q := generic.NewFilter1[components.FlowFollower]().Query(w)
	for q.Next() {
		a = append(a, q.Get().Aim)
	}
	return a
}
