package systems_test

import (
	"os"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestFlowCrowdAtAStoppedGoalStandsStill: a swarm of FlowFollowers
// (chaseRun's: 1,000; 3,000 with ARCHAI_LONG=1) follows a goal that walks a
// cell every 0.5 s along its route for 15 s, then stops; from 40 to 60 s
// after it stopped every agent is Arrived, not Following, and its Velocity
// is exactly zero. Before, the crowd at rest went on spreading under
// separation for minutes (3,000 agents: half of them moving at 0.009 cells/s
// or more 30 s after the stop, and about 0.005 a minute after, a crowd at a
// goal that never moved alike), about 300 agents held off their Follow
// points by the crowd ahead stayed Following and pressed on towards them,
// and about 80 agents at rest against walls swayed at about 0.1 cells/s,
// pushed off by their wall feelers and back by their separation, from frame
// to frame. Now an agent braking at rest stands still under a push of less
// than restPush of its MaxForce, casts no feelers (Movement holds its disc
// off walls), and a follower slow while its goal stands stops following:
// 3,000 agents all stand still from 33 s after the stop.
func TestFlowCrowdAtAStoppedGoalStandsStill(t *testing.T) {
	t.Parallel()
	n := 1000
	if os.Getenv("ARCHAI_LONG") != "" {
		n = 3000
	}
	c := newChaseRun(t, n)
	end := grid.Cell{X: 100, Y: 64}
	require.True(t, c.g.Passable(end))
	c.route = flowfield.New(c.g)
	c.route.Build(end)
	c.run(900, 30, 1) // the goal walks for 15 s
	stopped := c.goal
	c.run(40*60, 0, 0)
	f := generic.NewFilter3[components.Position, components.Velocity, components.FlowFollower]()
	moving, fastest, notArrived, following, lastMoving := 0, 0.0, 0, 0, 0
	for frame := 1; frame <= 20*60; frame++ {
		c.run(1, 0, 0)
		q := f.Query(c.w)
		for q.Next() {
			_, v, ff := q.Get()
			if s := r2.Norm(v.Vec); s != 0 {
				moving++
				fastest = max(fastest, s)
				lastMoving = frame
			}
			if !ff.Arrived {
				notArrived++
			}
			if ff.Following {
				following++
			}
		}
	}
	t.Logf("%d agents, the goal stopped at %v: from 40 to 60 s after, %d agent-frames moving (the fastest %.4f cells/s, the last at %.2f s), %d not Arrived, %d Following",
		n, stopped, moving, fastest, 40+float64(lastMoving)/60, notArrived, following)
	assert.Zero(t, moving, "agent-frames with a Velocity not zero, 40 to 60 s after the goal stopped")
	assert.Zero(t, notArrived, "agent-frames not Arrived")
	assert.Zero(t, following, "agent-frames Following")
}
