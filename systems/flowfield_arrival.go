package systems

import (
	"math"

	"github.com/archai-go/archai/nav/grid"
)

// The arrival rule of [FlowField], by direction: agents are counted by
// distance step and by sector around the goal, so that a crowd packed on
// one side of its goal (the goal moved to its rim, or the agents came in
// from one side) counts as packed, and the agents reaching it stop at its
// rim instead of pressing into it until it is packed around the goal.

// arrivalSectors is the number of equal sectors around a goal that agents
// are counted in; a wedge is arrivalWedge consecutive sectors, half the
// circle.
const (
	arrivalSectors = 16
	arrivalWedge   = arrivalSectors / 2
)

// tanSector is tan(π/arrivalSectors) = tan(22.5°) = √2−1, a sector's
// half-quadrant boundary.
var tanSector = math.Sqrt2 - 1

// sectorOf returns the sector, 0 to arrivalSectors−1 counterclockwise from
// the +X axis, of the direction (dx, dy): sector j holds the angles
// [j, j+1)·2π/arrivalSectors (at a boundary, one of the two sides; the
// same one every time). It compares, without trigonometry.
func sectorOf(dx, dy float64) int {
	ax, ay := math.Abs(dx), math.Abs(dy)
	var q int // the sector within the quadrant, by the angle from the X axis
	switch {
	case ay < tanSector*ax:
		q = 0
	case ay < ax:
		q = 1
	case ax > tanSector*ay:
		q = 2
	default:
		q = 3
	}
	switch {
	case dx >= 0 && dy >= 0:
		return q
	case dx < 0 && dy >= 0:
		return 7 - q
	case dx < 0:
		return 8 + q
	default:
		return 15 - q
	}
}

// arrivalDisk is where a goal's followers have arrived: the agents on
// distance steps below arrive[j] of sector j.
type arrivalDisk [arrivalSectors]int32

// has reports whether an agent at code (a flowJob's step: its distance step
// times arrivalSectors plus its sector; −1 when out of reach) has arrived.
func (a *arrivalDisk) has(code int32) bool {
	return code >= 0 && code/arrivalSectors < a[code%arrivalSectors]
}

// keeps reports whether an agent at code (as for has) that was at rest at
// the start of the frame stays at rest: it is less than arrivalKeep
// Spacings beyond its sector's rim.
func (a *arrivalDisk) keeps(code int32) bool {
	return code >= 0 && code/arrivalSectors < a[code%arrivalSectors]+arrivalKeepSteps
}

// arrivalKeep is how far, in Spacings, an agent at rest may stand beyond
// the rim the arrival rule gives its sector this frame and stay at rest
// (for the same goal, unless the crowd was cut to the open ground). The
// rule's rims move by a few steps from frame to frame as agents at rest
// are nudged across sector and step boundaries; without it the agents
// beyond a rim that dipped set off inwards together, pressed into the
// crowd and stopped again, in bursts that never ended (300 followers at
// a goal on rmtst01: 20–40 agents every few seconds after 4 minutes).
const (
	arrivalKeep      = 1
	arrivalKeepSteps = arrivalKeep * arrivalSteps
)

// arrivalScratch is gather's work space: the counts of a goal by step and
// sector as prefix sums over the sectors, and the disk rule's thresholds by
// step.
type arrivalScratch struct {
	// pre[k*(arrivalSectors+1)+j]: the agents of step k in sectors below j
	pre []int32
	// need[k]: π·((k+1)·step − Spacing/2)²/Spacing², the agents a whole
	// disk must hold inside step k for k's agents to join (see diskSteps),
	// for Spacing needFor
	need    []float64
	needFor float64

	reaches   []goalReach // the steps to count for each goal in recent use (see adaptReach)
	fullReach bool        // count reachSteps(followers) for every goal, as if no goal had any history (tests)
}

// goalReach is the number of distance steps to count for a goal next
// frame, found by adaptReach, and the frame it was last used in.
type goalReach struct {
	goal  grid.Cell
	steps int
	used  uint64
}

// The steps counted for a goal (its reach). No agent can join beyond
// reachSteps(followers) (see below), but a crowd that is not packed is
// decided by far fewer: going outwards, the rule stops at the first step
// holding an agent that fails, and that step k fails whatever its agents
// when the agents nearer than k are fewer than need[k]/2 (the half disk's
// threshold, the lower of the two). So counting the steps below K decides
// exactly as counting them all when 2·M < need[K], M the agents counted:
// the first agent beyond them is at some step k ≥ K, with at most M agents
// nearer, and need[k] ≥ need[K] (diskSteps returns the step after the last
// agent that joined, so the steps counted do not show in the outcome).
// Each goal keeps the steps it needs from frame to frame (adaptReach):
// where the test fails for a goal, its steps are widened to reachSteps and
// the agents measured again, that frame. Agents farther than a goal's
// steps (and hold) are not measured at all (jobFar), so a crowd streaming
// in from afar costs its few agents near the goal, not all within the rim
// of a half disk holding everyone.

// plannedSteps returns the steps to count for goal with followers agents
// this frame: its kept steps, at most reachSteps(followers); reachSteps if
// none are kept.
func (s *FlowField) plannedSteps(goal grid.Cell, followers int) int {
	full := s.reachSteps(followers)
	if k := s.keptSteps(goal); k > 0 && !s.fullReach {
		return min(k, full)
	}
	return full
}

// keptSteps returns the steps adaptReach kept for goal, 0 if none.
func (s *FlowField) keptSteps(goal grid.Cell) int {
	for i := range s.reaches {
		if s.reaches[i].goal == goal {
			return s.reaches[i].steps
		}
	}
	return 0
}

// farSteps returns the most steps a goal of goals (each the i-th of n)
// may count this frame, with n agents in the query: what plannedSteps
// returns for any number of followers, so that an agent farther than its
// reach+hold (jobFar) is skipped by measure.
func (s *FlowField) farSteps(n, k int, goal func(i int) grid.Cell) int {
	most := 0
	for i := range k {
		if kept := s.keptSteps(goal(i)); kept > 0 && !s.fullReach {
			most = max(most, min(kept, s.reachSteps(n)))
		} else {
			most = max(most, s.reachSteps(n))
		}
	}
	return most
}

// cutHolds reports whether counting the steps of h (a goal's counts by
// step and sector) decides as counting every step would: the steps hold
// fewer than need[len−arrivalKeepSteps]/2 agents (see plannedSteps), so no
// agent joins on the last arrivalKeepSteps steps counted either, and every
// agent at rest that the arrival keep may hold (up to arrivalKeepSteps
// beyond its sector's arrive) is within them and measured.
func (s *FlowField) cutHolds(h []int32) bool {
	steps := len(h) / arrivalSectors
	if steps <= arrivalKeepSteps {
		return false
	}
	m := 0
	for _, c := range h {
		m += int(c)
	}
	return float64(2*m) < s.thresholds(steps + 1)[steps-arrivalKeepSteps]
}

// adaptReach keeps the steps to count for gl's goal next frame, from its
// counts h: the steps beyond the farthest step k at which the agents
// nearer than k are need[k]/2 or more (so the cut there would not hold),
// plus a margin of a quarter and two Spacings for the crowd to move in and
// the arrival keep's steps (cutHolds);
// unchanged while that stays within the steps counted and they are at most
// twice as many, so that the steps, and the fused measure, hold from frame
// to frame.
func (s *FlowField) adaptReach(gl *flowGoal, h []int32) {
	const m = arrivalSectors
	steps := len(h) / m
	need := s.thresholds(steps + 1)
	least, in := 0, 0
	for k := range steps + 1 {
		if float64(2*in) >= need[k] {
			least = k + 1
		}
		if k < steps {
			for _, c := range h[k*m : k*m+m] {
				in += int(c)
			}
		}
	}
	var r *goalReach
	for i := range s.reaches {
		if s.reaches[i].goal == gl.goal {
			r = &s.reaches[i]
			break
		}
	}
	if r == nil {
		for i := range s.reaches { // the entry of a goal not in use this frame, else a new one
			if e := &s.reaches[i]; e.used != s.frame && (r == nil || e.used < r.used) {
				r = e
			}
		}
		if r == nil {
			s.reaches = append(s.reaches, goalReach{})
			r = &s.reaches[len(s.reaches)-1]
		}
		*r = goalReach{goal: gl.goal, steps: steps}
	}
	r.used = s.frame
	// (and the keep's steps beyond it, see cutHolds)
	want := least + least/4 + 2*arrivalSteps + arrivalKeepSteps
	if steps < least+least/8+arrivalSteps+arrivalKeepSteps || steps > 2*want {
		r.steps = want
	} else {
		r.steps = steps
	}
}

// reachSteps returns the number of distance steps counted for a goal with
// n followers: no agent can join beyond the rim of a half disk holding them
// all (a crowd on one side of its goal), and an agent at rest is kept up to
// arrivalKeepSteps beyond its sector's arrive (see writeBack), so those
// steps are counted too.
func (s *FlowField) reachSteps(n int) int {
	return int(s.edge(2*n)/(s.Spacing/arrivalSteps)) + 1 + arrivalKeepSteps
}

// thresholds returns need (see arrivalScratch) for at least steps steps.
func (s *FlowField) thresholds(steps int) []float64 {
	sc := &s.arrivalScratch
	if sc.needFor != s.Spacing || len(sc.need) < steps {
		step := s.Spacing / arrivalSteps
		sc.need = grow(sc.need, max(steps, len(sc.need)))
		sc.needFor = s.Spacing
		for k := range sc.need {
			// a step no farther than Spacing/2 needs nobody
			x := max(float64(float64(k+1)*step)-float64(s.Spacing/2), 0)
			sc.need[k] = math.Pi * x * x / (s.Spacing * s.Spacing)
		}
	}
	return sc.need
}

// diskSteps is the disk rule for a disk covering the fraction 1/div of the
// circle around the goal (div 1 or 2), on the counts by step of sectors lo
// to lo+n−1 (mod arrivalSectors; n = arrivalSectors: all) in the prefix sums
// pre: going outwards, a step's agents join when the step is no farther than
// the rim of the part-disk holding the agents of the nearer steps at one per
// Spacing² cells, plus Spacing/2: (k+1)·step ≤ Spacing·√(div·g/π) +
// Spacing/2, g the agents of the nearer steps, that is div·g ≥ need[k]. It
// returns the step after the last that joined (0 if none), the agents that
// joined, and the disk's rim: the first step from there on that an agent
// could not join (div·gathered < need[rim]), at most the steps counted, the
// rim of a part-disk holding the gathered agents or their farthest step if
// farther. Neither depends on agents beyond the first that fails, so counting
// fewer steps decides alike (see plannedSteps).
func diskSteps(pre []int32, need []float64, lo, n, div int) (arrive, gathered, rim int) {
	const w = arrivalSectors + 1
	steps := len(pre) / w
	hi := lo + n
	for k := range steps {
		row := pre[k*w : k*w+w]
		var c int32
		if hi <= arrivalSectors {
			c = row[hi] - row[lo]
		} else {
			c = row[arrivalSectors] - row[lo] + row[hi-arrivalSectors]
		}
		if c == 0 {
			continue
		}
		if float64(div*gathered) < need[k] {
			break
		}
		gathered += int(c)
		arrive = k + 1
	}
	rim = arrive
	for rim < steps && float64(div*gathered) >= need[rim] {
		rim++
	}
	return arrive, gathered, rim
}

// decide sets gl.arrive from h, its followers counted by distance step and
// sector (h[k*arrivalSectors+j]: step k, sector j), with ground the open
// ground around its goal by step (see [openGround]). The rule (see
// [FlowField]): the disk rule on the whole circle, capped by the open
// ground (beside a wall, only if the half disks' crowd does not fit
// either); then the disk rule on each half circle of sectors, which extends
// the sectors it covers where it reaches farther, unless the crowd so
// gathered is more than the open ground around it holds.
func (s *FlowField) decide(gl *flowGoal, h []int32, ground []int32) {
	const m, w = arrivalSectors, arrivalSectors + 1
	steps := len(h) / m
	sc := &s.arrivalScratch
	sc.pre = grow(sc.pre, steps*w)
	pre := sc.pre
	for k := range steps {
		row, c := pre[k*w:k*w+w], int32(0)
		row[0] = 0
		for j, v := range h[k*m : k*m+m] {
			c += v
			row[j+1] = c
		}
	}
	need := s.thresholds(steps)
	a0, gathered, rim := diskSteps(pre, need, 0, m, 1)
	gl.cut = false
	area := s.Spacing * s.Spacing
	for j := range gl.arrive {
		gl.arrive[j] = int32(a0)
	}
	// the whole disk's crowd must fit the open ground within Spacing/2 of
	// its rim. Where that ground is from 1/2 to 3/4 of a whole disk's (a
	// goal beside a straight wall or on the grid's edge), the whole disk
	// reaches its rim only when packed up to twice as densely as one per
	// Spacing², and holds more than the ground there as soon as the crowd
	// is pressed a little: the half disks may then still gather a crowd
	// that fits (below). Elsewhere (the open, or a goal in a pocket, where
	// the half disks' crowd would press into the pocket) the whole disk is
	// cut at once.
	capacity := float64(ground[rim+arrivalSteps/2]) / area
	over := float64(gathered) > capacity
	if over {
		r := float64(rim+arrivalSteps/2) * (s.Spacing / arrivalSteps)
		if disk := math.Pi * r * r / area; capacity < 0.5*disk || capacity >= 0.75*disk {
			s.cutDisk(gl, pre, a0, capacity)
			return
		}
	}
	wide, far := false, rim
	for lo := range m { // the half circle of sectors lo to lo+arrivalWedge−1
		aw, _, rw := diskSteps(pre, need, lo, arrivalWedge, 2)
		if aw <= a0 {
			continue
		}
		wide, far = true, max(far, rw)
		for j := lo; j < lo+arrivalWedge; j++ {
			gl.arrive[j%m] = max(gl.arrive[j%m], int32(aw))
		}
	}
	if wide {
		// the half disks' crowd must fit the open ground around it (it
		// may where the whole disk's does not, see above)
		total := 0
		for j, a := range gl.arrive {
			for k := range int(a) {
				total += int(h[k*m+j])
			}
		}
		if float64(total) <= float64(ground[far+arrivalSteps/2])/area {
			return
		}
		for j := range gl.arrive {
			gl.arrive[j] = int32(a0)
		}
		gl.cut = true
	}
	if over {
		s.cutDisk(gl, pre, a0, capacity)
	}
}

// cutDisk sets gl.arrive to the whole disk's first a0 steps (pre: decide's
// prefix sums), cut to no more agents, nearest first, than capacity.
func (s *FlowField) cutDisk(gl *flowGoal, pre []int32, a0 int, capacity float64) {
	const m, w = arrivalSectors, arrivalSectors + 1
	gathered := 0
	for k := range a0 {
		c := int(pre[k*w+m])
		if float64(gathered+c) > capacity {
			a0 = k
			break
		}
		gathered += c
	}
	for j := range gl.arrive {
		gl.arrive[j] = int32(a0)
	}
	gl.cut = true
}
