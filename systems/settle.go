package systems

import (
	"cmp"
	"math"
	"slices"

	"github.com/archai-go/archai/components"
	"gonum.org/v1/gonum/spatial/r2"
)

// Wide agents sharing a goal settle around it. An agent arrives by
// steer.Arrive, which stops it on the goal point (within ArrivedRadius); small
// agents sent to one point without separation overlap there and come to rest
// in a heap (with separation, packed about it: steer_crowd.go), but
// agents of Radius above 0.5 push each other apart (separation, and
// Movement keeps their discs out of walls) and none of them ever reaches the
// point: they jostle around it for good. So PathFollow settles them, as RTS
// engines stop a unit that bumps into one of its group already arrived, with
// a packed-disc bound like FlowField's arrival rule: each frame, the wide
// agents (Kinematics.Radius > 0.5, with a Path, in an open cell, the disc
// clear of walls: discClear) whose
// Desired is an Arrive at the goal of their Intent (the goal in sight, or the
// path's last leg; for a goal too narrow for the agent's disc, fitPoint's
// point beside it, which then counts as its goal here), or a Seek of a
// waypoint of their path there, are grouped by goal (the same point, bit for bit) and
// visited nearest first (ties by position); in a group of two or more, an
// agent of radius r at distance d from the goal settles, its Desired
// rewritten to DesiredHold, when
//
//   - it is arriving (not seeking a waypoint: the goal may be behind a wall)
//     and d ≤ sqrt(S/settlePacking) + r, S being the sum of the squared radii of
//     the agents of its group settled before it (the disc they would cover
//     at that packing, plus its own radius: the first settles within r of
//     the goal), or + 2r if it is jammed (its disc within settleGap of
//     another of the group's) or held off (below); or
//   - it touches an agent of radius r' settled before it (their discs within
//     settleGap), and either d ≤ sqrt(S/settleLoose) + 2r (near the goal) or
//     that agent touches two settled ones (the crowd's rim, not the tip of a
//     queue); or
//   - the same with r + r' + r for touching, when it is held off: it has not
//     moved StuckDistance cells for settleBlocked seconds (its Progress).
//
// An agent still walking its path (it reaches the crowd through a gap or
// round a corner, its goal not in sight) settles by the contact rules only:
// before, only agents arriving were candidates, and those that met the
// crowd on the way pressed against it and the wall's end for good, jostling
// at up to 4 cells/s (TestWideMoversThroughAGapAllSettle).
//
// It does not settle deep inside a settled one (centres less than the larger
// radius apart) unless held off or settled already: separation first. An
// agent that had settled the frame before gets settleHold cells more on each
// distance, so a crowd does not flicker between settling and moving. A
// settled agent only brakes (Steer: no separation or wall force), so it stays
// where it stopped, and its Progress is restarted each frame, so it is never
// found stuck. It moves again when its goal changes (another group) or the
// agents that held it leave. A lone agent, and any agent of radius ≤ 0.5,
// arrives as before. The cost is a sort of the candidates and, for each, a
// look at the settled ones whose distances to the goal are within a few
// radii of its own.

const (
	settlePacking = 0.7  // the share of the settled disc the agents' discs cover
	settleLoose   = 0.25 // the same, at least, for the contact rules
	settleGap     = 0.25 // cells between two discs that count as touching
	settleHold    = 0.5  // cells more for an agent settled the frame before
	settleBlocked = 1.0  // seconds without progress that count as held off
	settleOverlap = 1.0  // the share of the smaller radius two discs may overlap by when one settles
)

// settleCand is a wide agent heading straight for its goal this frame (see
// above). The pointers live for one Update.
type settleCand struct {
	desired  *components.Desired
	progress *components.Progress // nil: none
	pos      r2.Vec
	goal     r2.Vec
	dist     float64 // to the goal
	r        float64 // radius
	was      bool    // settled the frame before (Desired was DesiredHold)
	onPath   bool    // still walking its path (seeking a waypoint): settles by contact only
}

// wantsSettle reports whether an agent with Kinematics kin (nil: none) whose
// Desired this frame is d is a candidate of settle: wide, and arriving at its
// goal or still walking its path there (seeking a waypoint).
func wantsSettle(kin *components.Kinematics, d *components.Desired) bool {
	return kin != nil && kin.Radius > 0.5 && (d.Mode == components.DesiredArrive || d.Mode == components.DesiredSeek)
}

// settle applies the rule above to the candidates the workers listed in
// s.scratch, on the calling goroutine, and empties the lists.
func (s *PathFollow) settle() {
	all := s.settling[:0]
	for i := range s.scratch {
		sc := &s.scratch[i]
		all = append(all, sc.settle...)
		clear(sc.settle) // no component pointer kept past the Update
		sc.settle = sc.settle[:0]
	}
	for i := range s.scratch {
		// room in every worker's list for all the candidates: how the
		// workers share them depends on timing, so a steady frame could
		// grow one otherwise
		s.scratch[i].settle = reserve(s.scratch[i].settle, len(all))
	}
	slices.SortFunc(all, compareCand)
	now := s.clock.Time
	for lo := 0; lo < len(all); {
		hi := lo + 1
		for hi < len(all) && all[hi].goal == all[lo].goal {
			hi++
		}
		if hi-lo > 1 {
			s.settleGroup(all[lo:hi], now)
		}
		lo = hi
	}
	clear(all)
	s.settling = all[:0]
}

// compareCand orders candidates by goal, then nearest first, then by
// position, radius, whether settled the frame before, and their Progress: two
// that compare equal are alike in everything the rule reads, and settleGroup
// gives them one answer, so the order the workers listed them in, which
// depends on timing, cannot matter.
func compareCand(a, b settleCand) int {
	return cmp.Or(cmp.Compare(a.goal.X, b.goal.X), cmp.Compare(a.goal.Y, b.goal.Y), cmp.Compare(a.dist, b.dist),
		cmp.Compare(a.pos.X, b.pos.X), cmp.Compare(a.pos.Y, b.pos.Y), cmp.Compare(a.r, b.r),
		compareBool(a.was, b.was), compareBool(a.onPath, b.onPath), compareProgress(a.progress, b.progress))
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// compareProgress orders the Progress the rule reads (none first).
func compareProgress(a, b *components.Progress) int {
	switch {
	case a == nil || b == nil:
		return compareBool(a != nil, b != nil)
	}
	return cmp.Or(compareBool(a.Stuck, b.Stuck), cmp.Compare(a.Since, b.Since))
}

// settleGroup settles the agents of one goal, sorted nearest first. Agents
// alike in all the rule reads (compareCand gives 0: spawned on one spot)
// share one answer, so which of them the sort put first does not matter
// (the first would settle and the next, deep in it, would not, and which
// agent that is depended on the workers' timing): none settles while they
// are on one spot, each deep in the others (separation parts them first),
// unless held off or settled the frame before, when all take the first's.
func (s *PathFollow) settleGroup(g []settleCand, now float64) {
	rmax := 0.0
	for i := range g {
		rmax = max(rmax, g[i].r)
	}
	sum := 0.0 // Σ r² of the agents settled so far
	settled, links := s.settledIdx[:0], s.settledLinks[:0]
	prevOK := false
	for i := range g {
		c := &g[i]
		if i > 0 && compareCand(*c, g[i-1]) == 0 {
			if prevOK {
				s.settleOne(g, i, windowStart(g, settled, i, rmax), &settled, &links, &sum, now)
			}
			continue
		}
		prevOK = false
		hold := 0.0
		if c.was {
			hold = settleHold
		}
		blocked := c.progress != nil && (c.progress.Stuck || now-c.progress.Since >= settleBlocked)
		if i+1 < len(g) && compareCand(*c, g[i+1]) == 0 && !blocked && !c.was {
			continue // alike ones on one spot, each deep in the others: separation first
		}
		reach := c.r
		if blocked || jammed(g, i, rmax) {
			reach += c.r
		}
		ok := !c.onPath && c.dist <= math.Sqrt(sum/settlePacking)+reach+hold
		near := c.dist <= math.Sqrt(sum/settleLoose)+c.r+c.r+hold
		first := windowStart(g, settled, i, rmax)
		for k := first; k < len(settled); k++ {
			o := &g[settled[k]]
			d := math.Sqrt(dist2(c.pos, o.pos))
			if d < c.r+o.r-float64(settleOverlap*min(c.r, o.r)) && !blocked && !c.was {
				ok = false // deep in a settled one: separation first
				break
			}
			touch := d <= c.r+o.r+settleGap+hold
			// touching the crowd near the goal, or one held by two others
			// (the crowd's rim, not the tip of a queue)
			ok = ok || (near || links[k] >= 2) && (touch || blocked && d <= c.r+o.r+c.r+hold)
		}
		if !ok {
			continue
		}
		prevOK = true
		s.settleOne(g, i, first, &settled, &links, &sum, now)
	}
	s.settledIdx, s.settledLinks = settled[:0], links[:0]
}

// windowStart returns the index in settled (agents of g settled so far,
// nearest the goal first) of the first that agent i of g can reach by a rule
// above (rmax: g's largest radius): those nearer the goal by more than the
// window are farther from it than the window.
func windowStart(g []settleCand, settled []int32, i int, rmax float64) int {
	c := &g[i]
	win := c.r + rmax + c.r + settleGap + settleHold
	first := len(settled)
	for first > 0 && g[settled[first-1]].dist >= c.dist-win {
		first--
	}
	return first
}

// settleOne settles agent i of the group g: it counts the settled agents from
// settled[first] on that it touches (and adds itself to their counts), joins
// settled with that count and its r² in sum, holds (DesiredHold) and restarts
// its Progress at now.
func (s *PathFollow) settleOne(g []settleCand, i, first int, settled, links *[]int32, sum *float64, now float64) {
	c := &g[i]
	hold := 0.0
	if c.was {
		hold = settleHold
	}
	touching := int32(0)
	for k := first; k < len(*settled); k++ {
		if o := &g[(*settled)[k]]; math.Sqrt(dist2(c.pos, o.pos)) <= c.r+o.r+settleGap+hold {
			(*links)[k]++
			touching++
		}
	}
	*settled, *links = append(*settled, int32(i)), append(*links, touching)
	*sum += float64(c.r * c.r)
	setDesired(c.desired, components.Desired{Mode: components.DesiredHold})
	if pr := c.progress; pr != nil {
		moveOn(pr, c.pos, now)
	}
}

// jammed reports whether agent i of the group g (sorted by distance to the
// goal, rmax its largest radius) touches another of g (their discs within
// settleGap): only those whose distances to the goal differ by at most
// r + rmax + settleGap can.
func jammed(g []settleCand, i int, rmax float64) bool {
	c := &g[i]
	win := c.r + rmax + settleGap
	touches := func(k int) bool {
		return math.Sqrt(dist2(c.pos, g[k].pos)) <= c.r+g[k].r+settleGap
	}
	for k := i - 1; k >= 0 && g[k].dist >= c.dist-win; k-- {
		if touches(k) {
			return true
		}
	}
	for k := i + 1; k < len(g) && g[k].dist <= c.dist+win; k++ {
		if touches(k) {
			return true
		}
	}
	return false
}
