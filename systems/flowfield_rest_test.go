package systems_test

import (
	"math"
	"os"
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
// Arrived, 0–7 agents a second moving at up to 3.9 cells/s. The rule that
// keeps agents at rest (keepRims) then counted a crowd at restShare (3/4) of
// the packing as packed, ending at a gap of more than 1.5 Spacings (an agent
// pushed away from its crowd still walks back). That left the agents that
// reach the crowd after it relaxed, or the last few of a crowd gathered on one
// side of its goal: the join rule, which wants the packing itself, lets them
// in only deep inside the crowd (its rim shrinks 109 → 86 steps from 10 to
// 90 s while the keep's stays at 135–145), and they pressed at the rim at a
// few hundredths of a cell a second until they
// fitted; the crowd came to rest only at 50–80 s, and shifting the spawn
// points east by 0 to 0.5 cells (12 runs, restDraws) failed the claims below
// in 8 of 12. Then an agent this slow within the keep's disk, one Spacing
// inside its rim, joined (arrivalSlow), and Movement held small discs out of
// walls: every crowd at rest by 20–37 s in 10 of the 12 draws; in the other
// 2, one agent at rest pushed into the gap behind the crowd, past the keep's
// rim, was released late (the crowd all at rest again at 75 and 89 s) and
// walked back 2.7 and 6.5 cells. Now an agent at rest stands still under a
// push of less than a tenth of its MaxForce (restPush) and casts no wall
// feelers, and a slow agent joins anywhere within the keep's rest disk
// (arrivalSlowIn 0): in all 12 draws every agent is Arrived by 12.6–14.1 s
// and since, none moves at 0.1 cells/s after 18 s, and none at all after
// 65 s (TestFlowCrowdAtAStaticGoalComesToRestAnyDraw).
func TestFlowCrowdAtAStaticGoalComesToRest(t *testing.T) {
	t.Parallel()
	r := restRun(t, 0)
	assert.LessOrEqual(t, r.allSince, 20*60, "every agent Arrived by 20 s and since")
	assert.Zero(t, r.fastest, "no agent moving at all after 65 s")
	assert.Zero(t, r.flips, "changes of Arrived from 60 to 90 s")
	assert.Less(t, r.walked, 0.5, "the farthest an agent moved from 65 to 90 s")
}

// TestFlowCrowdAtAStaticGoalComesToRestAnyDraw runs
// TestFlowCrowdAtAStaticGoalComesToRest's crowd from 12 draws of its spawn
// points (restDraws). In each: every agent Arrived by 20 s and since, no
// change of Arrived from 60 to 90 s, no agent moving at all after 65 s (see
// the other test for the figures; before restPush and arrivalSlowIn 0, 2 of
// the 12 released one agent late, and main's before that 8 failed).
func TestFlowCrowdAtAStaticGoalComesToRestAnyDraw(t *testing.T) {
	if os.Getenv("ARCHAI_LONG") == "" {
		t.Skip("12 runs of 90 s: ARCHAI_LONG=1")
	}
	for _, shift := range restDraws {
		r := restRun(t, shift)
		assert.LessOrEqual(t, r.allSince, 20*60, "shift %.2f: every agent Arrived by 20 s and since", shift)
		assert.Zero(t, r.flips, "shift %.2f: changes of Arrived from 60 to 90 s", shift)
		assert.Zero(t, r.fastest, "shift %.2f: the fastest agent after 65 s (cells/s)", shift)
	}
}

// restDraws are the shifts east and south, in cells, of the spawn points of
// restRun's draws.
var restDraws = []float64{0, 0.01, 0.03, 0.05, 0.07, 0.09, 0.11, 0.13, 0.2, 0.3, 0.4, 0.5}

// restResult is what restRun measured.
type restResult struct {
	arrivedAt60, arrivedAt90 int
	allSince                 int     // the first frame since which every agent is Arrived (0: not at the end)
	lastFast                 int     // the last frame with an agent at 0.1 cells/s or more
	flips                    int     // changes of Arrived from 60 to 90 s
	fastest, walked          float64 // from 65 s on: the fastest agent (cells/s), the farthest one moved (cells)
	walkers                  int     // agents that moved 0.5 cells or more from 65 to 90 s
}

// restRun runs TestFlowCrowdAtAStaticGoalComesToRest's crowd for 90 s, its
// spawn points shifted east and south by shift cells.
func restRun(t *testing.T, shift float64) restResult {
	t.Helper()
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
		pts = append(pts, r2.Vec{X: 2.5 + shift + float64(i%20), Y: 8.5 + shift + float64(i/20)*2})
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
	var r restResult
	for frame := 1; frame <= 90*60; frame++ {
		s.Update(w)
		arrived := 0
		q := f.Query(w)
		for q.Next() {
			p, v, ff := q.Get()
			e := q.Entity()
			if frame > 60*60 && was[e] != ff.Arrived {
				r.flips++
			}
			was[e] = ff.Arrived
			if ff.Arrived {
				arrived++
			}
			speed := r2.Norm(v.Vec)
			if speed >= 0.1 {
				r.lastFast = frame
			}
			if frame > 65*60 {
				r.fastest = math.Max(r.fastest, speed)
			}
			if frame == 65*60 {
				at65[e] = p.Vec
			} else if frame == 90*60 {
				d := r2.Norm(r2.Sub(p.Vec, at65[e]))
				r.walked = math.Max(r.walked, d)
				if d >= 0.5 {
					r.walkers++
				}
			}
		}
		switch frame {
		case 60 * 60:
			r.arrivedAt60 = arrived
		case 90 * 60:
			r.arrivedAt90 = arrived
		}
		if arrived < 300 {
			r.allSince = 0
		} else if r.allSince == 0 {
			r.allSince = frame
		}
	}
	t.Logf("shift %.2f: %d of 300 Arrived at 60 s; all Arrived since %.1f s; last agent at 0.1 cells/s or more at %.1f s; "+
		"60-90 s: %d changes of Arrived; 65-90 s: the farthest an agent moved %.2f cells (%d agents 0.5 cells or more), the fastest %.3f cells/s",
		shift, r.arrivedAt60, float64(r.allSince)/60, float64(r.lastFast)/60, r.flips, r.walked, r.walkers, r.fastest)
	if r.allSince == 0 {
		r.allSince = math.MaxInt
	}
	return r
}
