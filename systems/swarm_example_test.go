package systems_test

import (
	"fmt"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/nav/spatial"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// A swarm that shares a goal: 200 agents spawned with the FlowFollower bundle
// cross a room split by a wall with one gap, all following one flow field
// (FlowField, then PathFollow, Steer and Movement), and pack around the goal.
// No agent thinks or asks for a path; changing FlowFollower.Goal sends them
// elsewhere.
func Example_flowFieldSwarm() {
	world := arche.NewWorld()
	g := grid.New(64, 64)
	for y := 0; y < 64; y++ {
		if y < 30 || y > 33 { // a wall with a 4-cell gap
			g.SetCost(grid.Cell{X: 32, Y: int32(y)}, grid.Blocked)
		}
	}
	arche.AddResource(&world, g)

	goal := grid.Cell{X: 56, Y: 8}
	swarm, err := systems.NewSpawner(&world, systems.FlowFollower{Goal: goal})
	if err != nil {
		fmt.Println(err)
		return
	}
	var starts []r2.Vec // 200 agents in a block on the left of the wall
	for y := 0; y < 20; y++ {
		for x := 0; x < 10; x++ {
			starts = append(starts, r2.Vec{X: 4.5 + float64(x), Y: 20.5 + float64(y)})
		}
	}
	order, _ := spatial.TileOrder(starts, 8, nil)
	swarm.SpawnBatch(len(order), func(k int, a *systems.Spawned) {
		a.Position.Vec = starts[order[k]]
	})

	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.FlowField{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(&world)
	fmt.Println(systems.Diagnose(&world))
	filter := generic.NewFilter2[components.Position, components.FlowFollower]()
	inWall := 0
	for range 60 * 60 { // 60 s of simulation time, checking every frame
		s.Run(&world, 1)
		q := filter.Query(&world)
		for q.Next() {
			if p, _ := q.Get(); !g.Passable(g.CellAt(p.Vec)) {
				inWall++
			}
		}
	}

	near, arrived := 0, 0
	centre := g.Center(goal)
	q := filter.Query(&world)
	for q.Next() {
		p, ff := q.Get()
		if r2.Norm(r2.Sub(p.Vec, centre)) < 10 {
			near++
		}
		if ff.Arrived {
			arrived++
		}
	}
	s.Finalize(&world)
	// (the crowd at rest spreads as separation pushes it apart, and since the
	// session of 2026-12-04 14:52 stays at rest as it does, restShare: 199 at
	// rest, 10 of them 10.1–10.9 cells out; was 198 within 10 cells and 198;
	// since Movement holds small discs out of walls and off the grid's edge,
	// which the crowd about this goal 8 cells from two edges meets, all 200;
	// since an agent held off at the crowd's rim joins it (arrivalSlow), 187
	// within 10 cells, the crowd less pressed; 193 later, and 192 since a
	// whole-grid follower pushed so that its way to its Aim crosses a wall
	// samples again, session of 2026-12-06 09:17)
	fmt.Printf("%d of %d within 10 cells of the goal, %d arrived, %d ever in a wall\n", near, len(starts), arrived, inWall)
	// Output:
	// diagnostics: 200 agents, no misconfiguration
	// 192 of 200 within 10 cells of the goal, 200 arrived, 0 ever in a wall
}
