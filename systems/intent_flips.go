package systems

import (
	"math"
	"strconv"
	"strings"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// intentKey is what an Intent asks the movement pipeline for, in a form compared
// exactly (floats by their bits): the mode, and for IntentGo whether it moves and
// where, for the other modes the Target, or the Point when the Target is the zero
// Entity. Two Intents that move the agent alike have one key: the Goal of an
// Intent that does not Move is not read, nor are SpeedFactor and Attack.
type intentKey struct {
	mode   components.IntentMode
	move   bool
	target arche.Entity
	p      [2]uint64 // the point's bits (Goal or Point); 0, 0 when none is read
}

// keyOf returns in's key.
func keyOf(in *components.Intent) intentKey {
	k := intentKey{mode: in.Mode}
	switch {
	case in.Mode == components.IntentGo:
		if k.move = in.Move; k.move {
			k.p = [2]uint64{math.Float64bits(in.Goal.X), math.Float64bits(in.Goal.Y)}
		}
	case in.Target.IsZero():
		k.p = [2]uint64{math.Float64bits(in.Point.X), math.Float64bits(in.Point.Y)}
	default:
		k.target = in.Target
	}
	return k
}

// point returns the key's point (Goal or Point).
func (k intentKey) point() r2.Vec {
	return r2.Vec{X: math.Float64frombits(k.p[0]), Y: math.Float64frombits(k.p[1])}
}

// intentFlip is one agent's count of the changes of its Intent that its brain made,
// kept by the decision system that runs it. It is [utility.State]'s count of changes
// of choice (Flips, FlipFlops) applied to the Intent's key: a change back to the key
// the change before it left, within utility.FlipWindow of it, is a flip, and a change
// that brings the flips in a row to utility.FlipLimit, within FlipWindow of the change
// FlipLimit changes before it, is a flip-flop. 128 bytes, read only at a change.
type intentFlip struct {
	e         arche.Entity // the agent (the zero Entity: the record is unused)
	cur       intentKey    // the Intent after its last think
	flips     uint16       // flips in a row, up to utility.FlipLimit
	at        uint8        // changes[at] is the last change's time
	flipFlops uint32       // flip-flops since the record was made (saturating)
	left      intentKey    // the key the last change left
	flipTime  float64      // the last flip-flop's simulation time
	changes   [utility.FlipLimit + 1]float64
}

// intentFlips are the records of the agents a decision system runs, by entity ID.
// A record is made at an agent's first think (its Intent then is no change) and
// made afresh for a new entity of the same ID. Not saved: a loaded world counts from
// its next thinks, as utility.State's flips do. A think that changes nothing reads
// only the agent's word of sums (8 bytes, where a record is 128: at 100,000 guards
// the records' lines cost Decision a third more time).
type intentFlips struct {
	sums []uint64 // by entity ID: sumOf the agent and its Intent's key at its last think (0: none yet)
	recs []intentFlip
}

// sumOf is a word that stands for key k in its agent's slot: 0 for none, and
// two keys share one with a chance of about 2⁻⁶⁴ for keys alike in all but a bit or
// two (a shared one would hide one change from the count). An entity that reuses
// an ID with its predecessor's sum is found at its first change (the record names
// another entity) and starts its count there.
func sumOf(k intentKey) uint64 {
	h := k.p[0]*0x9e3779b97f4a7c15 ^ k.p[1]*0xc2b2ae3d27d4eb4f ^
		(uint64(k.target.ID())<<32|uint64(k.target.Generation()))*0x165667b19e3779f9 ^
		uint64(k.mode)<<1 ^ uint64(boolBit(k.move))<<9
	return mix64(h) | 1
}

// boolBit is 1 for true, 0 for false.
func boolBit(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// grow makes room for the records of entity IDs up to id (before the workers run:
// they index recs concurrently, each its own agents).
func (f *intentFlips) grow(id uint32) {
	if int(id) < len(f.recs) {
		return
	}
	n := max(int(id)+1, 2*len(f.recs), 64)
	recs, sums := make([]intentFlip, n), make([]uint64, n)
	copy(recs, f.recs)
	copy(sums, f.sums)
	f.recs, f.sums = recs, sums
}

// observe counts the Intent in of agent e after its think at simulation time now.
// A think that changes nothing reads one word and writes nothing. (A run of flips
// ended by a think FlipWindow after the last change without a change ends at the
// next change instead, which finds the last change FlipWindow old: the same count.)
func (f *intentFlips) observe(e arche.Entity, in *components.Intent, now float64) {
	k := keyOf(in)
	sum := sumOf(k)
	if f.sums[e.ID()] == sum {
		return
	}
	f.sums[e.ID()] = sum
	r := &f.recs[e.ID()]
	if r.e != e {
		*r = intentFlip{e: e, cur: k}
		for i := range r.changes {
			r.changes[i] = math.Inf(-1)
		}
		return
	}
	if k == r.cur { // a sum shared by chance
		return
	}
	if k == r.left && recentChange(r.changes[r.at], now) {
		r.flips = min(r.flips+1, utility.FlipLimit)
	} else {
		r.flips = 0
	}
	r.left, r.cur = r.cur, k
	r.at = (r.at + 1) % uint8(len(r.changes))
	r.changes[r.at] = now
	// the ring's next slot holds the change FlipLimit changes before this one
	if first := r.changes[(r.at+1)%uint8(len(r.changes))]; r.flips >= utility.FlipLimit && now-first <= utility.FlipWindow {
		if r.flipFlops < math.MaxUint32 {
			r.flipFlops++
		}
		r.flipTime = now
	}
}

// recentChange reports whether a change at last is within utility.FlipWindow
// before now (false for a NaN now, or a clock set back).
func recentChange(last, now float64) bool { return now >= last && now-last <= utility.FlipWindow }

// flipping reports whether r made a flip-flop within utility.FlipWindow before now.
func (r *intentFlip) flipping(now float64) bool {
	if r.flipFlops == 0 {
		return false
	}
	d := now - r.flipTime
	return d >= 0 && d <= utility.FlipWindow
}

// maxDueID returns the largest entity ID among this frame's due agents (0 for none).
func (t *thinkers[B]) maxDueID() uint32 {
	id := uint32(0)
	for _, i := range t.due {
		id = max(id, t.cols.ents[i].ID())
	}
	return id
}

// intentChecks runs intentChecks over each live decision system of in (nil: none
// initialized) at the world clock's time (nothing without a clock).
func (d *diagnoser) intentChecks(w *arche.World, r *Report, in *installed) {
	now := clockTime(w)
	if in == nil || math.IsNaN(now) {
		return
	}
	var ids decisionIDs
	ids.init(w)
	util := ids[bitIndex(sysUtility)]
	if s := in.decision; s != nil && s.due.filter != nil && !s.due.finalized {
		intentChecks(w, r, &s.due.flips, now, "Decision", ids[bitIndex(sysDecision)], util)
	}
	if s := in.utility; s != nil && s.due.filter != nil && !s.due.finalized {
		intentChecks(w, r, &s.due.flips, now, "Utility", util, util)
	}
	if s := in.fsm; s != nil && s.due.filter != nil && !s.due.finalized {
		intentChecks(w, r, &s.due.flips, now, "FSM", ids[bitIndex(sysFSM)], util)
	}
	if s := in.htnSys; s != nil && s.run.due.filter != nil && !s.run.due.finalized {
		intentChecks(w, r, &s.run.due.flips, now, "HTN", ids[bitIndex(sysHTN)], util)
	}
	if s := in.goapSys; s != nil && s.run.due.filter != nil && !s.run.due.finalized {
		intentChecks(w, r, &s.run.due.flips, now, "GOAP", ids[bitIndex(sysGOAP)], util)
	}
}

// intentChecks counts under CauseIntentFlipFlop the agents of the decision system
// called sys whose Intent is flip-flopping at now (see intentFlip), alive and still
// run by it (a decision component of its kind: has), but not those already counted
// under CauseUtilityFlipFlop (their choice is the reason, and its note is the
// better one).
func intentChecks(w *arche.World, r *Report, f *intentFlips, now float64, sys string, has arche.ID, util arche.ID) {
	for i := range f.recs {
		rec := &f.recs[i]
		if rec.e.IsZero() || !rec.flipping(now) || !w.Alive(rec.e) || !w.Has(rec.e, has) {
			continue
		}
		if w.Has(rec.e, util) {
			if b := (*components.UtilityBrain)(w.Get(rec.e, util)); b.Reasoner != nil && b.State.FlipFlopping(now) {
				continue
			}
		}
		r.addNote(CauseIntentFlipFlop, rec.e, exampleNote{kind: noteIntentFlips, what: sys,
			keys: [2]intentKey{rec.left, rec.cur}, n: rec.flipFlops})
	}
}

// appendIntentFlips writes the note of CauseIntentFlipFlop n (noteIntentFlips).
func appendIntentFlips(b *strings.Builder, n *exampleNote) {
	b.WriteString(", its Intent went back and forth between ")
	appendIntentKey(b, n.keys[0])
	b.WriteString(" and ")
	appendIntentKey(b, n.keys[1])
	b.WriteString(" (")
	b.WriteString(strconv.FormatUint(uint64(n.n), 10))
	if n.n == 1 {
		b.WriteString(" flip-flop")
	} else {
		b.WriteString(" flip-flops")
	}
	b.WriteString(") as its ")
	b.WriteString(n.what)
	b.WriteString(" system ran its brain: a condition that its own action undoes (bt.ReactiveSequence guarded by " +
		"hunger > 70 over an Eat that lowers hunger) gives up the action as soon as it works; guard it with two " +
		"thresholds (start above one, keep on until below another: a blackboard flag the action clears), or let the " +
		"action finish once begun (bt.Sequence)")
}

// appendIntentKey writes what an Intent of key k asks for: "stand", "goal (x, y)",
// or a mode and its target ("pursue entity 12", "flee point (x, y)").
func appendIntentKey(b *strings.Builder, k intentKey) {
	switch k.mode {
	case components.IntentGo:
		if !k.move {
			b.WriteString("stand")
			return
		}
		b.WriteString("goal ")
	case components.IntentFlee:
		b.WriteString("flee ")
	case components.IntentPursue:
		b.WriteString("pursue ")
	case components.IntentEvade:
		b.WriteString("evade ")
	default:
		b.WriteString("mode ")
		b.WriteString(strconv.Itoa(int(k.mode)))
		b.WriteString(" ")
	}
	if !k.target.IsZero() {
		b.WriteString("entity ")
		b.WriteString(strconv.FormatUint(uint64(k.target.ID()), 10))
		return
	}
	if k.mode != components.IntentGo {
		b.WriteString("point ")
	}
	p := k.point()
	b.WriteString("(")
	b.WriteString(strconv.FormatFloat(p.X, 'g', 6, 64))
	b.WriteString(", ")
	b.WriteString(strconv.FormatFloat(p.Y, 'g', 6, 64))
	b.WriteString(")")
}
