package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Thirty ORCA flow followers sharing one goal on an open map all come to rest: an
// arrived follower (Desired Stop) is not turned by the Bias. Before, the Bias turned the
// way read off its braking force, and 16 of 30 still moved at 0.1–0.3 cells/s after
// 240 s (of 300, 47–81 at up to 3 cells/s), with no finding (a newcomer).
func TestORCAFlowFollowersSharingAGoalComeToRest(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(64, 64))
	sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 32, Y: 32}}, systems.Avoider{})
	require.NoError(t, err)
	sp.SpawnBatch(30, func(i int, a *systems.Spawned) {
		a.Position.Vec = r2.Vec{X: 2.5 + float64(i%20)*0.9, Y: 2.5 + float64(i/20)*0.9}
	})
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.FlowField{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.ORCA{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(w))
	s.Run(w, 60*60)
	f := generic.NewFilter2[components.Velocity, components.FlowFollower]()
	moving, away := 0, 0 // agent-frames over a second more
	for range 60 {
		s.Update(w)
		q := f.Query(w)
		for q.Next() {
			v, ff := q.Get()
			if r2.Norm(v.Vec) >= 0.01 {
				moving++
			}
			if !ff.Arrived {
				away++
			}
		}
	}
	assert.Zero(t, moving, "agent-frames at 0.01 cells/s or more")
	assert.Zero(t, away, "agent-frames not arrived")
	r := systems.Diagnose(w)
	assert.Zero(t, r.Total(), r.String())
}
