package systems

import (
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Walking into the crowd at its goal. Small agents (radius ≤ 0.5) sent to
// one point come to rest about it by the crowd rule (steer_crowd.go) while
// they arrive, the point in sight. One still walking its path there (the
// point out of sight: round a pillar, past a wall's end) seeks its next
// waypoint at full force, and where the crowd stands on that waypoint it
// pressed into it for good: 30 default Movers sent to a point diagonal to
// a lone blocked cell never came to rest, those pushed round the far side
// of the pillar walking back round it at up to 2.3 cells/s after two
// minutes (TestMoversSentToABlockedCellsCornerRest, "pillar").
//
// So, as RTS engines stop a unit that bumps into one of its group already
// arrived, such an agent within crowdHoldNear cells of its goal holds
// (DesiredHold: it brakes, no separation or wall force) while its disc
// touches (within settleGap cells; settleHold more if it held the frame
// before) the disc of an agent sent to the same goal (Intent.Goal, bit for
// bit), nearer that goal, and at rest (slower than crowdRestSpeed: arrived,
// or held itself). The nearest agent of a line is never held by it, so a
// group spawned at rest starts from its head; an agent held moves on once
// the one ahead of it moves or leaves. Its Progress restarts while it holds
// (never found stuck). Wide agents settle by their own rule (settle.go).
//
// One that leads its crowd there (its disc touches those of agents sent to
// the same goal, every one of them farther from it) arrives at its waypoint
// (DesiredArrive) instead of seeking it, so that Steer's crowd rule
// (steer_crowd.go) damps its push once the crowd has slowed it: seeking,
// it pressed at full force against separation, an undamped spring. Movers of
// radii 0.3 and 0.5 round a pillar never rested: one wedged between the
// pillar and a neighbour on its next waypoint, itself nearer the goal in a
// straight line, swung 0.25 cells to and fro at up to 0.67 cells/s for good
// (TestMixedSmallRadiiRoundAPillarRest). Walking (faster than the crowd
// rule's limit) it arrives as it seeks: the waypoint is passed, not stopped on.
// Only with a path ready and a waypoint before its goal; a straight seek (no
// path yet, none found) keeps seeking, and so does one with a neighbour
// nearer the goal still moving: queued behind it, it presses in as before
// (damped too, the queue rested in a tail along the path up to 5.5 cells
// from the goal: TestACrowdRoundAWallEndPacksAtItsGoal).
const (
	crowdHoldNear  = 6.0 // cells from the goal within which a walking agent may hold
	crowdRestSpeed = 0.1 // cells/s below which a neighbour counts as at rest
)

// crowdMaps reads other agents' Intent and Kinematics for heldByCrowd.
type crowdMaps struct {
	world   *arche.World
	intents generic.Map[components.Intent]
	kins    generic.Map[components.Kinematics]
}

// heldByCrowd reports whether a small agent at pos (radius r) sent to goal
// (its Intent.Goal, from which both distances are measured: the same point
// for every agent of the group, whatever its radius or rest point, so two
// cannot each be the nearer), seeking a waypoint of its path, holds by the
// rule above; was tells it held the frame before. in tells whether it is
// not held and its disc touches those of agents sent to the same goal, all
// of them farther from it: it leads its own crowd there, which blocks its way.
func (s *PathFollow) heldByCrowd(pos, goal r2.Vec, r float64, was bool) (hold, in bool) {
	d2 := dist2(pos, goal)
	if !(d2 < crowdHoldNear*crowdHoldNear) || s.nb == nil || s.nb.Hash == nil {
		return false, false
	}
	gap := settleGap
	if was {
		gap += settleHold
	}
	reach := r + 0.5 + gap // the widest neighbour that is not itself wide
	h := s.nb.Hash
	x0, x1, y0, y1, ok := h.Rows(pos, reach)
	if !ok {
		return false, false
	}
	ids, ps := h.Sorted()
	ahead := false // a neighbour touching it nearer the goal, still moving
	for y := y0; y <= y1; y++ {
		lo, hi := h.RowSpan(y, x0, x1)
		for k := lo; k < hi; k++ {
			p := ps[k]
			dd := dist2(pos, p)
			if dd > reach*reach || p == pos {
				continue // too far, or itself
			}
			id := ids[k]
			nearer := dist2(p, goal) < d2
			resting := norm2(s.nb.Velocities[id]) <= crowdRestSpeed*crowdRestSpeed
			if nearer && !resting && ahead || !nearer && (in || ahead) {
				continue // it could not change the answer: no entity read
			}
			e := s.nb.Entities[id]
			if !s.crowd.world.Alive(e) || !s.crowd.intents.HasUnchecked(e) {
				continue
			}
			gi := s.crowd.intents.GetUnchecked(e)
			if gi.Mode != components.IntentGo || !gi.Move || !sameBits(gi.Goal.X, goal.X) || !sameBits(gi.Goal.Y, goal.Y) {
				continue
			}
			rj := r
			if s.crowd.kins.HasUnchecked(e) {
				rj = min(s.crowd.kins.GetUnchecked(e).Radius, 0.5)
			}
			if t := r + rj + gap; dd > t*t {
				continue
			}
			switch {
			case !nearer:
				in = true // one farther from the goal
			case resting:
				return true, false // nearer the goal and at rest
			default:
				ahead = true
			}
		}
	}
	return false, in && !ahead
}
