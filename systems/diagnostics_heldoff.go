package systems

import (
	"math"
	"strconv"
	"strings"

	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// The bounds of CauseHeldOffGoal.
const (
	heldOffSlow   = 0.05 // share of MaxSpeed at or below which an agent is at rest
	heldOffMargin = 0.5  // cells beyond its radius from its goal that are not "at the goal"
	heldOffGap    = 0.25 // cells between two discs that count as touching (settleGap)
)

// heldOffCheck holds what CauseHeldOffGoal's check reads besides the agent's own
// components: the frame's Neighbours, the IDs of Progress and Kinematics, and a
// buffer for the hash's answers (reused: no allocation in steady state).
type heldOffCheck struct {
	nb     *Neighbours
	progID arche.ID
	kinID  arche.ID
	posID  arche.ID
	ffID   arche.ID // FlowFollower's (flowBlocked)
	// flowLast: a flow follower whose run began at a progress check numbered
	// over it has made no progress for less than BlockedSpan (flowLastCheck);
	// 0: none has been so long
	flowLast uint32
	ids      []int32

	dist, gap, sep, advice float64 // the last agent found held off: its note's values
	flow                   bool    // the last agent found blocked is a flow follower (flowBlocked)
}

// note is the note of the last agent heldOff found held off.
func (h *heldOffCheck) note() exampleNote {
	return exampleNote{kind: noteHeldOff, pos: r2.Vec{X: h.dist, Y: h.gap}, more: r2.Vec{X: h.sep, Y: h.advice}}
}

// heldOff tells whether agent e at pos, moving at vel, with Kinematics kin and
// SteeringWeights wt, sent to goal and not settled, is held off it by separation
// (CauseHeldOffGoal), keeping its note's values: cheap tests first, so that only agents at rest,
// far from their goal and found stuck look at their neighbours.
func (h *heldOffCheck) heldOff(w *arche.World, e arche.Entity, pos, vel, goal r2.Vec, kin *components.Kinematics,
	wt *components.SteeringWeights) bool {
	sep := wt.SeparationRadius
	if h.nb == nil || h.nb.Hash == nil || !(wt.Separation > 0 && sep > 0) || math.IsInf(sep, 1) || !goodKinematics(kin) ||
		!finiteVec(pos) || !finiteVec(goal) || !finiteVec(vel) {
		return false
	}
	slow := heldOffSlow * kin.MaxSpeed
	if norm2(vel) > slow*slow {
		return false
	}
	dist := math.Sqrt(dist2(pos, goal))
	if !(dist > kin.Radius+heldOffMargin) {
		return false
	}
	if !w.Has(e, h.progID) || !(*components.Progress)(w.Get(e, h.progID)).Stuck {
		return false
	}
	self := h.nb.ID(e)
	if self < 0 {
		return false
	}
	h.ids = h.nb.Hash.Query(pos, sep, h.ids[:0])
	gap, advice := math.Inf(1), math.Inf(1)
	resting := false
	for _, k := range h.ids {
		if k == self || int(k) >= len(h.nb.Entities) {
			continue
		}
		o := h.nb.Entities[k]
		if !w.Alive(o) {
			continue // removed since Spatial ran
		}
		p := h.nb.Positions[k]
		if w.Has(o, h.posID) { // where it stands now (the hash holds where it stood when the frame began)
			p = (*components.Position)(w.Get(o, h.posID)).Vec
		}
		n := math.Sqrt(dist2(pos, p))
		if !(n < sep) {
			continue
		}
		rk, top := 0.0, kin.MaxSpeed
		if w.Has(o, h.kinID) {
			ok := (*components.Kinematics)(w.Get(o, h.kinID))
			if goodKinematics(ok) {
				rk, top = ok.Radius, ok.MaxSpeed
			}
		}
		g := n - kin.Radius - rk
		if !(g > heldOffGap) {
			return false // a disc touches it: a crowd, not separation's reach
		}
		gap = min(gap, g)
		if v := h.nb.Velocities[k]; norm2(v) <= heldOffSlow*top*heldOffSlow*top {
			resting = true
			advice = min(advice, kin.Radius+rk+heldOffGap)
		}
	}
	if !resting {
		return false
	}
	h.dist, h.gap, h.sep, h.advice = dist, gap, sep, advice
	return true
}

// appendHeldOff writes CauseHeldOffGoal's note n (pos: the distance to the goal and
// the nearest gap, more: the SeparationRadius and the one advised).
func appendHeldOff(b *strings.Builder, n *exampleNote) {
	b.WriteString(", ")
	b.WriteString(strconv.FormatFloat(n.pos.X, 'g', 6, 64))
	b.WriteString(" cells from its goal and at rest: its SeparationRadius ")
	b.WriteString(strconv.FormatFloat(n.more.X, 'g', 6, 64))
	b.WriteString(" reaches agents at rest whose discs are ")
	b.WriteString(strconv.FormatFloat(n.pos.Y, 'g', 6, 64))
	b.WriteString(" cells or more from its own (the nearest), so separation holds it off; set SteeringWeights.SeparationRadius " +
		"(Motion.SeparationRadius in its spawner's Mover, Wanderer or FlowFollower bundle) to at most ")
	b.WriteString(strconv.FormatFloat(n.more.Y, 'g', 6, 64))
	b.WriteString(" (its radius plus the neighbour's plus 0.25), or send it to a free spot")
}

// unreachable reports whether path (nil: none) found no route (PathUnreachable): such an
// agent stands short of its goal whatever its separation, and is counted as
// CausePathUnreachable or CausePathGoalNarrow, not CauseHeldOffGoal.
func unreachable(path *components.Path) bool {
	return path != nil && path.State == components.PathUnreachable
}

// waitsForPath reports whether the agent waits for the queue's answer (Path.State
// PathPending): meanwhile it seeks its goal straight, into any wall on the way,
// so standing beside others is no sign they are in its way (a long wait is
// Report.PathsWaitingLong's).
func waitsForPath(path *components.Path) bool {
	return path != nil && path.State == components.PathPending
}
