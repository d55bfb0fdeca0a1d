package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/nav/spatial"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A crowd at a goal with open ground around it comes fully to rest: 300
// default FlowFollowers cross a wall by a 4-cell gap to a goal 14 cells
// beyond it (a newcomer's program). A crowd at rest still spreads out for a
// minute or more as separation pushes its agents apart (packed at one per
// Spacing² by the arrival rule, it relaxes to about 3/4 of that), so its rim
// creeps outwards at up to 0.05 cells/s while the rims the rule gives shrink;
// the agents at rest on the rim were released one by one as the keep's rim
// passed them, walked 2–3 cells back into the crowd and pressed into it until
// they fitted, and so kept it spreading: from 60 to 90 s, 293–299 of 300
// Arrived, 0–7 agents a second moving at up to 3.9 cells/s, 3 of them walking
// 3–4 cells in the last 10 s. Now the rule that keeps agents at rest
// (keepRims) counts a crowd at restShare (3/4) of the packing as packed, and
// ends at a gap of more than 1.5 Spacings (an agent pushed away from its
// crowd still walks back): 299 Arrived at 60 s, the last agent (one that
// had pressed into the crowd since 40 s) comes to rest at 62.6 s, and from
// 65 to 90 s no agent moves at 0.05 cells/s or more (0.43 cells at most, the
// crowd still relaxing). Before: 293 Arrived at 60 s and never all, 29
// changes of Arrived from 60 to 90 s, agents at up to 4 cells/s and 3.26
// cells from 65 to 90 s.
//
// Important: this run passes by its draw. An agent that reaches the crowd
// after it has relaxed is not at rest, so the join rule, which wants the
// packing itself, holds it only deep inside the crowd: its rim (gl.arrive)
// shrinks as the crowd relaxes (109 → 86 steps from 10 to 90 s here) while
// the keep's stays at 135–145, and the late agent presses at the rim (step
// 105–110) at 0.1–0.3 cells/s until it is let in, or for good. Shifting the
// spawn points east by 0 to 0.13 cells (8 runs) fails this test in 4 of them
// (every agent at rest only from 80.5–89.4 s, agents at up to 3.2 cells/s
// after 65 s; or one at 0.103 cells/s at 68.9 s); Movement holding small discs out of walls (branch
// wip-discs-out-of-walls) fails it with the spawn points unshifted.
func TestFlowCrowdAtAStaticGoalComesToRest(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(64, 48)
	for y := range 48 {
		if y < 22 || y >= 26 {
			g.SetCost(grid.Cell{X: 32, Y: int32(y)}, grid.Blocked)
		}
	}
	arche.AddResource(w, g)
	goal := grid.Cell{X: 46, Y: 24}
	sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal})
	require.NoError(t, err)
	var pts []r2.Vec
	for i := range 300 {
		pts = append(pts, r2.Vec{X: 2.5 + float64(i%20), Y: 8.5 + float64(i/20)*2})
	}
	order, _ := spatial.TileOrder(pts, 8, nil)
	sp.SpawnBatch(len(order), func(k int, a *systems.Spawned) { a.Position.Vec = pts[order[k]] })
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.FlowField{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)
	f := generic.NewFilter3[components.Position, components.Velocity, components.FlowFollower]()
	was := map[arche.Entity]bool{}
	at65 := map[arche.Entity]r2.Vec{}
	var flips, arrivedAt60, lastFast, allSince int
	var fastest, walked float64 // from 65 s on
	for frame := 1; frame <= 90*60; frame++ {
		s.Update(w)
		arrived := 0
		q := f.Query(w)
		for q.Next() {
			p, v, ff := q.Get()
			e := q.Entity()
			if frame > 60*60 && was[e] != ff.Arrived {
				flips++
			}
			was[e] = ff.Arrived
			if ff.Arrived {
				arrived++
			}
			speed := r2.Norm(v.Vec)
			if speed >= 0.1 {
				lastFast = frame
			}
			if frame > 65*60 {
				fastest = math.Max(fastest, speed)
			}
			if frame == 65*60 {
				at65[e] = p.Vec
			} else if frame == 90*60 {
				walked = math.Max(walked, r2.Norm(r2.Sub(p.Vec, at65[e])))
			}
		}
		if frame == 60*60 {
			arrivedAt60 = arrived
		}
		if arrived < 300 {
			allSince = 0
		} else if allSince == 0 {
			allSince = frame
		}
	}
	t.Logf("%d of 300 Arrived at 60 s; all Arrived since %.1f s; last agent at 0.1 cells/s or more at %.1f s; "+
		"60-90 s: %d changes of Arrived; 65-90 s: the farthest an agent moved %.2f cells, the fastest %.3f cells/s",
		arrivedAt60, float64(allSince)/60, float64(lastFast)/60, flips, walked, fastest)
	assert.GreaterOrEqual(t, arrivedAt60, 299, "Arrived at 60 s")
	assert.Positive(t, allSince, "every agent Arrived at the end")
	assert.LessOrEqual(t, allSince, 65*60, "every agent Arrived by 65 s and since")
	assert.LessOrEqual(t, fastest, 0.1, "no agent moving at 0.1 cells/s or more after 65 s")
	assert.LessOrEqual(t, flips, 1, "changes of Arrived from 60 to 90 s (the last agent coming to rest)")
	assert.Less(t, walked, 0.5, "the farthest an agent moved from 65 to 90 s")
}
