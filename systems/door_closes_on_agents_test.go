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

// A door two cells thick closes (SetCost Blocked) on agents standing in it: each one
// must walk out of the wall, on whichever side it heads for, instead of standing in it
// for good. Before, Movement let an agent in a blocked cell step only into open cells,
// so one in the door's west cell heading east (its next cell, the door's east cell,
// blocked too) never moved again: in a 20,000-agent flow-field swarm, 8 of the 309
// agents in a closing door were still in it 40 s later.
func TestAgentsInAClosingDoorWalkOut(t *testing.T) {
	for _, kind := range []string{"flow", "sectors", "mover", "orca"} {
		t.Run(kind, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			g := grid.New(40, 20)
			for y := int32(0); y < 20; y++ {
				if y < 8 || y > 11 {
					g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
					g.SetCost(grid.Cell{X: 21, Y: y}, grid.Blocked)
				}
			}
			arche.AddResource(w, g)
			goal := r2.Vec{X: 35.5, Y: 9.5}
			sp, err := systems.NewSpawner(w, escapeBundles(kind, g.CellAt(goal))...)
			require.NoError(t, err)
			// in the door's west cells, east cells, and both, all heading east
			in := []r2.Vec{{X: 20.2, Y: 8.5}, {X: 20.8, Y: 9.3}, {X: 20.5, Y: 10.7}, {X: 21.3, Y: 11.5}, {X: 21.9, Y: 8.2}}
			for _, p := range in {
				sp.Spawn(p, func(a *systems.Spawned) {
					if kind == "mover" || kind == "orca" {
						a.MoveTo(goal)
					}
				})
			}
			s := ecs.NewScheduler(escapeSystems(kind)...)
			s.Initialize(w)
			defer s.Finalize(w)
			s.Run(w, 2) // they start walking east through the door
			for y := int32(8); y <= 11; y++ {
				g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
				g.SetCost(grid.Cell{X: 21, Y: y}, grid.Blocked)
			}
			s.Run(w, 600) // 10 s
			q := generic.NewFilter1[components.Position]().Query(w)
			for q.Next() {
				p := q.Get().Vec
				assert.True(t, g.Passable(g.CellAt(p)), "%v still in the closed door at %v", q.Entity(), p)
			}
			assert.Equal(t, 0, systems.Diagnose(w).Counts[systems.CauseBlocked])
		})
	}
}

// escapeBundles are the bundles of an agent of kind "flow" or "sectors" (a flow
// follower of goal), "mover" (a path follower) or "orca" (a path follower avoiding
// with ORCA), for the tests of agents walking out of a wall.
func escapeBundles(kind string, goal grid.Cell) []systems.Bundle {
	switch kind {
	case "mover":
		return []systems.Bundle{systems.Mover{}}
	case "orca":
		return []systems.Bundle{systems.Mover{}, systems.Avoider{}}
	}
	return []systems.Bundle{systems.FlowFollower{Goal: goal}}
}

// escapeSystems is the schedule for agents of escapeBundles(kind): a whole-grid flow
// field ("flow"), one of 8-cell sectors ("sectors"), or a PathQueue, then PathFollow,
// Steer, ORCA for "orca", and Movement.
func escapeSystems(kind string) []ecs.System {
	list := []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{}}
	switch kind {
	case "flow":
		list = append(list, &systems.FlowField{})
	case "sectors":
		list = append(list, &systems.FlowField{Sectors: 8})
	default:
		list = append(list, &systems.PathQueue{})
	}
	list = append(list, &systems.PathFollow{}, &systems.Steer{})
	if kind == "orca" {
		list = append(list, &systems.ORCA{})
	}
	return append(list, &systems.Movement{})
}
