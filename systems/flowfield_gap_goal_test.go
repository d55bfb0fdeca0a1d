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

// TestFlowCrowdWhoseGoalStepsThroughAGapComesToRest: 60 FlowFollowers at
// rest about their goal, beside a wall one cell thick with a gap two cells
// wide; the goal then walks 2 cells east, through the gap, in one frame, at
// 2 cells/s or at 1 cell/s. Those that fit follow it (5), the rest stay
// against the wall; 30 s and 60 s after, every agent stands still (Velocity
// exactly zero) and none is Following. A tester saw the fastest at 0.10
// cells/s after 10 s and 0.009 after 120 s, and 3 agents Following for
// good, before a follower slow while its goal stands stopped following
// (FlowField's jobStepped rule) and an agent at rest stood still under a
// small push (Steer's restPush); now the last moves about 10 s after.
func TestFlowCrowdWhoseGoalStepsThroughAGapComesToRest(t *testing.T) {
	t.Parallel()
	for _, pace := range []int{1, 30, 60} { // frames a cell
		t.Run(fmt.Sprintf("%d frames a cell", pace), func(t *testing.T) { t.Parallel(); gapGoalRun(t, pace) })
	}
}

func gapGoalRun(t *testing.T, pace int) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(40, 40)
	for y := int32(0); y < 40; y++ {
		if y != 19 && y != 20 {
			g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
		}
	}
	arche.AddResource(w, g)
	goal := grid.Cell{X: 19, Y: 19}
	crowd, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal})
	require.NoError(t, err)
	for i := range 60 {
		crowd.Spawn(r2.Vec{X: 8.5 + float64(i%6), Y: 15.5 + float64(i/6)}, nil)
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.FlowField{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 60*60)
	f := generic.NewFilter3[components.Position, components.Velocity, components.FlowFollower]()
	measure := func() (fastest float64, moving, following, east int) {
		q := f.Query(w)
		for q.Next() {
			p, v, ff := q.Get()
			if sp := r2.Norm(v.Vec); sp != 0 {
				moving++
				fastest = max(fastest, sp)
			}
			if ff.Following {
				following++
			}
			if p.X > 21 {
				east++
			}
		}
		return
	}
	fa, mv, fo, _ := measure()
	t.Logf("before the goal walks: fastest %.4f, %d moving, %d Following", fa, mv, fo)
	for _, c := range []grid.Cell{{X: 20, Y: 19}, {X: 21, Y: 19}} {
		setGoal(w, c)
		s.Run(w, pace)
	}
	done := 1
	for _, sec := range []int{2, 10, 30, 60} {
		s.Run(w, (sec-done)*60)
		done = sec
		fa, mv, fo, ea := measure()
		t.Logf("pace %d: %d s after: fastest %.4f cells/s, %d moving, %d Following, %d east of the wall, %d touching it", pace, sec, fa, mv, fo, ea, touching(w))
	}
	fa, mv, fo, _ = measure() // 60 s after; the 30 s figures are logged
	assert.Zero(t, mv, "moving (fastest %.4f)", fa)
	assert.Zero(t, fo, "Following")
}

// touching counts the agents whose disc is within 0.01 cells of the wall's
// west face (x = 20).
func touching(w *arche.World) int {
	n := 0
	q := generic.NewFilter2[components.Position, components.Kinematics]().Query(w)
	for q.Next() {
		p, k := q.Get()
		if p.X < 20 && p.X+k.Radius > 20-0.01 && (p.Y < 19 || p.Y > 21) {
			n++
		}
	}
	return n
}

func setGoal(w *arche.World, c grid.Cell) {
	q := generic.NewFilter1[components.FlowFollower]().Query(w)
	for q.Next() {
		q.Get().Goal = c
	}
}
