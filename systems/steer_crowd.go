package systems

import (
	"cmp"
	"math"
	"slices"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"gonum.org/v1/gonum/spatial/r2"
)

// Arriving in a crowd. steer.Arrive brakes at the last moment: its desired
// speed is the fastest from which MaxForce still stops the agent on the
// point, reached within one step ((desired − vel)/dt), so an agent held short
// of its point is pulled with the whole MaxForce (all that separation leaves
// of it) whatever its velocity. Against separation that is a force nothing
// damps, and agents sent to one point kept jostling about it for good
// (measured: 2 default Movers orbiting the point at 0.02 cells/s, 3 swaying
// at up to 0.9 cells/s, 10 at 0.2, for minutes).
//
// So a slow agent (|vel| ≤ MaxForce·τ/2 cells/s, τ below) arriving
// (DesiredArrive) within crowdReach separation radii of its point, whose
// separation pushes it back from the point (the push has a component
// against the way to the point: a neighbour between it and the point, or
// crowding it there), arrives as a damped spring instead: its desired
// velocity points to the point at crowdGain·distance cells/s, at most its
// top speed, MaxForce·τ/2 and half the distance a step, and the move force
// reaches it over τ = crowdTau seconds, or two steps if longer
// ((desired − vel)/τ, truncated to MaxForce), and
// it casts no wall feelers: along its small and changing velocity they
// pushed it to and fro at MaxForce/4 or more against a wall the crowd
// pressed it to (Movement keeps its centre out of walls). Its pull at rest
// is then at most half of MaxForce, which separation balances within
// MaxForce, and the velocity term damps the rest: the crowd comes to rest
// about the point (TestSmallMoversSharingAGoalComeToRest; measured with
// default Movers from 10 cells away in the open: 2 to 10 below 10⁻³ cells/s
// within 20 s, 30 within 35 s, 100 within about 100 s, the centres of
// neighbours 0.3–0.8 cells apart; at the mouth of a corridor one cell wide
// and inside it, 3 within 20 s, 10 within 40 s, 30 within about 110 s).
//
// The rule applies once the agent is slow, so a fast agent (one running to
// its point behind a companion, or arriving at the crowd) arrives by
// steer.Arrive as before until separation and arrive have slowed it, and
// then stays within the rule (its top speed there keeps it slow). A lone
// agent, one pushed only sideways or from behind, and one farther from its
// point arrive by steer.Arrive. Wide agents (radius > 0.5) also settle
// (settle.go).
const (
	crowdReach = 8   // separation radii from the point
	crowdTau   = 0.1 // seconds to reach the desired velocity
	crowdGain  = 1.0 // desired speed per cell of distance, 1/s
)

// crowdSlow is crowdArrive's first test, inline: whether an agent at vel
// is slow enough for the crowd rule (crowdArrive steers none other,
// so a caller may skip it when this is false). forcePlain tests it with the
// kind's crowdTop2, crowdTop squared once a frame (steerKind.atStep).
func crowdSlow(vel r2.Vec, maxF, dt float64) bool {
	top := crowdTop(maxF, dt)
	return !(norm2(vel) > top*top) // the same test, NaN included
}

// crowdTop is the top speed of the crowd rule (crowdArrive's top) for an
// agent of MaxForce maxF at step dt.
func crowdTop(maxF, dt float64) float64 { return maxF * max(crowdTau, 2*dt) / 2 }

// crowdArrive returns the move force of an agent at pos, moving at vel,
// arriving at point while separation pushes it by push (weighted), and
// whether the crowd rule above applies; speed is its top speed (cells/s),
// maxF its MaxForce (cells/s²), reach its separation radius (cells) and dt
// the step (s).
func crowdArrive(pos, vel, point, push r2.Vec, speed, maxF, reach, dt float64) (r2.Vec, bool) {
	tau := max(crowdTau, 2*dt)
	top := maxF * tau / 2
	if norm2(vel) > top*top {
		return r2.Vec{}, false
	}
	d := r2.Sub(point, pos)
	d2 := norm2(d)
	reach *= crowdReach
	if !(d2 > 0 && d2 <= reach*reach) || !(float64(push.X*d.X)+float64(push.Y*d.Y) < 0) {
		return r2.Vec{}, false
	}
	var desired r2.Vec
	if dist := math.Sqrt(d2); dist > ArrivedRadius {
		v := min(speed, crowdGain*dist, top, dist/(2*dt))
		desired = r2.Scale(v/dist, d)
	}
	return steer.Truncate(r2.Scale(1/tau, r2.Sub(desired, vel)), maxF), true
}

// A target and its pursuer. A pursuer stops at steer.Catch's standoff
// (twice its radius plus CatchGap), inside its target's separation radius, so
// a standing target gave way to it and the pursuer followed: the pair drifted
// off for good (0.074 cells/s for two default Movers); a target arriving at a
// goal was pushed past it and crept back. So a slow target (at most
// MaxForce·max(crowdTau, 2·dt)/2: 1 cell/s for a default Mover) drops from
// its separation force the push of every neighbour pursuing it, and still
// gives way to everyone else; the pursuer keeps its own distance. A fast one
// keeps the push: one walking straight at its pursuer (which never backs
// away) would pass through it. The gather lists each pursuer in the hash with
// its Desired.Point; markPursued finds the slots of the agents at those
// points (a query of radius 0 each, on one goroutine) and keeps the pairs
// (target slot, pursuer slot) sorted; only those targets' separation is
// summed again (pursuedSep), the others' forces are as before.

// pursuit is a pursuer (or, in Steer.pairs, a target) at slot in the hash,
// heading for point; in Steer.pairs, at is its pursuer's slot.
type pursuit struct {
	slot, at int32
	point    r2.Vec
}

// markPursued sets s.pursued's bit of every slot whose hashed position is a
// pursuer's Desired.Point (the gather listed them) and lists the pairs,
// clearing the last frame's first.
func (s *Steer) markPursued() {
	for _, k := range s.marked {
		s.pursued[k>>6] = 0
	}
	s.marked, s.pairs = s.marked[:0], s.pairs[:0]
	if words := (s.nb.Hash.Len() + 63) >> 6; len(s.pursued) < words {
		s.pursued = make([]uint64, words)
	}
	sc := &s.scratch[0]
	for i := range s.scratch {
		for _, p := range s.scratch[i].pursuits {
			if !finiteVec(p.point) {
				continue
			}
			sc.ids = s.nb.Hash.QuerySlots(p.point, 0, sc.ids[:0])
			for _, k := range sc.ids {
				if k == p.slot {
					continue // itself
				}
				s.pairs = append(s.pairs, pursuit{slot: k, at: p.slot})
				if s.pursued[k>>6]&(1<<(k&63)) == 0 {
					s.pursued[k>>6] |= 1 << (k & 63)
					s.marked = append(s.marked, k)
				}
			}
		}
	}
	slices.SortFunc(s.pairs, func(a, b pursuit) int { return cmp.Or(cmp.Compare(a.slot, b.slot), cmp.Compare(a.at, b.at)) })
}

// pursuedSep returns the separation force sep of agent a (its kind kd, at
// slot in the hash, sc its worker's scratch) without the push of its
// pursuers (s.pairs; the sum found again by a scan of its neighbours, in the
// hash's order as separation's), or sep itself if none is within reach.
func (s *Steer) pursuedSep(a *steerAgent, slot int, sc *steerScratch, kd *steerKind, sep r2.Vec) r2.Vec {
	lo, _ := slices.BinarySearchFunc(s.pairs, int32(slot), func(p pursuit, t int32) int { return cmp.Compare(p.slot, t) })
	hi := lo
	for hi < len(s.pairs) && s.pairs[hi].slot == int32(slot) {
		hi++
	}
	mine := s.pairs[lo:hi] // its pursuers, by slot
	radius := kd.wt.SeparationRadius
	_, sorted := s.nb.Hash.Sorted()
	sc.ids = s.nb.Hash.QuerySlots(a.pos, radius, sc.ids[:0])
	var rest r2.Vec
	pursued := false
	for _, k := range sc.ids {
		if int(k) == slot {
			continue
		}
		d := r2.Sub(a.pos, sorted[k])
		n := math.Sqrt(norm2(d))
		if !(n > 0) {
			return sep // coincident (separation's fallback direction), or NaN
		}
		if n >= radius {
			continue
		}
		if slices.ContainsFunc(mine, func(p pursuit) bool { return p.at == k }) &&
			!(components.DesiredMode(a.kind>>kindBits) == components.DesiredPursue && sameBits(a.point.X, sorted[k].X) && sameBits(a.point.Y, sorted[k].Y)) {
			// its pursuer, unless it pursues that one too (two pursuing
			// each other keep apart by separation: Catch only brakes)
			pursued = true
			continue
		}
		w := (radius - n) / radius / n
		rest = r2.Vec{X: rest.X + float64(w*d.X), Y: rest.Y + float64(w*d.Y)}
	}
	if !pursued {
		return sep
	}
	return steer.Truncate(r2.Scale(kd.kin.MaxForce, rest), kd.kin.MaxForce)
}
