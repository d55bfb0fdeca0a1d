package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Regression (issue 9): an agent spawned after Spatial ran, in a crowd that
// shrank, reused the entity ID of an agent that had a larger hash ID in an
// earlier frame; Steer looked itself up with that stale ID and indexed past
// the end of Neighbours.Entities.
func TestSteerAgentSpawnedAfterSpatialInAShrunkCrowd(t *testing.T) {
	w, _ := newWorld(16, 16)
	m := generic.NewMap6[components.Position, components.Velocity, components.Kinematics, components.Steering,
		components.Intent, components.SteeringWeights](w)
	spawn := func(i int) arche.Entity {
		e := m.New()
		pos, _, kin, _, _, wt := m.Get(e)
		pos.Vec = r2.Vec{X: 4 + 0.3*float64(i%10), Y: 4 + 0.3*float64(i/10)}
		*kin = components.Kinematics{MaxSpeed: 2, MaxForce: 10, Radius: 0.3}
		*wt = components.SteeringWeights{Wall: 1, Separation: 1, SeparationRadius: 1, Alignment: 1, Cohesion: 1, NeighbourRadius: 2}
		return e
	}
	clock := ecs.NewClockSystem(1.0 / 60)
	sp, st := &Spatial{}, &Steer{Workers: 1}
	clock.Initialize(w)
	sp.Initialize(w)
	st.Initialize(w)
	frame := func() { clock.Update(w); sp.Update(w); st.Update(w) }

	crowd := make([]arche.Entity, 10)
	for i := range crowd {
		crowd[i] = spawn(i)
	}
	frame()
	for _, e := range crowd[1:] {
		w.RemoveEntity(e) // the crowd shrinks to one
	}
	frame()
	clock.Update(w)
	sp.Update(w)
	var late []arche.Entity
	for i := range 9 {
		late = append(late, spawn(i+1)) // reuse the removed agents' entity IDs
	}
	require.NotPanics(t, func() { st.Update(w) })
	nb := ecs.Resource[Neighbours](w)
	for _, e := range late {
		assert.Equal(t, int32(-1), nb.ID(e), "an agent spawned after Spatial is not in this frame's hash")
		_, _, _, force, _, _ := m.Get(e)
		assert.True(t, finiteVec(force.Force))
	}
	assert.Equal(t, int32(0), nb.ID(crowd[0]))
	frame()
	for _, e := range late {
		assert.GreaterOrEqual(t, nb.ID(e), int32(0), "in the hash from the next frame on")
	}
}
