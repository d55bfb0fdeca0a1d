package systems

import (
	"math"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
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

// arrivalKeep is how far, in Spacings, an agent at rest may stand beyond
// the rim the looser disk rule gives its sector this frame (keepRims) and
// stay at rest (for the same goal or one it follows, unless the crowd was
// cut to the open ground and the crowd so kept does not fit it). The
// rule's rims move by a few steps from frame to frame as agents at rest
// are nudged across sector and step boundaries; without it the agents
// beyond a rim that dipped set off inwards together, pressed into the
// crowd and stopped again, in bursts that never ended (300 followers at
// a goal on rmtst01: 20–40 agents every few seconds after 4 minutes).
const (
	arrivalKeep      = 1
	arrivalKeepSteps = arrivalKeep * arrivalSteps
)

// arrivalSlow is the speed, in cells/s, below which an agent that has not
// arrived joins the crowd at its goal wherever an agent at rest would stay at
// rest (within gl.rest, the disk keep extends by arrivalKeepSteps), though
// it is beyond the join rule's rims: it is held off at the crowd's rim. A
// crowd comes to rest packed at one agent per Spacing² and then relaxes to
// about restShare of that (see restShare), so the join rule's rims shrink
// deep into it (300 agents at a goal: 109 to 86 steps within a minute,
// while keep's stay at 135–145), and an agent that came late, or the last
// few of a crowd gathered on one side of its goal (where a half disk holding
// them all packed ends short of the relaxed crowd's rim), stood at the rim
// and pressed into the crowd at a few hundredths of a cell a second, pushing
// its agents on, until it fitted: for 20 s or more in
// TestFlowCrowdAtAStaticGoalComesToRest once Movement held discs out of
// walls, and by the draw of the spawn points before. An agent walking to
// the crowd moves at cells per second until it stops; one this slow is held
// off (PathFollow's settle rule, for wide agents, is the like of it).
// arrivalSlowIn is how many steps inside that disk's rim it must be: none.
// At one Spacing inside (as it was), once a crowd at rest stood still
// (Steer's restPush) instead of slowly giving way, a late agent stood
// still at its rim, beyond that, and never joined: 1 or 2 of 300 in 5 of
// TestFlowCrowdAtAStaticGoalComesToRestAnyDraw's 12 draws.
const (
	arrivalSlow   = 0.1
	arrivalSlowIn = 0
)

// arrivalLoose is the slack, in distance steps, of the disk rule that keeps
// agents at rest (keepRims): a step's agents stay in it when the agents of
// the nearer steps fill a disk arrivalLoose steps (a Spacing) smaller than
// the join rule wants. The join rule leaves a crowd at rest only just
// packed enough at every step (its agents came to rest as soon as it was),
// so one agent nudged outwards deep inside it failed a step there and
// released everyone beyond it at once: 1,000 agents at a goal among
// buildings, a third of them at a time, again and again (see keepRims).
// keepReach is the most steps beyond the join rule's rims (on the same
// counts) that an agent at rest may then be kept.
const (
	arrivalLoose = arrivalSteps
	keepReach    = arrivalLoose + arrivalKeepSteps
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
	// loose: need for keepRims (looseThresholds), for Spacing looseFor
	loose    []float64
	looseFor float64
	// rest: the thresholds of keepRims (restThresholds), for Spacing restFor
	rest    []float64
	restFor float64

	reaches   []goalReach // the steps to count for each goal in recent use (see adaptReach)
	reachIdx  cellIndex   // the index of reaches
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
	if i := s.reachIdx.get(goal); i >= 0 {
		return s.reaches[i].steps
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
// fewer than restShare·need[len−keepReach]/2 agents (see plannedSteps;
// at most need[len−keepReach]/2), so no
// agent joins on the last keepReach steps counted either, nor stays in the
// looser disk that keeps agents at rest (keepRims), and every agent at rest
// that may be kept (up to arrivalKeepSteps beyond that disk's rim) is
// within them and measured.
func (s *FlowField) cutHolds(h []int32) bool {
	steps := len(h) / arrivalSectors
	if steps <= keepReach {
		return false
	}
	m := 0
	for _, c := range h {
		m += int(c)
	}
	return float64(2*m) < s.restThresholds(steps + 1)[steps-arrivalKeepSteps]
}

// adaptReach keeps the steps to count for gl's goal next frame, from its
// counts h: the steps beyond the farthest step k at which the agents
// nearer than k are restThresholds[k]/2 or more (the test cutHolds makes:
// measured against need[k]/2, a crowd at rest, relaxed to restShare of the
// packing, failed the cut on 83 of 370 frames of the 100,000-agent swarm and
// was measured again whole; now on none),
// plus a margin of a quarter and two Spacings for the crowd to move in and
// the arrival keep's steps (cutHolds);
// unchanged while that stays within the steps counted and they are at most
// twice as many, so that the steps, and the fused measure, hold from frame
// to frame.
func (s *FlowField) adaptReach(gl *flowGoal, h []int32) {
	const m = arrivalSectors
	steps := len(h) / m
	rest := s.restThresholds(steps + 1)
	least, in := 0, 0
	for k := range steps + 1 {
		if float64(2*in) >= rest[k] {
			least = k + 1
		}
		if k < steps {
			for _, c := range h[k*m : k*m+m] {
				in += int(c)
			}
		}
	}
	var r *goalReach
	if i := s.reachIdx.get(gl.goal); i >= 0 {
		r = &s.reaches[i]
	} else {
		at := -1
		for i := range s.reaches { // the entry of a goal not in use this frame, else a new one
			if e := &s.reaches[i]; e.used != s.frame && (at < 0 || e.used < s.reaches[at].used) {
				at = i
			}
		}
		fresh := at < 0
		if fresh {
			s.reaches = append(s.reaches, goalReach{})
			at = len(s.reaches) - 1
		}
		r = &s.reaches[at]
		s.reachIdx.set(gl.goal, at, r.goal, fresh)
		*r = goalReach{goal: gl.goal, steps: steps}
	}
	r.used = s.frame
	// (and the keep's steps beyond it, see cutHolds)
	want := least + least/4 + 2*arrivalSteps + keepReach
	if steps < least+least/8+arrivalSteps+keepReach || steps > 2*want {
		r.steps = want
	} else {
		r.steps = steps
	}
}

// reachSteps returns the number of distance steps counted for a goal with
// n followers: no agent can join beyond the rim of a half disk holding them
// all (a crowd on one side of its goal), nor stay at rest beyond keepReach
// past the rim of one holding them at restShare of the packing (keepRims),
// so those steps are counted.
func (s *FlowField) reachSteps(n int) int {
	return int(s.restEdge(2*n)/(s.Spacing/arrivalSteps)) + 1 + keepReach
}

// restEdge is edge for a crowd at restShare of the packing: the rim of a
// disk holding n agents at restShare per Spacing² cells, plus Spacing/2.
func (s *FlowField) restEdge(n int) float64 {
	return float64(s.Spacing*math.Sqrt(float64(n)/(restShare*math.Pi))) + float64(s.Spacing/2)
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
// Spacing/2, g the agents of the nearer steps, that is div·g ≥ need[k]; the
// agents of a step that fails join too when a farther step meets it before
// the first step holding agents that fails the looser thresholds loose
// (div·g < loose[k]), which ends the disk (with loose = need: the first
// step that fails ends it). It returns the step after the last that met
// need before that (0 if none), the agents on the steps up to there, and
// the disk's rim: the first step from there on that an agent could not join
// (div·gathered < need[rim]), at most the steps counted, the rim of a
// part-disk holding the gathered agents or their farthest step if farther.
// Neither depends on agents beyond the first that fails loose, so counting
// fewer steps decides alike (see plannedSteps).
func diskSteps(pre []int32, need, loose []float64, lo, n, div int) (arrive, gathered, rim int) {
	return diskStepsGap(pre, need, loose, lo, n, div, 0)
}

// diskStepsGap is diskSteps where, when gap > 0, a step holding agents
// more than gap steps beyond the last that held any also ends the disk.
func diskStepsGap(pre []int32, need, loose []float64, lo, n, div, gap int) (arrive, gathered, rim int) {
	const w = arrivalSectors + 1
	steps := len(pre) / w
	hi := lo + n
	in, last := 0, -1
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
		if float64(div*in) < loose[k] || gap > 0 && last >= 0 && k-last > gap {
			break
		}
		last = k
		if float64(div*in) >= need[k] {
			arrive, gathered = k+1, in+int(c)
		}
		in += int(c)
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
// gathered is more than the open ground around it holds (join); and where
// agents at rest stay at rest (keepRims).
func (s *FlowField) decide(gl *flowGoal, h []int32, ground []int32) {
	s.join(gl, h, ground)
	s.keepRims(gl, h, ground)
}

// keepRims sets gl.keep, where agents at rest stay at rest (writeBack), from
// the prefix sums join left in the scratch (steps steps): for each sector,
// arrivalKeepSteps beyond the farthest of its join rim (gl.arrive), the
// rim of the whole disk and that of each half disk covering it, by the disk
// rule with the looser thresholds (arrivalLoose) at restShare of the
// packing on both counts, ending also at a gap of more than restGap steps
// without agents (restThresholds, diskStepsGap); gl.keepFollow, the same
// with no gap, for agents following a walking goal. keepFollow counts the
// crowd at restShare of the packing too: each step of a walking goal makes
// the agents at rest followers, and on the looser thresholds alone (as it
// was) the rim of a crowd that had relaxed at rest between two steps failed
// them and was released together, though keep still held it: 44 agents in
// one frame in TestFlowArrivalWalkingGoalNoLurch's route and 41 in its
// east walk once Movement held discs out of walls (the crowd then relaxed a
// little farther); with restShare here, at most 29 in a frame there and none
// past 40 but the east walk's jump. Without that Movement change the route's
// changes of Arrived fall 1,240 → 1,172 and the east's 1,400 → 1,374, the
// most in a frame stays 38 (route) and close pairs go 23.8 → 24.0; and
// gl.keepFits, whether the agents so kept fit the open ground within
// Spacing/2 of the farthest of these rims (ground: decide's), so that where
// join cut the crowd to the open ground the agents at rest stay at rest
// only if the crowd they make fits it. An agent at rest is so kept while
// the agents nearer its goal still nearly fill a disk around it, and
// released when the goal jumps (in the frame it switches fields), or when
// the crowd thins out around it.
func (s *FlowField) keepRims(gl *flowGoal, h []int32, ground []int32) {
	const m = arrivalSectors
	steps := len(h) / m
	sc := &s.arrivalScratch
	pre := sc.pre[:steps*(m+1)]
	rest := restDisk(pre, s.restThresholds(steps), restGap)
	keepDisk(&gl.keep, gl, &rest, steps)
	for j, r := range rest {
		gl.slow[j] = max(r-arrivalSlowIn, 0)
	}
	follow := restDisk(pre, s.restThresholds(steps), 0)
	keepDisk(&gl.keepFollow, gl, &follow, steps)
	far, total := 0, 0
	for j := range gl.keep {
		far = max(far, int(gl.keep[j]))
		for k := range int(gl.keep[j]) {
			total += int(h[k*m+j])
		}
	}
	gl.keepFits = float64(total) <= float64(ground[min(far+arrivalSteps/2, len(ground)-1)])/(s.Spacing*s.Spacing)
}

// restDisk returns, for each sector, the farther of the rim of the whole
// disk and that of each half disk covering it by the disk rule with the
// thresholds thr on both counts (pre: join's prefix sums), ended also at a
// gap of more than gap steps (none if 0).
func restDisk(pre []int32, thr []float64, gap int) (rims arrivalDisk) {
	const m = arrivalSectors
	a0, _, _ := diskStepsGap(pre, thr, thr, 0, m, 1, gap)
	for j := range rims {
		rims[j] = int32(a0)
	}
	for lo := range m {
		aw, _, _ := diskStepsGap(pre, thr, thr, lo, arrivalWedge, 2, gap)
		if aw <= a0 {
			continue
		}
		for j := lo; j < lo+arrivalWedge; j++ {
			rims[j%m] = max(rims[j%m], int32(aw))
		}
	}
	return rims
}

// keepDisk sets keep, for each sector, arrivalKeepSteps beyond the farther
// of gl's join rim and rest's (restDisk), at most steps.
func keepDisk(keep *arrivalDisk, gl *flowGoal, rest *arrivalDisk, steps int) {
	for j := range keep {
		keep[j] = min(max(gl.arrive[j], rest[j])+arrivalKeepSteps, int32(steps))
	}
}

// looseThresholds returns the thresholds of keepRims for at least steps
// steps: need (see thresholds) arrivalLoose steps nearer, 0 for the first
// arrivalLoose steps.
func (s *FlowField) looseThresholds(steps int) []float64 {
	sc := &s.arrivalScratch
	need := s.thresholds(steps)
	if sc.looseFor != s.Spacing || len(sc.loose) < len(need) {
		sc.loose = grow(sc.loose, len(need))
		sc.looseFor = s.Spacing
		for k := range sc.loose {
			sc.loose[k] = 0
			if k >= arrivalLoose {
				sc.loose[k] = need[k-arrivalLoose]
			}
		}
	}
	return sc.loose
}

// restShare is the share of the packing (one agent per Spacing² cells) at
// which keepRims still counts a crowd at rest as packed, and restGap the
// most steps between two steps holding agents within its disk. A crowd
// comes to rest packed at one per Spacing² (the join rule), and separation
// then pushes its agents apart (its radius is about Spacing) for a minute
// or more, at up to 0.05 cells/s: the crowd relaxes to about 3/4 of that
// packing, its rim creeps outwards and the rims the looser rule gives it
// shrink. The agents at rest on its rim were then released one by one,
// walked back 2–3 cells into the crowd and pressed into it until they
// fitted, and so kept it spreading: 300 followers at a goal in the open
// never all came to rest (from 60 to 90 s, 293–299 Arrived and up to 7
// agents a second moving at up to 3.9 cells/s). An agent at rest pushed
// away from its crowd, beyond a gap of more than restGap steps, is still
// released and walks back (TestAnAgentAtRestPushedFarFromItsCrowdWalksBack).
const (
	restShare = 0.75
	restGap   = arrivalSteps + arrivalSteps/2
)

// restThresholds returns the thresholds of keepRims for at least steps
// steps: looseThresholds' times restShare.
func (s *FlowField) restThresholds(steps int) []float64 {
	sc := &s.arrivalScratch
	loose := s.looseThresholds(steps)
	if sc.restFor != s.Spacing || len(sc.rest) < len(loose) {
		sc.rest = grow(sc.rest, len(loose))
		sc.restFor = s.Spacing
		for k := range sc.rest {
			sc.rest[k] = restShare * loose[k]
		}
	}
	return sc.rest
}

// join sets gl.arrive (see decide).
func (s *FlowField) join(gl *flowGoal, h []int32, ground []int32) {
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
	loose := s.looseThresholds(steps)
	a0, gathered, rim := diskSteps(pre, need, loose, 0, m, 1)
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
		aw, _, rw := diskSteps(pre, need, loose, lo, arrivalWedge, 2)
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

// followReach is the farthest a goal may move, in cells between the centres
// of its old and new cells, for its agents at rest to follow it (followGoal):
// a step or two of a walking goal (a player's cell), not a jump.
const followReach = 2

// followGoal is the rule for a walking goal (archai's own): an agent at rest
// (Arrived) at p whose goal moved from the cell from to ff.Goal, by at most
// followReach, follows it. Its Follow point becomes where it stood (its last
// Follow point if it was still following) moved as far as the goal moved,
// and it is measured there from now on (jobFollow), so the crowd at rest
// keeps its shape around the goal, and its place in it, and walks with its
// goal as a body (PathFollow has it arrive at Follow). Before, each step of a
// walking goal sent the crowd trailing it moving, all together (its front was
// then more than Spacing/2 from the goal, so no agent was in the new disk),
// and it stopped again, all together, once its front reached the goal: 1,000
// agents trailing a goal that walked a cell every 0.5 s changed Arrived
// 35,499 times in 25 s, in 86 frames 40 or more of them together. A Follow
// point off the grid or in a blocked cell is none: the agent is measured
// where it stands, and kept at rest as any agent whose goal stayed (it
// was measured as one whose goal jumped, by the joining rule alone, and a
// crowd at rest against a building lost the agents whose points fell inside
// it at one step: 43 in a frame in TestFlowArrivalWalkingGoalNoLurch's east
// walk). It reports whether the goal walked (by at most followReach), so
// that the agent is kept at rest as before its goal moved; Following tells
// whether it follows.
func (s *FlowField) followGoal(ff *components.FlowFollower, p r2.Vec, from grid.Cell) bool {
	dx, dy := float64(ff.Goal.X-from.X), float64(ff.Goal.Y-from.Y)
	if sq2(dx, dy) > followReach*followReach {
		ff.Following = false
		return false
	}
	if ff.Following {
		p = ff.Follow
	}
	to := r2.Vec{X: p.X + dx, Y: p.Y + dy}
	if !onGridCoords(to) || !s.grid.InBounds(cellAt(s.grid, to)) || !s.grid.Passable(cellAt(s.grid, to)) {
		ff.Following = false
		return true
	}
	ff.Follow, ff.Following = to, true
	return true
}
