package systems

import (
	"math"

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

// Resting in a crowd. An agent with no move intent rests (DesiredNone:
// brakes) and gives way to separation. Rested at a shared point with
// others still arriving there (a decision that stops an agent once within
// some distance of its goal, as the README's first program does), that
// made it a bead on a string: the arriving agents' push on the crowd's rim
// moved rested agents out of the decision's distance, which walked them
// back in, pushing others out (measured with the first program's tree: of
// 10 couriers 2 shuffled in and out at 0.3–0.5 cells/s for good, of 30
// about 15).
//
// So a resting agent (DesiredNone, not wandering) within crowdRestReach
// separation radii of its last goal (PathFollow keeps Intent.Goal in a
// resting agent's Desired.Point; the zero point is none) does not give way
// to its crowd outwards: from its separation force it drops the part of
// its crowd-mates' push (the neighbours arriving at the same point, bit
// for bit, or resting with it as their last goal) that points away from
// the point. Sideways and towards the point it gives way as before, and to
// any other agent (a passer-by) in every direction, so it never blocks a
// way it stands in.
const crowdRestReach = 3 // separation radii from the point

// crowdRest returns agent a's separation force sep (its kind kd, at slot
// in the hash, sc its worker's scratch) by the rule above.
func (s *Steer) crowdRest(a *steerAgent, slot int, sc *steerScratch, kd *steerKind, sep r2.Vec) r2.Vec {
	point := a.point
	if point.X == 0 && point.Y == 0 {
		return sep
	}
	radius := kd.wt.SeparationRadius
	u := r2.Sub(point, a.pos)
	uu := norm2(u)
	if reach := radius * crowdRestReach; !(uu > 0 && uu <= reach*reach) {
		return sep
	}
	// the push of every neighbour (all) and of the crowd-mates among them
	// (mates), as steer.Separation sums it
	sc.ids = s.nb.Hash.QuerySlots(a.pos, radius, sc.ids[:0])
	_, sorted := s.nb.Hash.Sorted()
	var all, mates r2.Vec
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
		w := (radius - n) / radius / n
		f := r2.Vec{X: float64(w * d.X), Y: float64(w * d.Y)}
		all = r2.Add(all, f)
		if int(k) >= len(s.hot) {
			continue
		}
		p := &s.hot[k]
		if !sameBits(p.pos.X, sorted[k].X) || !sameBits(p.pos.Y, sorted[k].Y) {
			continue // not gathered this frame (the agent lacks Steer's components)
		}
		switch components.DesiredMode(p.kind >> kindBits) {
		case components.DesiredArrive:
		case components.DesiredNone:
			if p.aux >= 0 {
				continue // a wanderer
			}
		default:
			continue
		}
		if sameBits(p.point.X, point.X) && sameBits(p.point.Y, point.Y) {
			mates = r2.Add(mates, f)
		}
	}
	dot := float64(mates.X*u.X) + float64(mates.Y*u.Y)
	if !(dot < 0) {
		return sep
	}
	k := dot / uu
	all = r2.Vec{X: all.X - float64(k*u.X), Y: all.Y - float64(k*u.Y)}
	return steer.Truncate(r2.Scale(kd.kin.MaxForce, all), kd.kin.MaxForce)
}
