package systems_test

import (
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
)

// GetOf on an entity of another world (a target kept from a level before a
// restart, say) whose ID lies past this world's entities must answer nil, as for a
// dead entity, not panic indexing Arche's pool.
func TestGetOfEntityOfAnotherWorldIsNil(t *testing.T) {
	big := arche.NewWorld()
	var far arche.Entity
	for range 100 {
		far = big.NewEntity(arche.ComponentID[components.Faction](&big))
	}
	small := arche.NewWorld()
	mine := small.NewEntity(arche.ComponentID[components.Faction](&small))
	a := &systems.Agent{World: &small, Entity: mine}
	assert.NotPanics(t, func() {
		assert.Nil(t, systems.GetOf[components.Faction](a, far))
	})
	assert.NotNil(t, systems.GetOf[components.Faction](a, mine))
}

type late19 struct{ N int } // registered after Initialize, then added to some agents
type late19b struct{ F float64 }
type never19 struct{ B byte }

// Get on 3 and 4 workers at once of types registered after Initialize (one
// added to the agents between frames, one registered by an entity of its own
// elsewhere, one no entity has): every agent reads its own value, frame after
// frame, while the types are being learnt (run it under -race).
func TestGetLateTypesOnManyWorkers(t *testing.T) {
	for _, workers := range []int{3, 4} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(64, 64))
		act := func(x any) {
			a := systems.UtilityAgent(x)
			l := systems.Get[late19](a)
			if l != nil {
				l.N++ // its own component: written by its own action only
			}
			_ = systems.Get[late19b](a)
			if systems.Get[never19](a) != nil {
				panic("never19 found")
			}
		}
		r, err := utility.New("r19", utility.Policy{}, utility.Action{Name: "read", Act: act})
		require.NoError(t, err)
		sp, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r, Interval: 0.1})
		require.NoError(t, err)
		var es []arche.Entity
		for i := range 600 {
			es = append(es, sp.Spawn(r2.Vec{X: 1.5 + float64(i%60), Y: 1.5 + float64(i/60)}, nil))
		}
		s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.Utility{Workers: workers})
		s.Initialize(w)
		s.Run(w, 2)
		id := arche.ComponentID[late19](w) // registered after Initialize
		for _, e := range es[:300] {
			w.Add(e, id)
		}
		w.NewEntity(arche.ComponentID[late19b](w))
		s.Run(w, 10) // 10 frames of 0.1 s: each agent thinks 10 times
		m := generic.NewMap1[late19](w)
		for i, e := range es {
			if i < 300 {
				assert.Equal(t, 10, m.Get(e).N, "agent %d, %d workers", i, workers)
			} else {
				assert.False(t, w.Has(e, id))
			}
		}
	}
}

type tag19 struct{} // a zero-size tag, registered before any system

// Has of a zero-size tag component (Arche stores no bytes for it) is true for an
// entity that has it, false for one without, by a hand-made view.
func TestHasZeroSizeTag(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	id := arche.ComponentID[tag19](w)
	with := w.NewEntity(id)
	without := w.NewEntity(arche.ComponentID[components.Faction](w))
	assert.True(t, systems.Has[tag19](&systems.Agent{World: w, Entity: with}))
	assert.False(t, systems.Has[tag19](&systems.Agent{World: w, Entity: without}))
}

// The overlap error of a Mover with Motion.Avoid = AvoidORCA beside
// With(components.ORCA{...}) told to give the value "through bundle 0's fields":
// a Mover has no ORCA field. It names the Avoider, whose fields hold them.
func TestOverlapErrorOfORCAValuesNamesAvoider(t *testing.T) {
	world := arche.NewWorld()
	_, err := systems.NewSpawner(&world, systems.Mover{Motion: systems.Motion{Avoid: systems.AvoidORCA}},
		systems.With(components.ORCA{TimeHorizon: 5}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Avoider's fields")
	assert.NotContains(t, err.Error(), "through bundle 0's fields")
	_, err = systems.NewSpawner(&world, systems.Mover{}, systems.With(components.Kinematics{MaxSpeed: 5}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "through bundle 0's fields", "other components: the bundle's own fields")
	_, err = systems.NewSpawner(&world, systems.Mover{}, systems.Avoider{TimeHorizon: 5})
	require.NoError(t, err, "the way the message gives")
}
