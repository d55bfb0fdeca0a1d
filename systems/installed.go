package systems

import (
	"math/bits"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
)

// installed records which of archai's systems were initialized in a world, so that
// [Diagnose] can report agents whose components no system serves (a Path without a
// PathQueue, a Brain without a Decision system, ...), and how many of each are
// initialized and not finalized, so that it can report a system installed twice. It
// is a world resource added by the first archai system initialized.
type installed struct {
	systems   systemSet         // initialized at least once
	live      [numSystems]int32 // per system (bit index), Initialize calls less Finalize calls
	at        [numSystems]int32 // per system (bit index), its place in the order of Initialize calls (its last), 0 if never
	inits     int32             // Initialize calls of archai systems in the world, the last at
	pathQueue *PathQueue        // the last PathQueue initialized in the world, for Diagnose's CausePathNotQueued
	fsm       *FSM              // the last FSM initialized in the world, for Diagnose's Report.BadTargets and CauseDecisionStarved
	decision  *Decision         // the last Decision initialized in the world, for Diagnose's CauseDecisionStarved
	utility   *Utility          // the last Utility initialized in the world, for Diagnose's CauseDecisionStarved
	htnSys    *HTN              // the last HTN initialized in the world, for Diagnose's CauseIntentFlipFlop
	goapSys   *GOAP             // the last GOAP initialized in the world, for Diagnose's CauseIntentFlipFlop
	flowField *FlowField        // the last FlowField initialized in the world, for Diagnose's Report.FlowBehind
	combat    *Combat           // the last Combat initialized in the world, for Diagnose's grace of CauseDownedStillActing

	// userCode is the user code a decision system is running on its workers (set
	// by thinkers.runLocked for the pass, the zero userCode otherwise), for
	// SetFlowGoal's refusal to run there
	userCode userCode

	// the world's grid and clock at the last Initialize that found one: the systems
	// hold them until their next Initialize, for Diagnose's Report.Replaced
	grid  *grid.Grid
	clock *ecs.Clock
	htn   *htn.Registry  // with an HTN system live
	goap  *goap.Registry // with a GOAP system live
}

// systemSet is a set of archai systems, one bit each.
type systemSet uint16

const (
	sysDecision systemSet = 1 << iota
	sysUtility
	sysFSM
	sysPerception
	sysPathQueue
	sysFlowField
	sysSteer
	sysMovement
	sysSpatial
	sysPathFollow
	sysORCA
	sysHTN
	sysGOAP
	sysCombat
	sysLOD

	numSystems = 15 // the systems above
)

// systemNames are the systems' Name()s, by bit index.
var systemNames = [numSystems]string{"decision", "utility", "fsm", "perception", "pathqueue", "flowfield",
	"steer", "movement", "spatial", "pathfollow", "orca", "htn", "goap", "combat", "lod"}

// markInstalled records in w that system s was initialized.
func markInstalled(w *arche.World, s systemSet) {
	r := ecs.Resource[installed](w)
	if r == nil {
		r = &installed{}
		arche.AddResource(w, r)
	}
	r.systems |= s
	if g := ecs.Resource[grid.Grid](w); g != nil {
		r.grid = g
	}
	if c := ecs.Resource[ecs.Clock](w); c != nil {
		r.clock = c
	}
	if s&sysHTN != 0 {
		r.htn = ecs.Resource[htn.Registry](w)
	}
	if s&sysGOAP != 0 {
		r.goap = ecs.Resource[goap.Registry](w)
	}
	r.inits++
	for i := range numSystems {
		if s&(1<<i) != 0 {
			r.live[i]++
			r.at[i] = r.inits
		}
	}
}

// mustOrderORCA panics, with a message naming both systems and the order that
// works, when sys (sysORCA or sysSteer, about to be marked installed) is
// initialized in an order of Steer, ORCA and Movement that cannot work: ORCA
// rewrites the Steering force Steer computed, and Movement applies it, so ORCA
// must come after Steer and before Movement. ORCA after Movement (with a Steer
// before it) writes a force that the next frame's Steer overwrites before
// Movement reads it; ORCA before Steer writes one that Steer overwrites at
// once: either way no agent avoids, silently. The counts of live systems (not
// the set initialized once) are compared, so that a schedule left initialized on
// the world (Report.Twice) does not count as this one's: in a schedule of the
// right order, ORCA finds as many live Movements as ORCAs, and Steer as many
// live ORCAs as Steers.
func mustOrderORCA(w *arche.World, sys systemSet) {
	r := ecs.Resource[installed](w)
	if r == nil {
		return
	}
	steer, orca, mov := r.live[bits.TrailingZeros16(uint16(sysSteer))], r.live[bits.TrailingZeros16(uint16(sysORCA))],
		r.live[bits.TrailingZeros16(uint16(sysMovement))]
	switch {
	case sys == sysORCA && mov > orca && steer > orca:
		panic(setupFault("ORCA", ecs.ErrOrder, "systems: ORCA is initialized after Movement: the force it writes is overwritten by the next frame's Steer "+
			"before Movement reads it, so no agent avoids; order the systems Steer, ORCA, Movement"))
	case sys == sysSteer && orca > steer:
		panic(setupFault("Steer", ecs.ErrOrder, "systems: ORCA is initialized before Steer: Steer overwrites the force ORCA writes, so no agent avoids; "+
			"order the systems Steer, ORCA, Movement"))
	}
}

// markFinalized records in w that system s was finalized (see [installed]). The
// systems call it from Finalize.
func markFinalized(w *arche.World, s systemSet) {
	if r := ecs.Resource[installed](w); r != nil {
		i := bits.TrailingZeros16(uint16(s))
		r.live[i] = max(r.live[i]-1, 0)
	}
}

// appendTwice appends to dst the names of the systems initialized in w more than
// once and not finalized since, in schedule order (of their last Initialize).
func appendTwice(w *arche.World, dst []string) []string {
	r := ecs.Resource[installed](w)
	if r == nil {
		return dst
	}
	var twice systemSet
	for i, n := range r.live {
		if n > 1 {
			twice |= 1 << i
		}
	}
	var idx [numSystems]int
	for _, i := range r.inOrder(twice, idx[:0]) {
		dst = append(dst, systemNames[i])
	}
	return dst
}

// inOrder appends to dst the bit indices of the systems of set, in the order of
// their last Initialize (schedule order), and returns it.
func (r *installed) inOrder(set systemSet, dst []int) []int {
	start := len(dst)
	for i := range numSystems {
		if set&(1<<i) == 0 {
			continue
		}
		dst = append(dst, i)
		for k := len(dst) - 1; k > start && r.at[dst[k-1]] > r.at[dst[k]]; k-- { // insertion sort: 15 at most
			dst[k-1], dst[k] = dst[k], dst[k-1]
		}
	}
	return dst
}

// appendReplaced appends to dst the resources that the systems live in w (initialized
// and not finalized) were initialized with and that w no longer holds, removed or
// replaced by another value: "*grid.Grid", "*ecs.Clock", and with an HTN or GOAP
// system live "*htn.Registry" or "*goap.Registry". Combat holds none of them: with
// only Combat live, nothing is reported.
func appendReplaced(w *arche.World, dst []string) []string {
	r := ecs.Resource[installed](w)
	if r == nil {
		return dst
	}
	holders := false // a live system other than Combat
	for i, n := range r.live {
		if n > 0 && systemSet(1)<<i != sysCombat {
			holders = true
		}
	}
	if !holders {
		return dst
	}
	if r.grid != nil && ecs.Resource[grid.Grid](w) != r.grid {
		dst = append(dst, "*grid.Grid")
	}
	if r.clock != nil && ecs.Resource[ecs.Clock](w) != r.clock {
		dst = append(dst, "*ecs.Clock")
	}
	if r.htn != nil && r.live[bits.TrailingZeros16(uint16(sysHTN))] > 0 && ecs.Resource[htn.Registry](w) != r.htn {
		dst = append(dst, "*htn.Registry")
	}
	if r.goap != nil && r.live[bits.TrailingZeros16(uint16(sysGOAP))] > 0 && ecs.Resource[goap.Registry](w) != r.goap {
		dst = append(dst, "*goap.Registry")
	}
	return dst
}

// installedIn returns the set of archai systems initialized in w, and false if none
// was (then nothing can be said about missing ones).
func installedIn(w *arche.World) (systemSet, bool) {
	if r := ecs.Resource[installed](w); r != nil {
		return r.systems, true
	}
	return 0, false
}
