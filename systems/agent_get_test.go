package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/utility"
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

// seen is what an agent's utility action read of itself through Get, Has and GetOf.
type seen struct {
	Team        uint8
	Range       float64
	MaxSpeed    float64
	ORCA, Late  bool
	Never       bool // Get of a type no entity has: nil, no panic
	RivalTeam   uint8
	RivalHealth float64
	Dead, Zero  bool // GetOf a removed entity and of the zero entity: nil
}

type lateTag struct{}        // registered after the systems' Initialize
type neverComp struct{ int } // never on any entity

// newbie19's finding 8: the Agent view has no Faction, Weapon or Kinematics, and
// none of the program's own components. Get, Has and GetOf read them, from a
// utility action run on 2 workers, including a type first registered after
// Initialize and a type no entity has; once warm, a frame of thinking agents
// that read them allocates nothing.
func TestGetReadsAnyComponentOfTheAgent(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(32, 32))
	var rival, gone arche.Entity
	act := func(x any) {
		a := systems.UtilityAgent(x)
		s := systems.Get[seen](a)
		s.Team = systems.Get[components.Faction](a).Team
		s.Range = systems.Get[components.Weapon](a).Range
		if k := systems.Get[components.Kinematics](a); k != nil { // a Mover's alone
			s.MaxSpeed = k.MaxSpeed
		}
		s.ORCA, s.Late = systems.Has[components.ORCA](a), systems.Has[lateTag](a)
		s.Never = systems.Get[neverComp](a) == nil
		s.RivalTeam = systems.GetOf[components.Faction](a, rival).Team
		s.RivalHealth = systems.GetOf[components.Health](a, rival).Current
		s.Dead = systems.GetOf[components.Faction](a, gone) == nil
		s.Zero = systems.GetOf[components.Faction](a, arche.Entity{}) == nil
	}
	r, err := utility.New("reader", utility.Policy{}, utility.Action{Name: "read", Act: act})
	require.NoError(t, err)
	blue, err := systems.NewSpawner(w, systems.Mover{Motion: systems.Motion{MaxSpeed: 3}}, systems.Thinker{Reasoner: r},
		systems.Combatant{Team: 1, Range: 2.5}, systems.Avoider{}, systems.With(seen{}))
	require.NoError(t, err)
	red, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r}, systems.Combatant{Team: 2, MaxHealth: 70}, systems.With(seen{}))
	require.NoError(t, err)
	var blues, reds []arche.Entity
	for i := range 20 {
		blues = append(blues, blue.Spawn(r2.Vec{X: 1.5 + float64(i), Y: 1.5}, nil))
		reds = append(reds, red.Spawn(r2.Vec{X: 1.5 + float64(i), Y: 5.5}, nil))
	}
	rival = reds[0]
	gone = red.Spawn(r2.Vec{X: 9.5, Y: 9.5}, nil)
	w.RemoveEntity(gone)

	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.Utility{Workers: 2})
	s.Initialize(w)
	late, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r}, systems.Combatant{Team: 3}, systems.With(seen{}), systems.With(lateTag{}))
	require.NoError(t, err)
	lateOne := late.Spawn(r2.Vec{X: 20.5, Y: 20.5}, nil)
	s.Run(w, 3) // every agent thinks within one 0.1 s interval

	sm := generic.NewMap1[seen](w)
	want := seen{Team: 1, Range: 2.5, MaxSpeed: 3, ORCA: true, Never: true, RivalTeam: 2, RivalHealth: 70, Dead: true, Zero: true}
	for _, e := range blues {
		require.Equal(t, want, *sm.Get(e))
	}
	want = seen{Team: 2, Range: 1.5, Never: true, RivalTeam: 2, RivalHealth: 70, Dead: true, Zero: true}
	for _, e := range reds {
		require.Equal(t, want, *sm.Get(e))
	}
	want = seen{Team: 3, Range: 1.5, Late: true, Never: true, RivalTeam: 2, RivalHealth: 70, Dead: true, Zero: true}
	assert.Equal(t, want, *sm.Get(lateOne), "a type registered after Initialize")

	s.Run(w, 10) // the missed types are learnt
	assert.Zero(t, testing.AllocsPerRun(20, func() { s.Update(w) }), "warm: Get allocates nothing")

	// a view made by hand, outside the systems (the world not locked)
	a := &systems.Agent{World: w, Entity: blues[0]}
	assert.Equal(t, uint8(1), systems.Get[components.Faction](a).Team)
	assert.False(t, systems.Has[lateTag](a))
}
