package systems_test

import (
	"fmt"
	"io"
	"os"
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

// flowWallWorld is a swarm of n FlowFollowers (the bundle's defaults, with ORCA)
// spawned in rows of 12 west of x = 15 on a 100×40 grid, sent to a goal at (90, 20);
// with door > 0, a wall 8 cells thick at x = 24..31 stands between, open only in
// a corridor door cells wide centred on row 20. sectors is FlowField.Sectors.
// The long runs' world (ARCHAI_LONG=1) and the hash and allocation test's.
func flowWallWorld(t *testing.T, n, door, sectors int) (*arche.World, *ecs.Scheduler) {
	t.Helper()
	g := grid.New(100, 40)
	wallWithDoor(g, 24, 32, door)
	return flowSwarmWorld(t, g, grid.Cell{X: 90, Y: 20}, n, sectors, func(i int) r2.Vec {
		return r2.Vec{X: 2.5 + float64(i%12), Y: 2.5 + 0.9*float64(i/12)}
	})
}

// flowGapWorld is the short runs' world: n FlowFollowers (the bundle's
// defaults, with ORCA) on a 48×24 grid, packed against a wall 4 cells thick at
// x = 12..15 (columns of rows followers 0.9 cells apart, centred on row 12,
// the first column at x = 11.5, the next ones west of it), sent to a goal at
// (40, 12) beyond it; with door > 0 the wall is open only in a corridor door
// cells wide centred on row 12, with door 0 there is no wall.
func flowGapWorld(t *testing.T, n, rows, door, sectors int) (*arche.World, *ecs.Scheduler) {
	t.Helper()
	g := grid.New(48, 24)
	wallWithDoor(g, 12, 16, door)
	return flowSwarmWorld(t, g, grid.Cell{X: 40, Y: 12}, n, sectors, func(i int) r2.Vec {
		return r2.Vec{X: 11.5 - 0.9*float64(i/rows), Y: float64(g.Height())/2 - 0.45*float64(rows) + 0.9*float64(i%rows)}
	})
}

// wallWithDoor blocks columns [x0, x1) of g but for door rows centred on its
// middle row; nothing with door 0.
func wallWithDoor(g *grid.Grid, x0, x1 int32, door int) {
	if door <= 0 {
		return
	}
	lo := int32(g.Height()/2 - door/2)
	for x := x0; x < x1; x++ {
		for y := range int32(g.Height()) {
			if y < lo || y >= lo+int32(door) {
				g.SetCost(grid.Cell{X: x, Y: y}, grid.Blocked)
			}
		}
	}
}

// flowSwarmWorld spawns n FlowFollowers (the bundle's defaults, with ORCA) at
// at(i) on g, sent to goal, and returns the world with its systems (one worker
// each) initialized; sectors is FlowField.Sectors.
func flowSwarmWorld(t *testing.T, g *grid.Grid, goal grid.Cell, n, sectors int, at func(int) r2.Vec) (*arche.World, *ecs.Scheduler) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)
	sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal}, systems.Avoider{})
	require.NoError(t, err)
	for i := range n {
		sp.Spawn(at(i), nil)
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{Workers: 1}, &systems.FlowField{Workers: 1, Sectors: sectors},
		&systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1}, &systems.ORCA{}, &systems.Movement{Workers: 1})
	require.NoError(t, s.InitializeChecked(w))
	t.Cleanup(func() { s.Finalize(w) })
	return w, s
}

// flowLong skips t unless the long runs are asked for (ARCHAI_LONG=1, set by
// .ci/run).
func flowLong(t *testing.T) {
	t.Helper()
	if os.Getenv("ARCHAI_LONG") == "" {
		t.Skip("a long run: ARCHAI_LONG=1")
	}
}

// flowStalled counts the followers not at rest whose run without progress
// along their field (FlowFollower.ProgressCheck) is BlockedSpan old or more:
// those blocked_by_agents looks at.
func flowStalled(w *arche.World) int {
	now := ecs.Resource[ecs.Clock](w).Time
	n := 0
	q := generic.NewFilter1[components.FlowFollower]().Query(w)
	for q.Next() {
		ff := q.Get()
		if ff.ProgressCheck > 0 && !ff.Arrived && now-float64(ff.ProgressCheck)*systems.FlowProgressPeriod >= systems.BlockedSpan {
			n++
		}
	}
	return n
}

// flowCounts counts the followers west of x, and those at rest (Arrived).
func flowCounts(w *arche.World, x float64) (west, arrived int) {
	q := generic.NewFilter2[components.Position, components.FlowFollower]().Query(w)
	for q.Next() {
		p, ff := q.Get()
		if p.X < x {
			west++
		}
		if ff.Arrived {
			arrived++
		}
	}
	return west, arrived
}

// The long runs (ARCHAI_LONG=1; TestFlowSwarmJammedAtAGapIsReportedBlocked and
// TestFlowSwarmAtRestAtItsGoalIsNotBlocked are their short forms): a swarm of
// 400 pushing through a corridor 1 cell wide and 8 long (narrower than
// the crowd, its goal beyond) jams before it: the crowd drains about one agent a
// second, and most of those behind the wall stand without getting a cell nearer
// their goal along the field for BlockedSpan and more, pressed against those in
// front. Diagnose said nothing (blocked_by_agents covered path followers only);
// it counts them, whole-grid fields and sector fields alike, and no follower before
// BlockedSpan has passed. Measured (60 s): 204 of the 342 behind the wall reported
// with whole-grid fields, 303 of 358 with sectors of 8 cells.
func TestFlowSwarmJammedInACorridorIsReportedBlockedLong(t *testing.T) {
	flowLong(t)
	for _, sectors := range []int{0, 8} {
		w, s := flowWallWorld(t, 400, 1, sectors)
		s.Run(w, 60*19)
		require.Zero(t, systems.Diagnose(w).Counts[systems.CauseBlockedByAgents], "sectors %d: no follower without progress for BlockedSpan yet", sectors)
		s.Run(w, 60*41)
		r := systems.Diagnose(w)
		west, _ := flowCounts(w, 24)
		n := r.Counts[systems.CauseBlockedByAgents]
		t.Logf("sectors %d, 60 s: %d behind the wall, %d reported", sectors, west, n)
		require.Greater(t, west, 300, "sectors %d: the swarm is jammed", sectors)
		assert.LessOrEqual(t, n, west, "sectors %d: only followers behind the wall are jammed", sectors)
		assert.Greater(t, n, west/2, "sectors %d: most of the jammed crowd is reported: %s", sectors, r)
		text := r.String()
		assert.Contains(t, text, "a flow follower: no progress along its field for ")
		assert.Contains(t, text, "in front of it touching it: the swarm jams on its way")
	}
}

// The same corridor 2 cells wide drains the swarm (about 6 a second): its back
// waits its turn long enough to be counted (the crowd is jammed there for a while),
// and once all have passed and gathered at the goal nothing is reported.
func TestFlowSwarmDrainedThroughACorridorIsNoLongerReportedLong(t *testing.T) {
	flowLong(t)
	w, s := flowWallWorld(t, 400, 2, 0)
	s.Run(w, 60*30)
	assert.Positive(t, systems.Diagnose(w).Counts[systems.CauseBlockedByAgents], "the back of the crowd waited over BlockedSpan")
	s.Run(w, 60*60)
	west, arrived := flowCounts(w, 24)
	require.Zero(t, west, "all through")
	r := systems.Diagnose(w)
	assert.Zero(t, r.Counts[systems.CauseBlockedByAgents], "%d at rest: %s", arrived, r)
}

// A swarm flowing through a door 12 cells wide, and one crossing open ground, to
// its goal and settling there: nothing is counted, while it flows nor once at rest,
// whole-grid fields and sector fields alike. The followers at the rim of the crowd
// at the goal that do not come to rest (pressing on it: sector mode, measured 16 at
// about 10 cells from the goal) are at their crowd, not on their way (crowdRim).
func TestFlowSwarmFlowingOrSettlingIsNotBlockedLong(t *testing.T) {
	flowLong(t)
	for _, door := range []int{12, 0} {
		for _, sectors := range []int{0, 8} {
			w, s := flowWallWorld(t, 400, door, sectors)
			for k := range 18 {
				s.Run(w, 60*5)
				r := systems.Diagnose(w)
				require.Zero(t, r.Counts[systems.CauseBlockedByAgents], "door %d, sectors %d, %d s: %s", door, sectors, 5*(k+1), r)
			}
			west, arrived := flowCounts(w, 24)
			assert.Zero(t, west, "door %d, sectors %d: all through", door, sectors)
			assert.Greater(t, arrived, 380, "door %d, sectors %d: settled at the goal", door, sectors)
		}
	}
}

// A hand-built jam: 40 followers packed against a wall 4 cells thick, open in a
// corridor 1 cell wide, their goal 24 cells beyond it. They drain through about
// one a second, so most of those still before the wall stand without coming a
// cell nearer their goal along the field for BlockedSpan, pressed against those
// in front: Diagnose counts them (measured at 25 s: 15 of the 27 before the wall
// with whole-grid fields, 21 of 30 with sectors of 8 cells), and none before
// BlockedSpan has passed. Once all have passed (70 s, whole-grid fields) and
// gathered at the goal, none. Before, blocked_by_agents covered path followers
// only, and a swarm jammed for good was not reported.
func TestFlowSwarmJammedAtAGapIsReportedBlocked(t *testing.T) {
	for _, sectors := range []int{0, 8} {
		w, s := flowGapWorld(t, 40, 10, 1, sectors)
		s.Run(w, 60*19)
		require.Zero(t, systems.Diagnose(w).Counts[systems.CauseBlockedByAgents], "sectors %d: no follower without progress for BlockedSpan yet", sectors)
		s.Run(w, 60*6)
		r := systems.Diagnose(w)
		west, _ := flowCounts(w, 12)
		n := r.Counts[systems.CauseBlockedByAgents]
		t.Logf("sectors %d, 25 s: %d before the wall, %d reported", sectors, west, n)
		require.Greater(t, west, 20, "sectors %d: the swarm is jammed", sectors)
		assert.LessOrEqual(t, n, west, "sectors %d: only followers before the wall are jammed", sectors)
		assert.Greater(t, 3*n, west, "sectors %d: over a third of the jammed crowd is reported: %s", sectors, r)
		text := r.String()
		assert.Contains(t, text, "a flow follower: no progress along its field for ")
		assert.Contains(t, text, "in front of it touching it")
		assert.Contains(t, text, ": the swarm jams on its way")
		d := &systems.Diagnostics{}
		d.Initialize(w)
		assert.Equal(t, n, d.Check(w).Counts[systems.CauseBlockedByAgents], "sectors %d: Diagnostics finds the same", sectors)
		assert.Zero(t, testing.AllocsPerRun(5, func() { d.Check(w) }), "sectors %d: Diagnostics' check of the jam allocates nothing", sectors)
		spread := &systems.Diagnostics{Every: 50, Spread: 40, Out: io.Discard} // a round over 40 frames of the still jam
		spread.Initialize(w)
		for range 40 {
			spread.Update(w)
		}
		require.Equal(t, 1, spread.Checks)
		assert.Equal(t, fmt.Sprintf("%+v", d.Check(w)), fmt.Sprintf("%+v", spread.Report), "sectors %d: a spread round finds the same", sectors)
		if sectors == 0 {
			s.Run(w, 60*45)
			west, arrived := flowCounts(w, 16)
			require.Zero(t, west, "all through at 70 s")
			r := systems.Diagnose(w)
			assert.Zero(t, r.Counts[systems.CauseBlockedByAgents], "drained, %d at rest: %s", arrived, r)
		}
	}
}

// A swarm crossing a door 12 cells wide, or open ground, to its goal and
// settling there: nothing is counted, while it flows nor once at rest (checked
// every 5 s up to 35 s). With sector fields about a tenth of the followers
// never come to rest: they press on the crowd's rim (east of the goal, between
// the crowd and the grid's edge) and make no progress for BlockedSpan; they
// are at their crowd, not on their way (crowdRim). With the rim half a Spacing
// beyond the crowd's disk, 2 of 100 were counted (10 columns of 10, door 12).
// (With whole-grid fields these crowds all come to rest, so there is nothing
// to tell apart: the long run, TestFlowSwarmFlowingOrSettlingIsNotBlockedLong,
// checks 400 followers both ways.)
func TestFlowSwarmAtRestAtItsGoalIsNotBlocked(t *testing.T) {
	for _, c := range []struct{ n, rows, door, sectors int }{
		{100, 10, 12, 8}, {100, 14, 12, 8}, {120, 14, 0, 8},
	} {
		w, s := flowGapWorld(t, c.n, c.rows, c.door, c.sectors)
		stalled := 0
		for k := range 7 {
			s.Run(w, 60*5)
			r := systems.Diagnose(w)
			require.Zero(t, r.Counts[systems.CauseBlockedByAgents], "%+v, %d s: %s", c, 5*(k+1), r)
			stalled = max(stalled, flowStalled(w))
		}
		west, arrived := flowCounts(w, 16)
		t.Logf("%+v: %d at rest, at most %d without progress for BlockedSpan", c, arrived, stalled)
		assert.Zero(t, west, "%+v: all through", c)
		assert.Greater(t, arrived, c.n*85/100, "%+v: settled at the goal", c)
		assert.Positive(t, stalled, "%+v: followers pressing on the crowd without progress, not counted", c)
	}
}

// The progress fields only feed Diagnose: StateHash leaves them out (json:"-"), so
// a run's hash is the one it had before they were added (the swarm benchmark's
// too); a follower switching to another goal's field ends its run at once; and the
// frames of a progress check allocate nothing, whole-grid or sector fields.
func TestFlowProgressIsNotHashedAndAllocatesNothing(t *testing.T) {
	for _, sectors := range []int{0, 8} {
		w, s := flowWallWorld(t, 48, 0, sectors)
		s.Run(w, 60) // 1 s: checks at 0.5 s and 1 s
		runs := 0
		h := systems.StateHash(w)
		q := generic.NewFilter1[components.FlowFollower]().Query(w)
		for q.Next() {
			ff := q.Get()
			if ff.ProgressCheck == 2 {
				runs++
			}
			ff.ProgressCost, ff.ProgressCheck = 7, 9
		}
		assert.Equal(t, 48, runs, "sectors %d: every follower's run started at check 1 or 2, updated at 2", sectors)
		assert.Equal(t, h, systems.StateHash(w), "sectors %d: not hashed", sectors)

		q = generic.NewFilter1[components.FlowFollower]().Query(w)
		for q.Next() {
			q.Get().Goal = grid.Cell{X: 80, Y: 30}
		}
		s.Run(w, 1) // no check in (1, 1+1/60]
		q = generic.NewFilter1[components.FlowFollower]().Query(w)
		for q.Next() {
			ff := q.Get()
			assert.Equal(t, [2]float64{}, [2]float64{float64(ff.ProgressCost), float64(ff.ProgressCheck)}, "sectors %d: a new field ends the run", sectors)
			assert.Equal(t, grid.Cell{X: 80, Y: 30}, ff.Active)
		}
		s.Run(w, 60*30)                                            // every sector on the way built (a first build allocates)
		allocs := testing.AllocsPerRun(2, func() { s.Run(w, 30) }) // one check each
		assert.Zero(t, allocs, "sectors %d", sectors)
	}
}
