package systems_test

import (
	"fmt"
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

// newbie19's finding 9: SetFlowGoal moves a group's goal in one call: only the
// followers of the old goal change (a group heading elsewhere keeps its own),
// the count is returned, and the swarm then walks to the new goal (its field
// becomes Active) and packs there.
func TestSetFlowGoalMovesOneGroup(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(48, 48)
	arche.AddResource(w, g)
	a, b, moved := grid.Cell{X: 10, Y: 10}, grid.Cell{X: 40, Y: 40}, grid.Cell{X: 40, Y: 8}
	ga, err := systems.NewSpawner(w, systems.FlowFollower{Goal: a})
	require.NoError(t, err)
	gb, err := systems.NewSpawner(w, systems.FlowFollower{Goal: b})
	require.NoError(t, err)
	ga.SpawnBatch(30, func(i int, s *systems.Spawned) {
		s.Position.Vec = r2.Vec{X: 4.5 + float64(i%6), Y: 20.5 + float64(i/6)}
	})
	gb.SpawnBatch(12, func(i int, s *systems.Spawned) {
		s.Position.Vec = r2.Vec{X: 30.5 + float64(i%4), Y: 30.5 + float64(i/4)}
	})
	sch := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.FlowField{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	sch.Initialize(w)
	sch.Run(w, 60)

	assert.Equal(t, 30, systems.SetFlowGoal(w, a, moved))
	assert.Equal(t, 0, systems.SetFlowGoal(w, a, moved), "nobody heads for a any more")
	assert.Equal(t, 12, systems.SetFlowGoal(w, b, b), "from == to: counted, unchanged")
	sch.Run(w, 60*20)

	goals := map[grid.Cell]int{}
	f := generic.NewFilter2[components.Position, components.FlowFollower]()
	q := f.Query(w)
	near := 0
	for q.Next() {
		p, ff := q.Get()
		goals[ff.Goal]++
		if ff.Goal == moved {
			assert.Equal(t, moved, ff.Active, "the new goal's field is followed")
			if r2.Norm(r2.Sub(p.Vec, g.Center(moved))) < 6 {
				near++
			}
		}
	}
	assert.Equal(t, map[grid.Cell]int{moved: 30, b: 12}, goals)
	assert.Equal(t, 30, near, "the group walked to its new goal")
}

// A swarm chasing a player: the player walks along the bottom of a room; each
// time it enters another cell, the swarm's shared goal is moved there with one
// SetFlowGoal call (the cell given last time is the group's key). The flow
// field of each new goal is built once and shared by all 150 followers.
func Example_swarmChasingAPlayer() {
	world := arche.NewWorld()
	w := &world
	g := grid.New(64, 40)
	for y := 12; y < 28; y++ { // a wall across the room, open at both ends
		g.SetCost(grid.Cell{X: 32, Y: int32(y)}, grid.Blocked)
	}
	arche.AddResource(w, g)
	player := r2.Vec{X: 8.5, Y: 34.5}
	target := g.CellAt(player)
	swarm, err := systems.NewSpawner(w, systems.FlowFollower{Goal: target})
	if err != nil {
		fmt.Println(err)
		return
	}
	swarm.SpawnBatch(150, func(i int, a *systems.Spawned) {
		a.Position.Vec = r2.Vec{X: 4.5 + float64(i%15), Y: 4.5 + float64(i/15)}
	})
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.FlowField{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	moves := 0
	for frame := 0; frame < 60*30; frame++ {
		if player.X < 56 {
			player.X += 1.5 / 60 // 1.5 cells per second, slower than the swarm
		}
		if c := g.CellAt(player); c != target {
			systems.SetFlowGoal(w, target, c) // the whole swarm, at once
			target = c
			moves++
		}
		s.Update(w)
	}
	near := 0
	f := generic.NewFilter1[components.Position]()
	q := f.Query(w)
	for q.Next() {
		if r2.Norm(r2.Sub(q.Get().Vec, player)) < 10 {
			near++
		}
	}
	fmt.Printf("the goal moved %d times; %d of 150 within 10 cells of the player\n", moves, near)
	// Output:
	// the goal moved 45 times; 150 of 150 within 10 cells of the player
}
