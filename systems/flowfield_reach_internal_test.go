package systems

import (
	"math"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFlowArrivalReachDecidesAsFullReach: a swarm of 1,500 agents streaming
// in to a goal that walks, then jumps, on a map with walls, run twice for
// 7 s: with each goal's steps kept from frame to frame (plannedSteps,
// widened when too few to decide) and with every goal counting all the
// steps in which an agent could join (reachSteps of its followers, as
// before the steps were kept). Every frame, every agent's Arrived and
// position are the same in both runs (so the arrival decisions were the
// same), while the first measured half the agents (the others farther than
// their goal's steps: jobFar) and the widening path ran (every 50 frames
// the kept steps are cut short, as a crowd packing faster than adaptReach
// planned for would leave them, so that it runs).
func TestFlowArrivalReachDecidesAsFullReach(t *testing.T) {
	t.Parallel()
	g := grid.New(96, 96)
	for y := int32(20); y < 70; y++ {
		g.SetCost(grid.Cell{X: 60, Y: y}, grid.Blocked)
		g.SetCost(grid.Cell{X: y + 5, Y: 30}, grid.Blocked)
	}
	goal := grid.Cell{X: 40, Y: 48}
	const frames = 420
	kept := newCrowd(t, g, 1500, goal, 21, 2)
	full := newCrowd(t, g, 1500, goal, 21, 2)
	full.flow.fullReach = true
	measured := [2]int{}
	widened, arrived := 0, 0
	for f := 1; f <= frames; f++ {
		switch {
		case f%30 == 0 && f < 300: // walks a cell east every 0.5 s
			goal.X++
		case f == 300: // jumps beyond the crowd
			goal = grid.Cell{X: 80, Y: 80}
		}
		if f%50 == 0 { // the kept steps cut short: the frame must widen them and decide alike
			for i := range kept.flow.reaches {
				kept.flow.reaches[i].steps = keepReach + 1
			}
		}
		for _, c := range []*crowd{kept, full} {
			for _, e := range c.agents {
				_, _, _, _, _, _, ff := c.m.Get(e)
				ff.Goal = goal
			}
			c.s.Update(c.w)
		}
		for k, c := range []*crowd{kept, full} {
			for _, j := range c.flow.jobs {
				if j.goal >= 0 && j.state&jobFar == 0 {
					measured[k]++
				}
			}
		}
		for _, gl := range kept.flow.goals {
			if gl.wide {
				widened++
			}
		}
		for i, e := range kept.agents {
			p, _, _, _, _, _, a := kept.m.Get(e)
			q, _, _, _, _, _, b := full.m.Get(full.agents[i])
			// testify only on a mismatch: a call per agent and frame costs a stack walk
			if b.Arrived != a.Arrived || math.Float64bits(p.X) != math.Float64bits(q.X) || math.Float64bits(p.Y) != math.Float64bits(q.Y) {
				require.Equal(t, b.Arrived, a.Arrived, "frame %d, agent %d", f, i)
				require.True(t, math.Float64bits(p.X) == math.Float64bits(q.X) && math.Float64bits(p.Y) == math.Float64bits(q.Y),
					"frame %d, agent %d: %v against %v", f, i, p.Vec, q.Vec)
			}
			if a.Arrived {
				arrived++
			}
		}
	}
	t.Logf("agents measured %d (kept steps) against %d (all steps); %d goal-frames widened; %d agent-frames arrived",
		measured[0], measured[1], widened, arrived)
	assert.Less(t, measured[0], measured[1]*3/4, "the kept steps measure fewer agents")
	assert.Positive(t, widened, "some frame widened its goal's steps")
	assert.Greater(t, arrived, frames*50, "a crowd gathered")
}

// TestFlowDiskStepsRim: diskSteps returns the step after the last agent
// that joined, the agents that joined, and the rim: the first step an agent
// could not join, Spacing·√(div·g/π) + Spacing/2 in steps (8 per Spacing).
// An agent far beyond the rim changes none of the three (so the steps
// counted do not show in the decision).
func TestFlowDiskStepsRim(t *testing.T) {
	s := &FlowField{Spacing: 0.75}
	const w = arrivalSectors + 1
	pre := func(steps int, at map[int]int) []int32 { // at: step -> agents, all in sector 3
		p := make([]int32, steps*w)
		for k := range steps {
			for j := 4; j <= arrivalSectors; j++ {
				p[k*w+j] = int32(at[k])
			}
		}
		return p
	}
	need := s.thresholds(64)
	for _, tc := range []struct {
		at                    map[int]int
		div                   int
		arrive, gathered, rim int
	}{
		{map[int]int{}, 1, 0, 0, 4},                    // nobody: the rim Spacing/2 out
		{map[int]int{2: 1}, 1, 3, 1, 8},                // one agent: edge(1) = 8.51 steps
		{map[int]int{2: 1, 20: 1}, 1, 3, 1, 8},         // the far one fails and changes nothing
		{map[int]int{2: 1, 40: 3}, 1, 3, 1, 8},         // nor do farther ones
		{map[int]int{2: 1}, 2, 3, 1, 10},               // a half disk: edge(2) = 10.38 steps
		{map[int]int{1: 3, 5: 2, 9: 4}, 1, 10, 9, 17},  // 9 agents: edge(9) = 17.54 steps
		{map[int]int{1: 3, 5: 2, 16: 4}, 1, 6, 5, 14},  // step 16 fails (need 8.3 > 5): edge(5) = 14.09
		{map[int]int{1: 3, 5: 2, 16: 4}, 2, 17, 9, 23}, // a half disk takes it (2·5 ≥ 8.3): edge(18) = 23.15
	} {
		for _, steps := range []int{tc.rim + 1, 64} {
			a, g, r := diskSteps(pre(steps, tc.at), need, need, 3, arrivalWedge, tc.div)
			require.Equal(t, [3]int{tc.arrive, tc.gathered, tc.rim}, [3]int{a, g, r}, "%v div %d, %d steps", tc.at, tc.div, steps)
		}
	}
}

// TestFlowDiskStepsLoose: with the looser thresholds (arrivalLoose), a step
// short of the disk rule (4 agents nearer where 8.3 are needed) no longer
// ends the disk: a farther step that meets the rule takes it in, and the
// disk ends at the first step that fails the looser thresholds. With need
// for both, diskSteps is the rule alone.
func TestFlowDiskStepsLoose(t *testing.T) {
	s := &FlowField{Spacing: 0.75}
	const w = arrivalSectors + 1
	pre := func(at map[int]int) []int32 { // at: step -> agents, all in sector 3
		p := make([]int32, 64*w)
		for k := range 64 {
			for j := 4; j <= arrivalSectors; j++ {
				p[k*w+j] = int32(at[k])
			}
		}
		return p
	}
	need := s.thresholds(64)
	loose := s.looseThresholds(64)
	require.Equal(t, need[8], loose[16], "one Spacing (8 steps) nearer")
	require.Zero(t, loose[7])
	at := map[int]int{1: 3, 5: 1, 16: 10, 17: 2}
	a, g, _ := diskSteps(pre(at), need, need, 3, arrivalWedge, 1)
	assert.Equal(t, [2]int{6, 4}, [2]int{a, g}, "the rule alone: step 16 fails (need 8.3 > 4) and ends the disk")
	a, g, _ = diskSteps(pre(at), need, loose, 3, arrivalWedge, 1)
	assert.Equal(t, [2]int{18, 16}, [2]int{a, g}, "step 16 fails but not loosely (4 ≥ 1.2), step 17 meets the rule (14 ≥ 9.6): both join")
	far := map[int]int{1: 3, 5: 1, 16: 4, 40: 6} // step 40 fails the looser thresholds too
	a, g, _ = diskSteps(pre(far), need, loose, 3, arrivalWedge, 1)
	assert.Equal(t, [2]int{6, 4}, [2]int{a, g}, "no farther step meets the rule before one fails the looser thresholds")
}
