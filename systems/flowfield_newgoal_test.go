package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// With Budget 0 ("each field built at once") a goal new to the cache is
// followed in the frame that first asks for it: before, its field was built at
// the end of that frame, so a swarm stood still (Has false) on its first frame
// and followed its former goal's field for a frame after SetFlowGoal, Waiting
// counting every follower.
func TestFlowFieldBudgetZeroFollowsANewGoalInItsFirstFrame(t *testing.T) {
	world := arche.NewWorld()
	arche.AddResource(&world, grid.New(32, 32))
	first, second := grid.Cell{X: 30, Y: 30}, grid.Cell{X: 5, Y: 30}
	sw, err := systems.NewSpawner(&world, systems.FlowFollower{Goal: first})
	if err != nil {
		t.Fatal(err)
	}
	sw.SpawnBatch(10, func(i int, a *systems.Spawned) { a.Position.Vec = r2.Vec{X: 2.5 + float64(i), Y: 2.5} })
	ff := &systems.FlowField{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, ff,
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	if err := s.InitializeChecked(&world); err != nil {
		t.Fatal(err)
	}
	filter := generic.NewFilter1[components.FlowFollower]()
	check := func(when string, goal grid.Cell) {
		t.Helper()
		if ff.Waiting != 0 {
			t.Errorf("%s: Waiting = %d, want 0", when, ff.Waiting)
		}
		n := 0
		q := filter.Query(&world)
		for q.Next() {
			f := q.Get()
			if f.Active != goal || !f.Has || !f.Steer {
				t.Errorf("%s: follower %v: Active %v Has %v Steer %v, want Active %v Has and Steer true",
					when, q.Entity(), f.Active, f.Has, f.Steer, goal)
			}
			n++
		}
		if n != 10 {
			t.Fatalf("%s: %d followers, want 10", when, n)
		}
	}
	s.Run(&world, 1)
	check("first frame", first)
	s.Run(&world, 30)
	if got := systems.SetFlowGoal(&world, first, second); got != 10 {
		t.Fatalf("SetFlowGoal moved %d followers, want 10", got)
	}
	s.Run(&world, 1)
	check("first frame after SetFlowGoal", second)
}
