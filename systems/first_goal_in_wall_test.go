package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
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

// The first program with its goal inside the wall (30.5, 10.5): the couriers that rest
// short of it, farther than the tree's 1 cell, walk on for ever and push those that
// made it off again, so they never all arrive (the README warns of it). Turned into the
// nearest open cell with grid.NearestOpen first, as the README advises, all four arrive
// and rest there.
func TestFirstProgramWithAGoalInAWall(t *testing.T) {
	at := func(t *testing.T, goal r2.Vec, project bool) (arrived, moving int) {
		world := arche.NewWorld()
		w := &world
		g := grid.New(64, 64)
		for y := range int32(50) {
			g.SetCost(grid.Cell{X: 30, Y: y}, grid.Blocked)
		}
		arche.AddResource(w, g)
		if c, ok := g.NearestOpen(goal, 8); ok && project {
			goal = g.Center(c) // (29.5, 10.5): beside the wall, on the couriers' side
		}
		near := func(c *bt.Context) bool { return r2.Norm(r2.Sub(systems.AgentOf(c).Position.Vec, goal)) < 1 }
		tree, err := bt.Compile("courier", bt.ReactiveSelector(
			bt.Sequence(bt.Condition("Arrived", near), bt.Action("Rest", func(c *bt.Context) bt.Status {
				systems.AgentOf(c).Intent.Move = false
				return bt.Success
			})),
			bt.Action("WalkToGoal", func(c *bt.Context) bt.Status {
				in := systems.AgentOf(c).Intent
				in.Move, in.Goal = true, goal
				return bt.Running
			})))
		require.NoError(t, err)
		couriers, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree})
		require.NoError(t, err)
		for _, p := range []r2.Vec{{X: 5.5, Y: 20.5}, {X: 2.5, Y: 2.5}, {X: 6.5, Y: 21.5}, {X: 3.5, Y: 3.5}} {
			couriers.Spawn(p, nil)
		}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Decision{},
			&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
		require.NoError(t, s.InitializeChecked(w))
		defer s.Finalize(w)
		s.Run(w, 1800)
		q := generic.NewFilter2[components.Position, components.Intent]().Query(w)
		for q.Next() {
			pos, in := q.Get()
			if r2.Norm(r2.Sub(pos.Vec, goal)) < 1 {
				arrived++
			}
			if in.Move {
				moving++
			}
		}
		return arrived, moving
	}
	goal := r2.Vec{X: 30.5, Y: 10.5}
	t.Run("as clicked", func(t *testing.T) {
		arrived, moving := at(t, goal, false)
		assert.Less(t, arrived, 4, "not all four get within 1 cell of a goal in a wall")
		assert.Positive(t, moving, "those farther off walk on")
	})
	t.Run("nearest open", func(t *testing.T) {
		arrived, moving := at(t, goal, true)
		assert.Equal(t, 4, arrived)
		assert.Zero(t, moving)
	})
}
