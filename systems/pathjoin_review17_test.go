package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestPathJoinAfterSteerWithWideAgents (review17): Steer may run between a
// queue with Overlap and its join, and it builds the grid's clearance field on
// its first Update (grid.Clearance); a wide agent's first search builds it too,
// on the helper (grid.NewSearchOptions with Clearance > 1). The queue must build
// it before the helper starts, or the two write it at once (go test -race: DATA
// RACE on the first frame; fails without startServe's Clearance call). Also the
// crowd is that of a queue without Overlap.
func TestPathJoinAfterSteerWithWideAgents(t *testing.T) {
	run := func(workers int, overlap bool) (uint64, int) {
		c := newCrowd(t, 300, 4, workers, false)
		kin := generic.NewFilter3[components.Kinematics, components.Path, components.Position]()
		q := kin.Query(c.World)
		i := 0
		for q.Next() {
			k, p, pos := q.Get()
			if i%3 != 2 {
				k.Radius = 0.9 // clearance 2
				// a request at the first frame, before Steer ever ran
				p.Want, p.Goal = true, c.Grid.CellAt(r2.Vec{X: float64(c.Grid.Width()) - pos.X, Y: float64(c.Grid.Height()) - pos.Y})
			}
			i++
		}
		c.PathQueue.Workers, c.PathQueue.Overlap, c.PathQueue.Budget = workers, overlap, 400
		sys := []ecs.System{c.Clock, c.Spatial, c.Perception, c.Decision, c.PathQueue, c.Steer}
		if overlap {
			sys = append(sys, c.PathQueue.Join())
		}
		s := ecs.NewScheduler(append(sys, c.Movement, c.Combat, c.Respawn, c.PathFollow)...)
		require.NotPanics(t, func() { s.Initialize(c.World) })
		defer s.Finalize(c.World)
		s.Run(c.World, 20)
		return systems.StateHash(c.World), c.PathQueue.TotalServed
	}
	want, served := run(1, false)
	require.Positive(t, served)
	got, gotServed := run(2, true)
	assert.Equal(t, want, got)
	assert.Equal(t, served, gotServed)
}

// diagnoseEvery is a user's system that calls Diagnose every frame (a debug
// overlay), here placed between a queue with Overlap and its join: Diagnose
// joins the searches, so the join that follows finds nothing to do.
type diagnoseEvery struct{ findings int }

func (d *diagnoseEvery) Initialize(w *arche.World) {}
func (d *diagnoseEvery) Update(w *arche.World) {
	r := systems.Diagnose(w)
	d.findings += r.Total()
}
func (d *diagnoseEvery) Finalize(w *arche.World) {}

// TestDiagnoseBetweenQueueAndJoin (review17): Diagnose between a queue with
// Overlap and its join (joining early), then a Finalize of the schedule right
// after a queue's Update (the join never runs that frame): the crowd, the
// totals and Diagnose's findings are those of a queue without Overlap.
func TestDiagnoseBetweenQueueAndJoin(t *testing.T) {
	type result struct {
		hash                   uint64
		served, dropped, finds int
		pendingAfterFinalize   int
	}
	run := func(workers int, overlap bool) result {
		c := newCrowd(t, 300, 7, workers, false)
		c.PathQueue.Workers, c.PathQueue.Overlap, c.PathQueue.Budget = workers, overlap, 30
		d := &diagnoseEvery{}
		sys := []ecs.System{c.Clock, c.Spatial, c.Perception, c.Decision, c.PathQueue, d, c.Combat}
		if overlap {
			sys = append(sys, c.PathQueue.Join())
		}
		s := ecs.NewScheduler(append(sys, c.Respawn, c.PathFollow, c.Steer, c.Movement)...)
		s.Initialize(c.World)
		s.Run(c.World, 40)
		for _, sy := range sys[:5] { // a last frame that stops after the queue
			sy.Update(c.World)
		}
		s.Finalize(c.World) // joins (PathQueue.Finalize and PathJoin.Finalize)
		r := result{hash: systems.StateHash(c.World), served: c.PathQueue.TotalServed,
			dropped: c.PathQueue.TotalDropped, finds: d.findings}
		q := generic.NewFilter1[components.Path]().Query(c.World)
		for q.Next() {
			if q.Get().State == components.PathPending {
				r.pendingAfterFinalize++
			}
		}
		return r
	}
	want := run(1, false)
	require.Positive(t, want.served)
	assert.Equal(t, want, run(2, true))
}
