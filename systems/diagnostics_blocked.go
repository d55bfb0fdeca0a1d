package systems

import (
	"math"
	"strconv"
	"strings"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// BlockedSpan is how long, in seconds of simulation time, an agent sent to a goal
// must have made no progress (its Progress Stuck since Progress.StuckSince) among
// agents touching it before [Diagnose] counts it under CauseBlockedByAgents: ten of
// PathFollow's StuckTime windows. Measured: 100 agents with ORCA crowding through a
// 1-cell door drain at about 1.5 a second for 40 s, then jam; at 10 s the back of the
// still-draining queue was counted (from 27 s on), at 20 s only the jam (from 41 s on).
const BlockedSpan = 20.0

// blockedDrift is how far, in cells, an agent may have gone from where its run of no
// progress began (Progress.StuckFrom) and still be counted as blocked: one whose every
// StuckTime window moved it less than StuckDistance, but on (the back of a queue at a
// door creeping up), gets somewhere.
const blockedDrift = 1.0

// blockedReach is how far, in cells, blocked measures the passage's width at an agent's
// cell each way (the note says "at least" past it).
const blockedReach = 8

// blockedNeighbourRadius is the widest neighbour's radius, in cells, that blocked looks for
// touching an agent (beside the agent's own radius): a tank's.
const blockedNeighbourRadius = 1.5

// narrowGoal reports whether the agent's goal (its Intent's: a move's Goal, a
// pursuit's Point) is too narrow for its disc (counted as CausePathGoalNarrow
// by motionChecks, which explains its standing short of it). It does not read
// the Path's Goal: that is the zero cell (on the grid's edge, clearance 1)
// while no route is held, as for a wide agent whose goal is in sight, and the
// cell beside a narrow goal where the disc fits (goToFit) while one is.
func narrowGoal(g *grid.Grid, in *components.Intent, kin *components.Kinematics) bool {
	return narrowIntentGoal(g, in, kin)
}

// blocked tells whether agent e at pos with Kinematics kin, sent to goal and not
// settled, has made no progress for BlockedSpan among agents touching it (agents
// sent to within half a cell of its goal not counted: its crowd at the goal)
// (CauseBlockedByAgents), keeping the note's values in h: cheap tests first (its
// Progress), so that only agents stuck that long look at their neighbours.
func (h *heldOffCheck) blocked(w *arche.World, e arche.Entity, pos, goal r2.Vec, kin *components.Kinematics) bool {
	if h.nb == nil || h.nb.Hash == nil || !w.Has(e, h.progID) || !goodKinematics(kin) || !finiteVec(pos) || !finiteVec(goal) {
		return false
	}
	pr := (*components.Progress)(w.Get(e, h.progID))
	if !pr.Stuck || !pr.StuckKnown {
		return false
	}
	span := clockTime(w) - pr.StuckSince
	if !(span >= BlockedSpan) || !(dist2(pos, pr.StuckFrom) < blockedDrift*blockedDrift) {
		return false // not that long, or it crept on (a queue moving up slowly)
	}
	dist := math.Sqrt(dist2(pos, goal))
	if !(dist > kin.Radius+heldOffMargin) {
		return false
	}
	self := h.nb.ID(e)
	if self < 0 {
		return false
	}
	reach := kin.Radius + max(kin.Radius, blockedNeighbourRadius) + heldOffGap // the centres of discs that may touch its own
	h.ids = h.nb.Hash.Query(pos, reach, h.ids[:0])
	touching := 0
	inID := arche.ComponentID[components.Intent](w)
	for _, k := range h.ids {
		o, p, ok := h.other(w, k, self)
		if !ok {
			continue
		}
		if !h.touches(w, o, p, pos, kin.Radius) {
			continue
		}
		if w.Has(o, inID) {
			// one sent to the same goal (within half a cell) is its crowd there, or its queue
			// towards it: waiting its turn, not in its way
			if oi := (*components.Intent)(w.Get(o, inID)); oi.Move && oi.Mode == components.IntentGo && dist2(oi.Goal, goal) <= 0.25 {
				continue
			}
		}
		touching++
	}
	if touching == 0 {
		return false
	}
	h.dist, h.gap, h.sep, h.flow = dist, span, float64(touching), false
	return true
}

// flowLastCheck returns the highest number of a progress check
// (FlowFollower.ProgressCheck) a run without progress may have begun at and be
// BlockedSpan old or more at simulation time now, rounded up (flowBlocked
// checks the span itself); 0 when none can be (now NaN or under BlockedSpan).
// Diagnose calls flowBlocked only for followers whose run began at a check
// from 1 to it, so a swarm flowing costs it a compare per follower.
func flowLastCheck(now float64) uint32 {
	k := math.Floor((now-BlockedSpan)/FlowProgressPeriod) + 1
	if !(k >= 1) {
		return 0
	}
	return uint32(min(k, math.MaxUint32))
}

// flowBlocked tells whether flow follower e at pos with FlowFollower ff and
// Kinematics kin, served by the FlowField fl, following its field (Has, not
// Arrived, Steer), has made no progress along it for BlockedSpan (its run
// since FlowFollower.ProgressCheck, kept by fl), on its way (farther from its
// goal along the field, by its ProgressCost, than the rim of the crowd
// gathering there, FlowField.crowdRim), while the discs of agents in front of
// it (their centres beyond it towards its Aim) touch its own, agents at rest
// at its goal (Arrived, the same Active) not counted (CauseBlockedByAgents).
// It keeps the note's values in h: cheap tests first, so that only followers
// without progress that long look at their neighbours.
func (h *heldOffCheck) flowBlocked(w *arche.World, e arche.Entity, fl *FlowField, pos r2.Vec,
	ff *components.FlowFollower, kin *components.Kinematics) bool {
	g := fl.grid
	if h.nb == nil || h.nb.Hash == nil || g == nil || !ff.Has || ff.Arrived || !ff.Steer || ff.ProgressCheck == 0 ||
		!goodKinematics(kin) || !finiteVec(pos) || !finiteVec(ff.Aim) || !g.InBounds(ff.Active) {
		return false
	}
	span := clockTime(w) - float64(float64(ff.ProgressCheck)*FlowProgressPeriod)
	if !(span >= BlockedSpan) {
		return false
	}
	goal := g.Center(ff.Active)
	dist := math.Sqrt(dist2(pos, goal))
	along := max(dist, float64(ff.ProgressCost)/float64(g.MinCost())/octileStretch-math.Sqrt2/2) // as FlowField measures arrival
	if !(dist > kin.Radius+heldOffMargin) || !(along > fl.crowdRim(ff.Active)) {
		return false
	}
	self := h.nb.ID(e)
	if self < 0 {
		return false
	}
	reach := kin.Radius + max(kin.Radius, blockedNeighbourRadius) + heldOffGap // the centres of discs that may touch its own
	h.ids = h.nb.Hash.Query(pos, reach, h.ids[:0])
	ahead := 0
	for _, k := range h.ids {
		o, p, ok := h.other(w, k, self)
		if !ok {
			continue
		}
		if !aheadOf(pos, ff.Aim, p) {
			continue
		}
		if !h.touches(w, o, p, pos, kin.Radius) {
			continue
		}
		if w.Has(o, h.ffID) {
			if of := (*components.FlowFollower)(w.Get(o, h.ffID)); of.Arrived && of.Has && of.Active == ff.Active {
				continue // at rest at its goal: the crowd it joins
			}
		}
		ahead++
	}
	if ahead == 0 {
		return false
	}
	h.dist, h.gap, h.sep, h.flow = dist, span, float64(ahead), true
	return true
}

// passageWidth is the width, in cells, of the passage at pos's cell: the shorter of its
// row's and its column's runs of passable cells through it, each counted up to
// blockedReach cells each way (capped: 2·blockedReach+1 means "at least").
func passageWidth(g *grid.Grid, pos r2.Vec) int {
	c := g.CellAt(pos)
	run := func(dx, dy int32) int {
		n := 1
		for _, s := range [2]int32{-1, 1} {
			for i := int32(1); i <= blockedReach; i++ {
				if !g.Passable(grid.Cell{X: c.X + s*i*dx, Y: c.Y + s*i*dy}) {
					break
				}
				n++
			}
		}
		return n
	}
	return min(run(1, 0), run(0, 1))
}

// blockedNote is the note of the last agent blocked found blocked (at pos, with Kinematics
// kin; g nil: no passage width): pos holds the seconds without progress (X) and the
// distance to its goal (Y), more the agents touching it (X), the passage's width (Y, 0:
// unknown), w its diameter in hundredths of a cell.
func (h *heldOffCheck) blockedNote(g *grid.Grid, pos r2.Vec, kin *components.Kinematics) exampleNote {
	width := 0
	if g != nil {
		width = passageWidth(g, pos)
	}
	n := exampleNote{kind: noteBlocked, pos: r2.Vec{X: h.gap, Y: h.dist}, more: r2.Vec{X: h.sep, Y: float64(width)},
		w: int(math.Round(200 * kin.Radius))}
	if h.flow {
		n.what = "flow" // flowBlocked's
	}
	return n
}

// appendBlocked writes CauseBlockedByAgents's note n (see blockedNote).
func appendBlocked(b *strings.Builder, n *exampleNote) {
	if n.what == "flow" {
		appendFlowBlocked(b, n)
		return
	}
	diam := float64(n.w) / 100
	appendNoProgress(b, n, ", no progress for ", " touching it")
	width := int(n.more.Y)
	switch {
	case width > 0 && float64(width) < 2*diam:
		b.WriteString(": it stands in a passage ")
		b.WriteString(strconv.Itoa(width))
		if width == 1 {
			b.WriteString(" cell wide, narrower than two diameters (")
		} else {
			b.WriteString(" cells wide, narrower than two diameters (")
		}
		b.WriteString(strconv.FormatFloat(2*diam, 'g', 4, 64))
		b.WriteString("), so agents meeting in it cannot pass each other (a head-on deadlock)")
	default:
		b.WriteString(": other agents are in its way and it in theirs")
	}
	b.WriteString("; make traffic one-way (or a lane each way), widen the passage to at least two diameters, " +
		"give it a waiting behaviour (back off to a siding while Progress.Stuck), or priorities (one side gives way)")
}

// appendNoProgress writes the part CauseBlockedByAgents's notes share: lead, the
// seconds without progress (pos.X), the distance to the goal (pos.Y) and the
// agents (more.X) touching it, then touching.
func appendNoProgress(b *strings.Builder, n *exampleNote, lead, touching string) {
	b.WriteString(lead)
	b.WriteString(strconv.FormatFloat(n.pos.X, 'f', 1, 64))
	b.WriteString(" s, ")
	b.WriteString(strconv.FormatFloat(n.pos.Y, 'g', 4, 64))
	b.WriteString(" cells from its goal, ")
	b.WriteString(strconv.Itoa(int(n.more.X)))
	b.WriteString(" agent")
	if n.more.X != 1 {
		b.WriteString("s")
	}
	b.WriteString(touching)
}

// appendFlowBlocked writes CauseBlockedByAgents's note n of a flow follower
// (flowBlocked's; see blockedNote): more.X counts the agents in front of it.
func appendFlowBlocked(b *strings.Builder, n *exampleNote) {
	diam := float64(n.w) / 100
	appendNoProgress(b, n, ", a flow follower: no progress along its field for ", " in front of it touching it")
	if width := int(n.more.Y); width > 0 && float64(width) < 2*diam {
		b.WriteString(", in a passage ")
		b.WriteString(strconv.Itoa(width))
		if width == 1 {
			b.WriteString(" cell wide (narrower than two diameters, ")
		} else {
			b.WriteString(" cells wide (narrower than two diameters, ")
		}
		b.WriteString(strconv.FormatFloat(2*diam, 'g', 4, 64))
		b.WriteString(")")
	}
	b.WriteString(": the swarm jams on its way (at a gap or in a corridor too narrow for its numbers); " +
		"widen the gap or open another way, split the swarm over goals whose routes differ, or send it in smaller waves")
}

// other is the agent at index k of the Neighbours resource and its position (its
// Position now, or the hash's copy without one); not ok for self, an index past the
// resource or a dead entity.
func (h *heldOffCheck) other(w *arche.World, k, self int32) (o arche.Entity, p r2.Vec, ok bool) {
	if k == self || int(k) >= len(h.nb.Entities) {
		return o, p, false
	}
	if o = h.nb.Entities[k]; !w.Alive(o) {
		return o, p, false
	}
	p = h.nb.Positions[k]
	if w.Has(o, h.posID) {
		p = (*components.Position)(w.Get(o, h.posID)).Vec
	}
	return o, p, true
}

// touches reports whether agent o's disc, at p (its radius from its Kinematics, 0
// without usable ones), comes within heldOffGap of a disc of radius r at pos.
func (h *heldOffCheck) touches(w *arche.World, o arche.Entity, p, pos r2.Vec, r float64) bool {
	rk := 0.0
	if w.Has(o, h.kinID) {
		if ok := (*components.Kinematics)(w.Get(o, h.kinID)); goodKinematics(ok) {
			rk = ok.Radius
		}
	}
	return math.Sqrt(dist2(pos, p))-r-rk <= heldOffGap
}
