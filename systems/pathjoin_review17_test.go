package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
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
