package main

import (
	"io"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Review finding: this example's guard (a Thinker without a Mover) sets
// Intent.Move while it chases, and its own Script system moves it by reading
// that flag, a valid setup ("the decision layer writes intent only"). Diagnose
// counts it steer_incomplete during the chase: SteerIncomplete's move rule
// cannot tell a game's own mover from none. The counts below are what the
// rule gives today.
func TestReviewGuardChasingIsCountedSteerIncomplete(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := &guard{out: io.Discard, threats: generic.NewMap[Threat](w), combat: generic.NewMap[Combat](w)}
	tree, err := g.CombatTree()
	require.NoError(t, err)
	machine, err := g.Machine(tree)
	require.NoError(t, err)
	guards, err := systems.NewSpawner(w, systems.Thinker{Machine: machine, Interval: 0.1},
		systems.With(components.Health{Current: 100, Max: 100}), systems.With(Threat{}), systems.With(Combat{}))
	require.NoError(t, err)
	e := guards.Spawn(r2.Vec{}, nil)
	s := ecs.NewScheduler(ecs.NewClockSystem(Step), &systems.FSM{}, &Script{Out: io.Discard})
	s.Initialize(w)
	defer s.Finalize(w)
	in := generic.NewMap[components.Intent](w)
	counted, chasing := 0, 0
	for range 200 {
		s.Update(w)
		if in.Get(e).Move {
			chasing++
			counted += systems.Diagnose(w).Counts[systems.CauseSteerIncomplete]
		}
	}
	require.Positive(t, chasing, "the guard chases")
	require.Equal(t, chasing, counted, "every chasing frame is counted")
}
