package systems_test

import (
	"math"
	"os"
	"slices"
	"sort"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// chaseRun is a swarm of FlowFollowers (the bundle's defaults) on a 128²
// map with 60 random buildings, built with the public API as a game would.
type chaseRun struct {
	w     *arche.World
	g     *grid.Grid
	s     *ecs.Scheduler
	goal  grid.Cell
	filt  *generic.Filter2[components.Position, components.FlowFollower]
	close []int     // pairs closer than 0.3 cells, sampled every second from 10 s on
	nn1   []float64 // the 1st percentile of the agents' distances to their nearest neighbour, sampled alike

	route *flowfield.Field // when set, the goal walks along its field, to a neighbouring cell at each step, instead of east over buildings

	was    []bool // each agent's Arrived after the last frame, by entity ID
	flips  int    // changes of Arrived, in every frame but the first
	bursts []int  // the frames in which burst or more agents changed Arrived
	most   int    // the most agents that changed Arrived in one frame
	jumps  []int  // the frames in which the goal moved more than 2 cells (over a building)
}

// burst is the number of agents changing Arrived in one frame that counts
// as the crowd stopping or setting off together.
const burst = 40

// newChaseRun spawns n agents on random open cells, heading for (20, 64).
func newChaseRun(t *testing.T, n int) *chaseRun {
	world := arche.NewWorld()
	w := &world
	g := grid.New(128, 128)
	rng := steer.NewRand(12)
	for range 60 { // buildings of 2 to 7 cells a side
		x0, y0, bw, bh := rng.Intn(120), rng.Intn(120), 2+rng.Intn(6), 2+rng.Intn(6)
		for x := x0; x < min(x0+bw, 128); x++ {
			for y := y0; y < min(y0+bh, 128); y++ {
				g.SetCost(grid.Cell{X: int32(x), Y: int32(y)}, grid.Blocked)
			}
		}
	}
	c := &chaseRun{w: w, g: g, goal: grid.Cell{X: 20, Y: 64},
		filt: generic.NewFilter2[components.Position, components.FlowFollower]()}
	g.SetCost(c.goal, 1)
	arche.AddResource(w, g)
	crowd, err := systems.NewSpawner(w, systems.FlowFollower{Goal: c.goal})
	require.NoError(t, err)
	for k := 0; k < n; {
		p := r2.Vec{X: rng.Float64() * 128, Y: rng.Float64() * 128}
		if g.Passable(g.CellAt(p)) {
			crowd.Spawn(p, nil)
			k++
		}
	}
	c.s = ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.FlowField{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	c.s.Initialize(w)
	t.Cleanup(func() { c.s.Finalize(w) })
	return c
}

// run simulates frames frames, moving the goal east by step open cells
// (over buildings), or step cells along route, every every frames (never
// when every is 0), counts the changes of Arrived and samples the spacing.
func (c *chaseRun) run(frames, every, step int) {
	for f := 1; f <= frames; f++ {
		if every > 0 && f%every == 0 {
			from := c.goal
			for range step {
				if c.route != nil {
					if next, ok := c.route.Next(c.goal); ok {
						c.goal = next
					}
					continue
				}
				for c.goal.X++; !c.g.Passable(c.goal); c.goal.X++ {
				}
			}
			if dx, dy := c.goal.X-from.X, c.goal.Y-from.Y; dx*dx+dy*dy > 4 {
				c.jumps = append(c.jumps, f)
			}
			q := c.filt.Query(c.w)
			for q.Next() {
				_, ff := q.Get()
				ff.Goal = c.goal
			}
		}
		c.s.Update(c.w)
		c.countFlips(f)
		if f >= 600 && f%60 == 0 {
			c.sample()
		}
	}
}

// countFlips notes each agent's Arrived after frame f and, after the
// first, counts the changes since the last frame.
func (c *chaseRun) countFlips(f int) {
	n := 0
	q := c.filt.Query(c.w)
	for q.Next() {
		_, ff := q.Get()
		id := int(q.Entity().ID())
		if id >= len(c.was) {
			c.was = append(c.was, make([]bool, id+1-len(c.was))...)
		}
		if c.was[id] != ff.Arrived {
			n++
		}
		c.was[id] = ff.Arrived
	}
	if f == 1 {
		return
	}
	c.flips += n
	c.most = max(c.most, n)
	if n >= burst {
		c.bursts = append(c.bursts, f)
	}
}

// sample notes the pairs of agents closer than 0.3 cells (each has radius
// 0.3) and the 1st percentile of the distances to the nearest neighbour.
func (c *chaseRun) sample() {
	var ps []r2.Vec
	q := c.filt.Query(c.w)
	for q.Next() {
		p, _ := q.Get()
		ps = append(ps, p.Vec)
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].X < ps[j].X })
	nn := make([]float64, len(ps))
	for i := range nn {
		nn[i] = math.Inf(1)
	}
	close := 0
	for i := range ps {
		for j := i + 1; j < len(ps) && ps[j].X-ps[i].X < 2; j++ {
			d := r2.Norm(r2.Sub(ps[i], ps[j]))
			if d < 0.3 {
				close++
			}
			nn[i], nn[j] = min(nn[i], d), min(nn[j], d)
		}
	}
	sort.Float64s(nn)
	c.close = append(c.close, close)
	c.nn1 = append(c.nn1, nn[len(nn)/100])
}

// means returns the mean of the close pairs and of the nearest-neighbour
// percentile over the samples.
func (c *chaseRun) means() (close, nn1 float64) {
	for i := range c.close {
		close += float64(c.close[i])
		nn1 += c.nn1[i]
	}
	return close / float64(len(c.close)), nn1 / float64(len(c.nn1))
}

// TestFlowArrivalMovingGoalStaysSpread: 1,000 agents follow a goal that
// walks east one open cell every 0.5 s (a player walking), and in another run
// one that jumps 10 cells every 5 s (ARCHAI_LONG=1), for 20 s; sampled every second from
// 10 s on. A goal standing still: 5.9 pairs of agents closer than 0.3 cells
// on average (each has radius 0.3), 1st percentile of the distances to the
// nearest neighbour 0.301 cells. Walking: 12.1 pairs (0.258); jumping: 9.4
// (0.296) (before small discs were held out of walls and slow agents joined
// at the crowd's rim: 5.7 (0.301), 12.5 (0.256), 9.1 (0.288)). Before the crowd at rest followed a walking goal (followGoal) and
// the disk rule had its looser thresholds (arrivalLoose; session of
// 2026-12-04 14:52): static 9.1 (0.280), walking 40.1 (0.234), jumping 7.5
// (0.306); earlier still: 9.0 (0.266), 41.7 (0.247), 7.1 (0.304).
// (Before the ground check moved to the disk's rim: 8.2 (0.279),
// 41.7 (0.247), 8.9 (0.301).) Before arrival counted agents by direction, a crowd left on one
// side of its goal did not count as packed and the agents behind it pressed
// into it: walking 99.8 pairs (0.198), jumping 54.7 (0.254), the goal
// standing still 8.3 (0.280). A crowd following a walking goal is still a
// little denser than one at rest around it (see FlowField's doc).
func TestFlowArrivalMovingGoalStaysSpread(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("20 s of a 1,000-agent swarm, three times")
	}
	const n, frames = 1000, 1200
	type result struct{ close, nn1 float64 }
	runs := map[string]result{}
	for _, r := range []struct {
		name        string
		every, step int
	}{{"static", 0, 0}, {"walking", 30, 1}, {"jumping", 300, 10}} {
		if r.name == "jumping" && os.Getenv("ARCHAI_LONG") == "" {
			t.Log("jumping: ARCHAI_LONG=1 runs it")
			continue
		}
		c := newChaseRun(t, n)
		c.run(frames, r.every, r.step)
		cp, nn1 := c.means()
		runs[r.name] = result{cp, nn1}
		t.Logf("%s goal: %.1f pairs closer than 0.3 cells, 1st percentile of nearest-neighbour distances %.3f cells (means of %d samples)",
			r.name, cp, nn1, len(c.close))
	}
	static, walking, jumping := runs["static"], runs["walking"], runs["jumping"]
	assert.Less(t, static.close, 25.0)
	assert.Greater(t, static.nn1, 0.23)
	assert.Less(t, walking.close, 3*static.close+30, "a goal walking a cell every 0.5 s")
	assert.Less(t, walking.close, 25.0, "a goal walking a cell every 0.5 s: the crowd follows it (40.1 before)")
	assert.Greater(t, walking.nn1, static.nn1-0.05, "a goal walking a cell every 0.5 s")
	if os.Getenv("ARCHAI_LONG") != "" {
		assert.Less(t, jumping.close, 2*static.close+10, "a goal jumping 10 cells every 5 s")
		assert.Greater(t, jumping.nn1, static.nn1-0.02, "a goal jumping 10 cells every 5 s")
	}
}

// TestFlowArrivalWalkingGoalNoLurch: 1,000 agents follow a goal for 25 s,
// counting the changes of Arrived (in every frame but the first) and the
// frames in which 40 or more agents change it together (the crowd stopping,
// or setting off, together), with the spacing (close pairs and
// nearest-neighbour percentile, as in TestFlowArrivalMovingGoalStaysSpread,
// from 10 to 25 s). The goal walks a cell every 0.5 s (a player walking):
// "route" along the way to (100, 64), to a neighbouring cell at each step;
// "east" as in TestFlowArrivalMovingGoalStaysSpread, east over the
// buildings in its way (moving 3 to 5 cells, a jump, where it passes one);
// "static" stands still ("east" and "static" with ARCHAI_LONG=1). Before the crowd followed a walking goal
// (followGoal) and the disk rule had its looser thresholds (arrivalLoose),
// each step of a walking goal sent the crowd trailing it moving, all
// together, and it stopped again, all together, once its front reached the
// goal; and among buildings the disk rule, failing at one step deep inside
// the crowd, released a third of it at a time, again and again:
//
//	         changes of Arrived  frames ≥ 40  the most  close pairs  nn1
//	route    before  30,782          85         931        65.9     0.234
//	         now      1,048           0          13        27.7     0.220
//	east     before  35,499          86         965        51.2     0.228
//	         now      1,336           1         163        14.2     0.254
//	static   before  38,293          97         895         7.8     0.288
//	         now        944           0          11         6.0     0.298
//
// The east walk's one frame is its jump over a building at 12.5 s (4 cells,
// beyond followReach): the agents the new goal's disk no longer holds set
// off together, as for any goal that jumps. The "now" rows are since the
// follow keep counts the crowd at restShare of the packing (keepRims): on
// the looser thresholds (1,240 / 38 / 23.8 route, 1,400 / 136 / 15.1 east)
// a crowd relaxed at rest lost its rim at a step of the goal, 44 agents in
// one frame once Movement held small discs out of walls. Since Movement
// holds them so, a slow agent joins at the crowd's rim (arrivalSlow) and an
// agent at rest whose Follow point would be in a building stays kept at rest
// (followGoal; 43 agents left the east walk's crowd at one step without it):
// before these, 1,172 / 38 / 24.0 route, 1,374 / 136 / 14.9 east, 939 / 21 /
// 5.4 static.
func TestFlowArrivalWalkingGoalNoLurch(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("25 s of a 1,000-agent swarm, three times")
	}
	for _, r := range []struct {
		name  string
		every int
		route bool
	}{{"route", 30, true}, {"east", 30, false}, {"static", 0, false}} {
		if r.name != "route" && os.Getenv("ARCHAI_LONG") == "" {
			t.Logf("%s: ARCHAI_LONG=1 runs it", r.name)
			continue
		}
		c := newChaseRun(t, 1000)
		if r.route {
			end := grid.Cell{X: 100, Y: 64}
			require.True(t, c.g.Passable(end))
			c.route = flowfield.New(c.g)
			c.route.Build(end)
		}
		c.run(1500, r.every, 1)
		cp, nn1 := c.means()
		t.Logf("%s: %d changes of Arrived in 25 s, %d frames with %d or more together (the most %d; frames %v; the goal jumped in %v); %.1f close pairs, nn1 %.3f",
			r.name, c.flips, len(c.bursts), burst, c.most, c.bursts, c.jumps, cp, nn1)
		assert.LessOrEqual(t, c.flips, 2000, "%s: changes of Arrived in 25 s", r.name)
		var lurches []int // the frames of bursts but where the goal jumped
		for _, f := range c.bursts {
			if !slices.Contains(c.jumps, f) && !slices.Contains(c.jumps, f-1) {
				lurches = append(lurches, f)
			}
		}
		assert.Empty(t, lurches, "%s: frames in which %d or more agents changed Arrived together, the goal not jumping", r.name, burst)
		if r.route {
			assert.Empty(t, c.jumps, "the route walks to neighbouring cells")
		}
		assert.Less(t, cp, 30.0, "%s: close pairs", r.name)
		assert.Greater(t, nn1, 0.2, "%s: nearest-neighbour percentile", r.name)
	}
}
