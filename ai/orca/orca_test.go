package orca

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

func vec(x, y float64) r2.Vec { return r2.Vec{X: x, Y: y} }

// closest returns the smallest distance between two discs' centres moving
// from p1, p2 with velocities v1, v2 over [0, horizon].
func closest(p1, v1, p2, v2 r2.Vec, horizon float64) float64 {
	dp, dv := r2.Sub(p2, p1), r2.Sub(v2, v1)
	t := 0.0
	if s := dot(dv, dv); s > 0 {
		t = min(max(-dot(dp, dv)/s, 0), horizon)
	}
	return norm(addScaled(dp, t, dv))
}

func agent(p, v, pref r2.Vec) Agent {
	return Agent{Position: p, Velocity: v, Preferred: pref, Radius: 0.5, MaxSpeed: 2, TimeHorizon: 2, ObstacleHorizon: 1}
}

func TestNoConstraintKeepsThePreferredVelocity(t *testing.T) {
	var s Solver
	a := agent(vec(0, 0), vec(1, 0), vec(1.5, 0.5))
	assert.Equal(t, vec(1.5, 0.5), s.Velocity(&a, nil, nil, 0.1))
	a.Preferred = vec(30, 40) // cut to MaxSpeed 2 along its direction
	assert.InDelta(t, 1.2, s.Velocity(&a, nil, nil, 0.1).X, 1e-12)
	assert.InDelta(t, 1.6, s.Velocity(&a, nil, nil, 0.1).Y, 1e-12)
	// a neighbour far off to the side, moving away: its line does not bind
	n := []Neighbour{{Position: vec(0, 10), Velocity: vec(0, 1), Radius: 0.5}}
	a.Preferred = vec(1, 0)
	assert.Equal(t, vec(1, 0), s.Velocity(&a, n, nil, 0.1))
}

// The half-plane of a head-on neighbour: the current velocity is in the
// velocity obstacle, so the line excludes it; if both agents take their half
// of u, their new relative velocity just grazes the obstacle's boundary.
func TestAgentLineHeadOn(t *testing.T) {
	a := agent(vec(0, 0), vec(1, 0), vec(1, 0))
	b := agent(vec(4, 0.1), vec(-1, 0), vec(-1, 0))
	lab, ok := AgentLine(&a, &Neighbour{Position: b.Position, Velocity: b.Velocity, Radius: b.Radius}, 0.1)
	require.True(t, ok)
	lba, ok := AgentLine(&b, &Neighbour{Position: a.Position, Velocity: a.Velocity, Radius: a.Radius}, 0.1)
	require.True(t, ok)
	assert.False(t, lab.Permits(a.Velocity, 0), "heading into b within 2 s")
	assert.InDelta(t, 1, norm(lab.Direction), 1e-12)
	// reciprocal: the two lines are mirror images (points sum to the sum of velocities, directions opposite)
	assert.InDelta(t, 0, lab.Point.X+lba.Point.X, 1e-12)
	assert.InDelta(t, 0, lab.Direction.X+lba.Direction.X, 1e-12)
	assert.InDelta(t, 0, lab.Direction.Y+lba.Direction.Y, 1e-12)
	// the velocities nearest the current ones on each line miss by exactly the combined radius
	va := addScaled(lab.Point, dot(r2.Sub(a.Velocity, lab.Point), lab.Direction), lab.Direction)
	vb := addScaled(lba.Point, dot(r2.Sub(b.Velocity, lba.Point), lba.Direction), lba.Direction)
	assert.InDelta(t, 1.0, closest(a.Position, va, b.Position, vb, math.Inf(1)), 1e-9)
	// it goes to its left (b is slightly to its left: a dodges right, -y)
	assert.Less(t, va.Y, 0.0)
	assert.Greater(t, vb.Y, 0.0)
}

// Already overlapping: the line asks for a velocity that parts the two within
// the time step.
func TestAgentLineCollisionUsesTheTimeStep(t *testing.T) {
	a := agent(vec(0, 0), vec(0, 0), vec(0, 0))
	n := Neighbour{Position: vec(0.6, 0), Radius: 0.5} // 0.4 of overlap
	l, ok := AgentLine(&a, &n, 0.1)
	require.True(t, ok)
	// relative velocity must leave the disc of radius 1/dt = 10 round relPos/dt = (6, 0):
	// u = (10 - 6)·(-1, 0); a takes half: v.x ≤ -2
	assert.InDelta(t, -2, l.Point.X, 1e-12)
	assert.InDelta(t, 0, l.Point.Y, 1e-12)
	assert.True(t, l.Permits(vec(-2.5, 0), 0))
	assert.False(t, l.Permits(vec(-1.5, 0), 0))
	// the same point, the same velocity: no line can be drawn
	_, ok = AgentLine(&a, &Neighbour{Radius: 0.5}, 0.1)
	assert.False(t, ok)
}

func TestSolverSeparatesOverlappingAgentsWithinAStep(t *testing.T) {
	var s Solver
	a := agent(vec(0, 0), vec(0, 0), vec(0, 0))
	a.MaxSpeed = 10
	n := []Neighbour{{Position: vec(0.6, 0), Radius: 0.5, Share: 1}} // a standing neighbour: a does it all
	v := s.Velocity(&a, n, nil, 0.1)
	assert.InDelta(t, -4, v.X, 1e-9)
	assert.InDelta(t, 0, v.Y, 1e-9)
	assert.InDelta(t, 1, norm(r2.Sub(n[0].Position, r2.Scale(0.1, v))), 1e-9, "just touching after the step")
}

func TestLinearProgramNearestPoint(t *testing.T) {
	rg := newRegion(2, r2.Vec{}, 0)
	lines := []Line{{Point: vec(0, 1), Direction: vec(1, 0)}} // permits y ≥ 1 (the left of +x)
	v, n := linearProgram2(lines, &rg, vec(0.5, 0), false)
	assert.Equal(t, 1, n)
	assert.InDelta(t, 0.5, v.X, 1e-12)
	assert.InDelta(t, 1, v.Y, 1e-12)
	// and x ≤ -1 too: the corner (−1, 1)
	lines = append(lines, Line{Point: vec(-1, 0), Direction: vec(0, 1)})
	v, n = linearProgram2(lines, &rg, vec(0.5, 0), false)
	assert.Equal(t, 2, n)
	assert.InDelta(t, -1, v.X, 1e-12)
	assert.InDelta(t, 1, v.Y, 1e-12)
	// y ≥ 3 is beyond the speed disc: fails at line 0
	_, n = linearProgram2([]Line{{Point: vec(0, 3), Direction: vec(1, 0)}}, &rg, vec(0.5, 0), false)
	assert.Equal(t, 0, n)
}

// Infeasible agent lines: the 3-D fallback takes the velocity that violates
// them least; obstacle lines stay hard.
func TestLinearProgram3MinimisesTheLargestViolation(t *testing.T) {
	var s Solver
	rg := newRegion(5, r2.Vec{}, 0)
	lines := []Line{
		{Point: vec(1, 0), Direction: vec(0, 1)},    // permits x ≤ 1 (the left of +y is −x)
		{Point: vec(2, 0), Direction: vec(0, -1)},   // x ≥ 2
		{Point: vec(0, 1), Direction: vec(1, 0)},    // y ≥ 1
		{Point: vec(0, 0.5), Direction: vec(-1, 0)}, // y ≤ 0.5
	}
	v, n := linearProgram2(lines, &rg, vec(0, 0), false)
	require.Less(t, n, len(lines))
	v = s.linearProgram3(lines, 0, n, &rg, v)
	assert.InDelta(t, 1.5, v.X, 1e-9, "half way between x ≤ 1 and x ≥ 2")
	assert.InDelta(t, 0.5, worst(lines, v), 1e-9)
	assert.True(t, v.Y >= 0.5-1e-9 && v.Y <= 1+1e-9, "y ≥ 1 and y ≤ 0.5 violated by at most 0.5: %v", v)
	// the first line hard (an obstacle): x ≤ 1 holds, the others give way
	v, n = linearProgram2(lines, &rg, vec(0, 0), false)
	v = s.linearProgram3(lines, 1, n, &rg, v)
	assert.InDelta(t, 1, v.X, 1e-9)
}

func TestRegionWithAStepLimit(t *testing.T) {
	// moving at (2, 0) with MaxSpeed 2 and MaxDelta 1: the reachable set is the lens of both discs
	rg := newRegion(2, vec(2, 0), 1)
	require.Equal(t, uint8(regionBoth), rg.mode)
	assert.Equal(t, vec(1.5, 0), rg.nearest(vec(1.5, 0)))
	p := rg.nearest(vec(5, 0))
	assert.InDelta(t, 2, p.X, 1e-12)
	p = rg.nearest(vec(2, 5)) // beyond the corner
	c1, _ := rg.corners()
	assert.InDelta(t, c1.X, p.X, 1e-12)
	assert.InDelta(t, c1.Y, p.Y, 1e-12)
	assert.InDelta(t, 2, norm(c1), 1e-12)
	assert.InDelta(t, 1, norm(r2.Sub(c1, vec(2, 0))), 1e-12)
	p = rg.nearest(vec(0, 0)) // braking: within 1 of (2, 0)
	assert.InDelta(t, 1, p.X, 1e-12)
	// at rest: the step's disc lies in the speed disc
	assert.Equal(t, uint8(regionDelta), newRegion(2, vec(0, 0), 1).mode)
	assert.Equal(t, uint8(regionSpeed), newRegion(2, vec(0, 0), 5).mode)
	assert.Equal(t, uint8(regionSpeed), newRegion(2, vec(0, 0), math.Inf(1)).mode)
}

// circle runs n agents of radius 0.3 from a ring of radius ring (cells) to
// the antipodal points, RVO2 style (velocities set directly, each agent's 10
// nearest neighbours within 5 cells), at 60 steps per second, with a maximum
// speed of 4 cells/s and a change of velocity of at most 20 cells/s² (the
// bundles' defaults), for at most limit seconds. It returns the time taken
// (limit if they did not all arrive within 0.1 cells) and the smallest gap
// between two agents' discs.
func circle(n int, ring, bias, limit float64) (float64, float64) {
	const dt, radius, speed = 1.0 / 60, 0.3, 4.0
	var s Solver
	agents := make([]Agent, n)
	goals := make([]r2.Vec, n)
	for i := range agents {
		ang := 2 * math.Pi * float64(i) / float64(n)
		p := r2.Scale(ring, vec(math.Cos(ang), math.Sin(ang)))
		agents[i] = Agent{Position: p, Radius: radius, MaxSpeed: speed, MaxDelta: 20 * dt,
			TimeHorizon: 2, ObstacleHorizon: 1, Bias: bias}
		goals[i] = r2.Scale(-1, p)
	}
	out := make([]r2.Vec, n)
	var nb []Neighbour
	gap := math.Inf(1)
	for f := 0; float64(f)*dt < limit; f++ {
		for i := range agents {
			a := &agents[i]
			a.Preferred = truncate(r2.Scale(1/dt, r2.Sub(goals[i], a.Position)), speed)
			nb = nb[:0]
			for j := range agents {
				if j != i && norm(r2.Sub(agents[j].Position, a.Position)) < 5 {
					nb = append(nb, Neighbour{Position: agents[j].Position, Velocity: agents[j].Velocity, Radius: radius})
				}
			}
			for x := 1; x < len(nb); x++ { // the 10 nearest
				for y := x; y > 0 && distSq(nb[y].Position, a.Position) < distSq(nb[y-1].Position, a.Position); y-- {
					nb[y], nb[y-1] = nb[y-1], nb[y]
				}
			}
			out[i] = s.Velocity(a, nb[:min(len(nb), 10)], nil, dt)
		}
		done := true
		for i := range agents {
			agents[i].Velocity = out[i]
			agents[i].Position = addScaled(agents[i].Position, dt, out[i])
			done = done && distSq(agents[i].Position, goals[i]) <= 0.01
		}
		for i := range agents {
			for j := i + 1; j < n; j++ {
				gap = min(gap, norm(r2.Sub(agents[i].Position, agents[j].Position))-2*radius)
			}
		}
		if done {
			return float64(f+1) * dt, gap
		}
	}
	return limit, gap
}

func TestCircleOfAgentsSwapsWithoutOverlap(t *testing.T) {
	for _, c := range []struct {
		n          int
		ring, want float64 // cells; seconds, at most
	}{{2, 5, 3}, {16, 8, 5}, {64, 20, 12}} {
		took, gap := circle(c.n, c.ring, 0.3, 30)
		assert.GreaterOrEqual(t, gap, -1e-3, "%d agents overlapped", c.n)
		// the straight walk takes 2·ring/4 s; the crowd at the centre costs more
		assert.Less(t, took, c.want, "%d agents took too long", c.n)
		t.Logf("%d agents: %.2f s (straight: %.2f s), smallest gap %.5f cells", c.n, took, c.ring/2, gap)
	}
}

// Pure ORCA deadlocks on the symmetric ring: the agents stop round the empty
// centre, each held by the two beside it. The right-hand bias resolves it.
func TestPureORCADeadlocksOnTheRing(t *testing.T) {
	took, gap := circle(16, 8, 0, 12)
	assert.Equal(t, 12.0, took, "pure ORCA: stuck")
	assert.GreaterOrEqual(t, gap, -1e-3)
}

// The fallback linear program finds the velocity whose largest violation is
// the least: checked against a search of the disc on a fine grid.
func TestLinearProgram3AgainstBruteForce(t *testing.T) {
	var s Solver
	r := uint64(7)
	rnd := func() float64 { r = r*6364136223846793005 + 1442695040888963407; return float64(r>>11) / (1 << 53) }
	checked := 0
	for range 40 {
		lines := make([]Line, 5)
		for i := range lines {
			a := rnd() * 2 * math.Pi
			lines[i] = Line{Point: vec(rnd()*4-2, rnd()*4-2), Direction: vec(math.Cos(a), math.Sin(a))}
		}
		for _, rg := range []region{newRegion(2, r2.Vec{}, 0), newRegion(2, vec(1.5, 0.5), 1)} {
			v, n := linearProgram2(lines, &rg, vec(0.3, 0.1), false)
			if n == len(lines) {
				continue
			}
			v = s.linearProgram3(lines, 0, n, &rg, v)
			best := math.Inf(1)
			for x := -2.0; x <= 2; x += 0.01 {
				for y := -2.0; y <= 2; y += 0.01 {
					p := vec(x, y)
					if dot(p, p) <= 4 && (rg.mode == regionSpeed || distSq(p, rg.centre) <= 1) {
						best = min(best, worst(lines, p))
					}
				}
			}
			assert.LessOrEqual(t, worst(lines, v), best+1e-9)
			assert.InDelta(t, best, worst(lines, v), 0.02)
			checked++
		}
	}
	assert.Greater(t, checked, 10)
}

// worst is the largest distance by which v violates a line.
func worst(lines []Line, v r2.Vec) float64 {
	w := 0.0
	for _, l := range lines {
		w = max(w, det(l.Direction, r2.Sub(l.Point, v)))
	}
	return w
}

func TestObstacleLineKeepsTheAgentOffTheWall(t *testing.T) {
	var s Solver
	wall := Segment{A: vec(-5, 2), B: vec(5, 2)} // wall above (left of +x), agent below
	a := agent(vec(0, 0), vec(0, 2), vec(0, 2))
	v := s.Velocity(&a, nil, []Segment{wall}, 0.1)
	// within ObstacleHorizon 1 s the disc of radius 0.5 must stay below y = 2: v.y ≤ 1.5
	assert.InDelta(t, 1.5, v.Y, 1e-9)
	assert.InDelta(t, 0, v.X, 1e-9)
	// the back face: from above the wall does not exist
	b := agent(vec(0, 4), vec(0, -2), vec(0, -2))
	assert.Equal(t, vec(0, -2), s.Velocity(&b, nil, []Segment{wall}, 0.1))
	// touching the wall: only velocities away from it
	c := agent(vec(0, 1.7), vec(0, 1), vec(1, 1))
	v = s.Velocity(&c, nil, []Segment{wall}, 0.1)
	assert.LessOrEqual(t, v.Y, 1e-12)
	assert.InDelta(t, 1, v.X, 1e-9)
	// seen end-on past its end: the end's cut-off disc
	d := agent(vec(6, 0), vec(-2, 2), vec(-2, 2))
	v = s.Velocity(&d, nil, []Segment{wall}, 0.1)
	for tt := 0.0; tt <= 1; tt += 0.01 {
		p := addScaled(d.Position, tt, v)
		assert.GreaterOrEqual(t, math.Sqrt(segmentDistSq(p, wall.A, wall.B)), 0.5-1e-9)
	}
}

// Walking at a wall for a long time, RVO2 style, the agent's disc never
// crosses it, and it slides along it towards a goal beyond.
func TestAgentSlidesAlongAWall(t *testing.T) {
	var s Solver
	wall := []Segment{{A: vec(-50, 2), B: vec(50, 2)}}
	a := agent(vec(0, 0), r2.Vec{}, r2.Vec{})
	goal := vec(10, 10)
	const dt = 0.05
	for range 400 {
		a.Preferred = truncate(r2.Scale(1/dt, r2.Sub(goal, a.Position)), a.MaxSpeed)
		a.Velocity = s.Velocity(&a, nil, wall, dt)
		a.Position = addScaled(a.Position, dt, a.Velocity)
		require.LessOrEqual(t, a.Position.Y, 1.5+1e-9)
	}
	assert.InDelta(t, 10, a.Position.X, 0.15, "slid along the wall to below the goal")
	assert.InDelta(t, 1.5, a.Position.Y, 1e-6, "touching the wall")
}

func TestGridSegments(t *testing.T) {
	var s Solver
	// a 7×7 grid with one blocked cell at (3, 3) and the border of the grid
	blocked := func(x, y int32) bool { return x == 3 && y == 3 }
	segs := s.GridSegments(vec(3.5, 1.5), 1.6, 7, 7, blocked)
	// within 1.6 of (3.5, 1.5): the grid's bottom border and the blocked cell's
	// bottom face (both 1.5 away), then its sides (√(0.5²+1.5²) ≈ 1.58 away);
	// the border's edge runs over the cells of the window (x from 1 to 5)
	require.Len(t, segs, 4)
	assert.Equal(t, []Segment{
		{A: vec(6, 0), B: vec(1, 0)}, // the border below: the wall (off the grid) on the left of −x
		{A: vec(3, 3), B: vec(4, 3)}, // the cell's bottom face: the wall on the left of +x
		{A: vec(3, 4), B: vec(3, 3)}, // its left face, the wall on the left of −y
		{A: vec(4, 3), B: vec(4, 4)}, // its right face
	}, segs)
	for _, sg := range segs {
		mid := r2.Scale(0.5, r2.Add(sg.A, sg.B))
		inward := r2.Vec{X: -(sg.B.Y - sg.A.Y), Y: sg.B.X - sg.A.X} // left normal
		c := addScaled(mid, 0.25, inward)
		x, y := int32(math.Floor(c.X)), int32(math.Floor(c.Y))
		assert.True(t, x < 0 || y < 0 || x >= 7 || y >= 7 || blocked(x, y), "wall on the left of %v", sg)
	}
	// all four faces from farther off, and the grid's border edges joined into long segments
	segs = s.GridSegments(vec(3.5, 1.5), 10, 7, 7, blocked)
	assert.Len(t, segs, 8)
	long := 0
	for _, sg := range segs {
		if norm(r2.Sub(sg.B, sg.A)) == 7 {
			long++
		}
	}
	assert.Equal(t, 4, long, "the border: four edges of 7 cells")
	// a wall row merges into one segment over the cells within reach (x from 3 to 7);
	// its far face is out of reach
	row := func(x, y int32) bool { return y == 5 && x >= 2 && x <= 8 }
	segs = s.GridSegments(vec(5.5, 3.5), 2.4, 20, 20, row)
	assert.Equal(t, []Segment{{A: vec(3, 5), B: vec(8, 5)}}, segs)
	// nothing for bad input, nor off the grid
	assert.Empty(t, s.GridSegments(vec(math.NaN(), 1), 3, 7, 7, blocked))
	assert.Empty(t, s.GridSegments(vec(1, 1), math.NaN(), 7, 7, blocked))
	assert.Empty(t, s.GridSegments(vec(-100, 1), 3, 7, 7, blocked))
	assert.NotPanics(t, func() { s.GridSegments(vec(1, 1), math.Inf(1), 7, 7, blocked) })
}

func TestBadInputHasAFixedResult(t *testing.T) {
	var s Solver
	nan, inf := math.NaN(), math.Inf(1)
	good := agent(vec(0, 0), vec(1, 0), vec(1, 0))
	nb := []Neighbour{{Position: vec(2, 0), Velocity: vec(-1, 0), Radius: 0.5}}
	for _, spoil := range []func(a *Agent){
		func(a *Agent) { a.TimeHorizon = 0 },
		func(a *Agent) { a.ObstacleHorizon = nan },
		func(a *Agent) { a.Position.X = inf },
		func(a *Agent) { a.Velocity.Y = nan },
		func(a *Agent) { a.Radius = nan },
	} {
		a := good
		spoil(&a)
		assert.Equal(t, vec(1, 0), s.Velocity(&a, nb, nil, 0.1))
	}
	a := good
	assert.Equal(t, vec(1, 0), s.Velocity(&a, nb, nil, 0), "dt 0: no avoidance")
	a.MaxSpeed = nan
	assert.Equal(t, r2.Vec{}, s.Velocity(&a, nb, nil, 0.1))
	// bad neighbours and segments are ignored
	a = good
	bad := []Neighbour{{Position: vec(nan, 0)}, {Position: vec(2, 0), Velocity: vec(inf, 0)}}
	assert.Equal(t, vec(1, 0), s.Velocity(&a, bad, []Segment{{A: vec(nan, 1), B: vec(1, 1)}, {A: vec(1, 1), B: vec(1, 1)}}, 0.1))
}

func TestVelocityAllocatesNothing(t *testing.T) {
	var s Solver
	blocked := func(x, y int32) bool { return (x+y)%5 == 0 }
	a := agent(vec(10.5, 10.5), vec(1, 0), vec(2, 0))
	nb := make([]Neighbour, 10)
	for i := range nb {
		ang := float64(i)
		nb[i] = Neighbour{Position: r2.Add(a.Position, vec(1.5*math.Cos(ang), 1.5*math.Sin(ang))), Velocity: vec(-1, 0), Radius: 0.5}
	}
	run := func() {
		segs := s.GridSegments(a.Position, 2.5, 30, 30, blocked)
		s.Velocity(&a, nb, segs, 0.1)
	}
	run()
	assert.Zero(t, testing.AllocsPerRun(100, run))
}

// The bias turns the desired velocity (or the preferred one) clockwise, and
// only while a neighbour is near.
func TestBiasTurnsTheDesiredVelocityRight(t *testing.T) {
	var s Solver
	a := agent(vec(0, 0), vec(1, 0), vec(1, 0))
	a.Bias = 0.3
	assert.Equal(t, vec(1, 0), s.Velocity(&a, nil, nil, 0.1), "nobody near: no bias")
	far := []Neighbour{{Position: vec(0, -4), Velocity: vec(1, 0), Radius: 0.5}} // near, in no one's way
	v := s.Velocity(&a, far, nil, 0.1)
	assert.InDelta(t, math.Cos(0.3), v.X, 1e-12)
	assert.InDelta(t, -math.Sin(0.3), v.Y, 1e-12, "turned clockwise: to the right of +x with y up")
	a.Desired = vec(0, 2) // heading up; the step's velocity is only (1, 0)
	v = s.Velocity(&a, far, nil, 0.1)
	assert.InDelta(t, 2*math.Sin(0.3), v.X, 1e-12)
	assert.InDelta(t, 2*math.Cos(0.3), v.Y, 1e-12)
}

// A huge reach over a maze finds every wall face of the grid: they still come nearest
// first, ties in the scan's order. The insertion sort this replaced took 1.4 s for one
// agent on this 128×128 grid (24,578 segments), quadratic in the count; an
// ObstacleHorizon given in milliseconds (1000 for 1 s) asks for such a reach.
func TestGridSegmentsOfAHugeReachComeNearestFirst(t *testing.T) {
	var s Solver
	const n = 128
	blocked := func(x, y int32) bool { return (x+y)%2 == 0 && x%4 != 0 }
	pos := vec(n/2+0.3, n/2+0.6)
	segs := s.GridSegments(pos, 1e6, n, n, blocked)
	require.Len(t, segs, 24578)
	for i := 1; i < len(segs); i++ {
		require.LessOrEqual(t, segmentDistSq(pos, segs[i-1].A, segs[i-1].B), segmentDistSq(pos, segs[i].A, segs[i].B), "segment %d", i)
	}
	// the same set and order as a small window's, for the segments both hold
	near := append([]Segment(nil), s.GridSegments(pos, 3, n, n, blocked)...)
	require.NotEmpty(t, near)
	segs = s.GridSegments(pos, 1e6, n, n, blocked)
	assert.Equal(t, near[:4], segs[:4])
}
