package systems

import (
	"math/bits"

	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
)

// The order of the systems in a frame is the order of their Initialize calls:
// ecs.Scheduler and arche-model's model initialize and update their systems in
// the order they were added. [Diagnose] compares the places of the live archai
// systems (initialized and not finalized) with the documented order (see the
// package doc) in two ways:
//
//   - Perception after a decision system: [CausePerceptionAfterDecision], per agent
//     (an agent of that system with a Perception never perceives).
//   - The orders that work a frame late: [Report.Order], one finding.
//
// Initialize does not refuse these orders (it does refuse an ORCA outside Steer and
// Movement, and a PathJoin after a system that reads a Path): a Perception after
// the Decision system still serves the agents of a Utility system placed after it,
// and the program's own agents; an order a frame late still works.

// decisionSystems are the systems that tick agents whose Think is due and then
// advance their Think.Next.
const decisionSystems = sysDecision | sysUtility | sysFSM | sysHTN | sysGOAP

// perceptionLateNote is CausePerceptionAfterDecision's note for the decision
// system of bit index i.
func perceptionLateNote(i int) string {
	const fix = " runs before systems.Perception: put Perception before the decision systems (after Spatial)"
	switch systemSet(1) << i {
	case sysDecision:
		return "systems.Decision" + fix
	case sysUtility:
		return "systems.Utility" + fix
	case sysFSM:
		return "systems.FSM" + fix
	case sysHTN:
		return "systems.HTN" + fix
	case sysGOAP:
		return "systems.GOAP" + fix
	}
	return ""
}

// perceptionLate returns the decision systems live in w that run before its live
// Perception system (0 if none, or no Perception is live).
func (r *installed) perceptionLate() systemSet {
	pi := bitIndex(sysPerception)
	if r == nil || r.live[pi] == 0 {
		return 0
	}
	var late systemSet
	for i := range numSystems {
		if decisionSystems&(1<<i) != 0 && r.live[i] > 0 && r.at[i] < r.at[pi] {
			late |= 1 << i
		}
	}
	return late
}

// decided reports whether a decision system initialized in the world (Decision,
// Utility, FSM, HTN, GOAP; the last of each, and not finalized) has run an Update
// since its Initialize: its brains have been offered their first think. Diagnose
// reads it with the Clock's Started for Report.Unthought, since a clock the
// program steps by hand, without an ecs.ClockSystem, is never Started.
func (r *installed) decided() bool {
	if r == nil {
		return false
	}
	return r.decision != nil && r.decision.due.ran() || r.utility != nil && r.utility.due.ran() ||
		r.fsm != nil && r.fsm.due.ran() || r.htnSys != nil && r.htnSys.run.due.ran() ||
		r.goapSys != nil && r.goapSys.run.due.ran()
}

// ran reports whether t is live (initialized, not finalized) and has run an
// Update since its init.
func (t *thinkers[B]) ran() bool { return t.filter != nil && !t.finalized && t.runs > 0 }

// decisionIDs are the component IDs of the decision components in a world, by
// the bit index of the system that runs them (-1: none).
type decisionIDs [numSystems]arche.ID

func (ids *decisionIDs) init(w *arche.World) {
	ids[bitIndex(sysDecision)] = arche.ComponentID[components.Brain](w)
	ids[bitIndex(sysUtility)] = arche.ComponentID[components.UtilityBrain](w)
	ids[bitIndex(sysFSM)] = arche.ComponentID[components.StateMachine](w)
	ids[bitIndex(sysHTN)] = arche.ComponentID[components.HTNPlanner](w)
	ids[bitIndex(sysGOAP)] = arche.ComponentID[components.GOAPPlanner](w)
}

// lateDecider returns the bit index of the first system of late (decision
// systems) whose decision component e has, and false if it has none.
func (ids *decisionIDs) lateDecider(w *arche.World, e arche.Entity, late systemSet) (int, bool) {
	for i := range numSystems {
		if late&(1<<i) != 0 && w.Has(e, ids[i]) {
			return i, true
		}
	}
	return 0, false
}

// orderPair is two archai systems where then reads, in the same frame, what first
// writes: then placed before first works on the last frame's results.
type orderPair struct {
	first, then systemSet
	late        string // "then before first", the finding
}

// orderPairs are the pairs [Report.Order] checks (see orderPairsOf).
var orderPairs = orderPairsOf()

// orderPairsOf lists the pairs of systems that must keep the documented order
// not to work a frame late:
//
//   - LOD before Perception and each decision system (Think.Interval and Frozen);
//   - each decision system before Combat (Intent.Attack) and before PathFollow
//     (Intent: the agent starts to move, or turns, a frame late);
//   - FlowField before PathFollow (the FlowFollower's sampled direction);
//   - PathFollow before Steer (Desired);
//   - Steer before Movement (Steering).
//
// PathQueue after PathFollow is not reported: it is as quick (a request PathFollow
// makes in a frame is answered in that frame and followed from the next, as with
// the queue first, which answers it in the next frame before PathFollow) and tells
// the decision systems a frame earlier whether a path was found; only a Path.Want
// that a leaf sets itself waits a frame. Spatial before its readers, and ORCA
// between Steer and Movement, are required at Initialize (it panics).
func orderPairsOf() []orderPair {
	var out []orderPair
	pair := func(first, then systemSet) {
		out = append(out, orderPair{first, then, systemNames[bitIndex(then)] + " before " + systemNames[bitIndex(first)]})
	}
	pair(sysLOD, sysPerception)
	for i := range numSystems {
		if d := systemSet(1) << i; decisionSystems&d != 0 {
			pair(sysLOD, d)
		}
	}
	for i := range numSystems {
		if d := systemSet(1) << i; decisionSystems&d != 0 {
			pair(d, sysCombat)
			pair(d, sysPathFollow)
		}
	}
	pair(sysFlowField, sysPathFollow)
	pair(sysPathFollow, sysSteer)
	pair(sysSteer, sysMovement)
	return out
}

// documentedOrder is the documented order of the systems, for Report's String.
const documentedOrder = "clock, LOD, Spatial, Perception, the decision systems, PathQueue, Combat, " +
	"FlowField, PathFollow, Steer, ORCA, Movement"

// appendOrder appends to dst the findings of orderPairs in w: "movement before
// steer" for each pair whose systems are both live and initialized in the wrong
// order, sorted by the place of the system that runs first (then by the other's).
func appendOrder(r *installed, dst []string) []string {
	if r == nil {
		return dst
	}
	start := len(dst)
	var keys [32][2]int32 // the places of the pairs found (len(orderPairs) < 32)
	for _, p := range orderPairs {
		fi, ti := bitIndex(p.first), bitIndex(p.then)
		if r.live[fi] == 0 || r.live[ti] == 0 || r.at[ti] > r.at[fi] {
			continue
		}
		dst = append(dst, p.late)
		k := len(dst) - 1 - start
		keys[k] = [2]int32{r.at[ti], r.at[fi]}
		for ; k > 0 && (keys[k-1][0] > keys[k][0] || keys[k-1][0] == keys[k][0] && keys[k-1][1] > keys[k][1]); k-- {
			keys[k-1], keys[k] = keys[k], keys[k-1]
			dst[start+k-1], dst[start+k] = dst[start+k], dst[start+k-1]
		}
	}
	return dst
}

// bitIndex is the index of system s (one bit) in systemNames and installed's arrays.
func bitIndex(s systemSet) int { return bits.TrailingZeros16(uint16(s)) }
