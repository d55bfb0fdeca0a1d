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

// This example's guard (a Thinker without a Mover) sets Intent.Move while it
// chases, and its own Script system moves it by reading that flag, a valid
// setup ("the decision layer writes intent only"). Tagged
// components.OwnMotion, it is not counted steer_incomplete during the chase;
// without the tag every chasing frame is (a reviewer found the example
// counted).
func TestGuardChasingWithOwnMotion(t *testing.T) {
	for _, own := range []bool{false, true} {
		world := arche.NewWorld()
		w := &world
		g := &guard{out: io.Discard, threats: generic.NewMap[Threat](w), combat: generic.NewMap[Combat](w)}
		tree, err := g.CombatTree()
		require.NoError(t, err)
		machine, err := g.Machine(tree)
		require.NoError(t, err)
		bundles := []systems.Bundle{systems.Thinker{Machine: machine, Interval: 0.1},
			systems.With(components.Health{Current: 100, Max: 100}), systems.With(Threat{}), systems.With(Combat{})}
		if own {
			bundles = append(bundles, systems.With(components.OwnMotion{}))
		}
		guards, err := systems.NewSpawner(w, bundles...)
		require.NoError(t, err)
		e := guards.Spawn(r2.Vec{}, nil)
		s := ecs.NewScheduler(ecs.NewClockSystem(Step), &systems.FSM{}, &Script{Out: io.Discard})
		s.Initialize(w)
		in := generic.NewMap[components.Intent](w)
		counted, chasing := 0, 0
		for range 200 {
			s.Update(w)
			if in.Get(e).Move {
				chasing++
				counted += systems.Diagnose(w).Counts[systems.CauseSteerIncomplete]
			}
		}
		s.Finalize(w)
		require.Positive(t, chasing, "the guard chases")
		if own {
			require.Zero(t, counted, "tagged OwnMotion: its own Script moves it")
		} else {
			require.Equal(t, chasing, counted, "untagged: every chasing frame is counted")
		}
	}
}
