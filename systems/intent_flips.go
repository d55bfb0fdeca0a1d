package systems

import (
	"fmt"
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

// intentFlip is the record of one agent's changes back (see intentFlips), read and
// written only at such a change: the times of the last utility.FlipLimit of them in a
// row and the two Intents of the last two, for the flip-flop count and Diagnose's note.
type intentFlip struct {
	e         arche.Entity // the agent (the zero Entity: the record is unused)
	flipFlops uint32       // flip-flops since the record was made (saturating)
	at        uint8        // changes[at] is the last change back's time
	flipTime  float64      // the last flip-flop's simulation time
	changes   [utility.FlipLimit]float64
	keys      [2]intentKey // the Intents of the last two changes back (the older first)
}

// intentFlips counts the changes of the Intent of each agent a decision system runs,
// as [utility.State] counts a reasoner's changes of choice: a change back to the
// Intent the change before it left is a flip, and the utility.FlipLimit-th flip in a
// row (A→B→A→B→A: 4) made within utility.FlipWindow of the first of those is a
// flip-flop. An agent's first think only notes its Intent. What every think reads
// and writes is in the agent's Think (IntentSum, IntentBack, IntentFlips), on the
// line the think's schedule is written to, so a think costs a mark of the Intent
// (a goal that follows a foe changes at every think: 13,000 a frame at 100,000
// guards); only a flip touches the agent's record, by entity ID. Marks of 32 and 16
// bits: a change hidden by equal marks (a chance of 2⁻³² a change) goes uncounted,
// and a change taken for a change back (2⁻¹⁶) counts one flip. Saved: the Think's
// fields with the agent, the records of alive agents with the system's think budget
// ([ThinkCursorState.IntentFlips]), so a loaded world counts on as the unbroken run.
type intentFlips struct {
	recs []intentFlip // by entity ID
}

// markOf is a 32-bit mark of the key of in (see keyOf), read from in without
// building the key: never 0, and equal for two keys with a chance of about 2⁻³².
func markOf(in *components.Intent) uint32 {
	var x, y, t uint64
	mode := uint64(in.Mode)
	switch {
	case in.Mode == components.IntentGo:
		if in.Move {
			x, y, mode = math.Float64bits(in.Goal.X), math.Float64bits(in.Goal.Y), mode|1<<8
		}
	case in.Target.IsZero():
		x, y = math.Float64bits(in.Point.X), math.Float64bits(in.Point.Y)
	default:
		t = uint64(in.Target.ID())<<32 | uint64(in.Target.Generation())
	}
	h := (x^mode)*0x9e3779b97f4a7c15 ^ y*0xc2b2ae3d27d4eb4f ^ t*0x165667b19e3779f9
	return (uint32(h>>32) ^ uint32(h>>7)) | 1
}

// backOf is the 16-bit mark kept of the Intent a change left, from its 32-bit mark m.
func backOf(m uint32) uint16 { return uint16(m>>16) | 1 }

// grow makes room for the records of entity IDs up to id (before the workers run:
// they index them concurrently, each its own agents).
func (f *intentFlips) grow(id uint32) {
	if int(id) < len(f.recs) {
		return
	}
	recs := make([]intentFlip, max(int(id)+1, 2*len(f.recs), 64))
	copy(recs, f.recs)
	f.recs = recs
}

// observe counts the Intent in of agent e, whose Think is th, after its think at
// simulation time now, when its mark m (markOf) differs from the last.
//
// Most thinks keep the Intent: the caller compares the mark first, so that path
// costs markOf alone (thinkers.thought).
func (f *intentFlips) observe(e arche.Entity, th *components.Think, in *components.Intent, m uint32, now float64) {
	switch {
	case th.IntentSum == 0: // its first think, or a Think written since
		th.IntentSum, th.IntentBack, th.IntentFlips = m, 0, 0
		return
	case backOf(m) == th.IntentBack:
		th.IntentFlips = min(th.IntentFlips+1, utility.FlipLimit)
		f.flip(e, keyOf(in), th.IntentFlips, now)
	default:
		th.IntentFlips = 0
	}
	th.IntentBack, th.IntentSum = backOf(th.IntentSum), m
}

// flip records in agent e's record a change back to key k at now, the n-th in a row,
// and counts a flip-flop.
func (f *intentFlips) flip(e arche.Entity, k intentKey, n uint8, now float64) {
	r := &f.recs[e.ID()]
	if r.e != e {
		*r = intentFlip{e: e}
	}
	if n == 1 { // a new run
		for i := range r.changes {
			r.changes[i] = math.Inf(-1)
		}
	}
	l := uint8(len(r.changes))
	r.at = (r.at + 1) % l
	r.changes[r.at] = now
	r.keys[0], r.keys[1] = r.keys[1], k
	// the ring's next slot holds the change back FlipLimit−1 before this one
	if n >= utility.FlipLimit && now-r.changes[(r.at+1)%l] <= utility.FlipWindow {
		if r.flipFlops < math.MaxUint32 {
			r.flipFlops++
		}
		r.flipTime = now
	}
}

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
			keys: rec.keys, n: rec.flipFlops})
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
	b.WriteString(" system ran its brain: ")
	if targetsInTurn(n.keys) {
		b.WriteString("a target picked anew at each decision (the nearest foe: Perception.Target with a zero " +
			"TargetMargin) that alternates between two at about the same distance; keep the current target while " +
			"it stays in sight and switch only to one nearer by a margin: give the Perception a TargetMargin " +
			"(1 cell, the Combatant bundle's default), or hold the target in a blackboard key or a component " +
			"of your own")
		return
	}
	switch n.what {
	case "Utility":
		b.WriteString("an action whose Act sets the Intent from a condition its own work undoes (food while hunger > 70, " +
			"dropped as eating lowers it), or two actions whose scores cross as the agent acts; give the reasoner a " +
			"selection hysteresis (utility.Policy{}.WithHysteresis(0.15): a challenger must beat the current choice " +
			"by that margin), and keep an Act on until a second threshold (start above one, keep on until below another)")
	case "FSM":
		b.WriteString("a transition whose guard the state's own work undoes, and the way back on the same threshold " +
			"(e.g. Eat when hunger > 70, back to Sleep when hunger <= 70): guard the pair with two thresholds, so the " +
			"transition back is taken only past a margin (enter above 70, leave only below 30), or leave the state " +
			"once its work is done")
	case "HTN", "GOAP":
		b.WriteString("a plan that its own work undoes: the running task changes a fact the plan was chosen on " +
			"(hunger > 70, lowered by eating), the planner replans for the other plan, and back; have the domain's " +
			"Sense write such a fact with two thresholds (set above one value, cleared only below another), or let " +
			"the task's own effect end the plan")
	default: // Decision: a behavior tree
		b.WriteString("a condition that its own action undoes (bt.ReactiveSequence guarded by " +
			"hunger > 70 over an Eat that lowers hunger) gives up the action as soon as it works; guard it with two " +
			"thresholds (start above one, keep on until below another: a blackboard flag the action clears), or let the " +
			"action finish once begun (bt.Sequence)")
	}
	if n.keys[0].mode == components.IntentGo || n.keys[1].mode == components.IntentGo {
		b.WriteString("; or an action that counts its goal reached within 1 cell, which separation pushes out past " +
			"1 cell so that it sets off again: give arrival a tolerance larger than the push (e.g. 1.5 cells to " +
			"leave, 1 to arrive)")
	}
}

// targetsInTurn reports whether the two Intents of keys ask for the same flee, pursue
// or evade of two different target entities: a choice of target, not of action.
func targetsInTurn(keys [2]intentKey) bool {
	k, l := keys[0], keys[1]
	return k.mode != components.IntentGo && k.mode == l.mode &&
		!k.target.IsZero() && !l.target.IsZero() && k.target != l.target
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

// IntentFlipState is one agent's record of the changes back of its Intent, which a
// decision system keeps for [Diagnose]'s intent_flip_flop and saves with its think
// budget's state ([ThinkCursorState]), so that a loaded run reports the flip-flops the
// unbroken one would: the agent, its flip-flops since the record was made, the times
// of its last utility.FlipLimit changes back in a row (a ring: Changes[At] is the
// last; float64 bits, math.Float64bits, a slot not yet written holding −Inf's), the
// last flip-flop's time (float64 bits) and the Intents of its last two changes back.
type IntentFlipState struct {
	Entity    arche.Entity              `json:"entity"`
	FlipFlops uint32                    `json:"flip_flops,omitempty"`
	At        uint8                     `json:"at,omitempty"`
	FlipTime  uint64                    `json:"flip_time,omitempty"`
	Changes   [utility.FlipLimit]uint64 `json:"changes"`
	Keys      [2]IntentKeyState         `json:"keys"`
}

// IntentKeyState is an Intent as an [IntentFlipState] records it: its mode, for
// IntentGo whether it moves, its Target, and the bits (math.Float64bits) of the point
// it goes to (Goal, or Point for a mode without a Target; 0, 0 when none is read).
type IntentKeyState struct {
	Mode   components.IntentMode `json:"mode,omitempty"`
	Move   bool                  `json:"move,omitempty"`
	Target arche.Entity          `json:"target"`
	Point  [2]uint64             `json:"point"`
}

// state returns the records of f of agents alive in w, by entity ID (nil: none).
func (f *intentFlips) state(w *arche.World) []IntentFlipState {
	var out []IntentFlipState
	for i := range f.recs {
		r := &f.recs[i]
		if r.e.IsZero() || w == nil || !inPool(w, r.e) || !w.Alive(r.e) {
			continue
		}
		st := IntentFlipState{Entity: r.e, FlipFlops: r.flipFlops, At: r.at, FlipTime: math.Float64bits(r.flipTime)}
		for j, c := range r.changes {
			st.Changes[j] = math.Float64bits(c)
		}
		for j, k := range r.keys {
			st.Keys[j] = IntentKeyState{Mode: k.mode, Move: k.move, Target: k.target, Point: k.p}
		}
		out = append(out, st)
	}
	return out
}

// load replaces f's records by those of sts, saved by state for world w. It returns an
// error wrapping ErrOutOfDomain, leaving f as it was, for a record of the zero entity,
// of an entity past w's pool, of one ID twice, or a ring index At past the ring's.
func (f *intentFlips) load(w *arche.World, sts []IntentFlipState) error {
	top := uint32(0)
	for i, st := range sts {
		switch {
		case st.Entity.IsZero() || w == nil || !inPool(w, st.Entity):
			return fmt.Errorf("intent_flips[%d]: entity %v: not one of the world's: %w", i, st.Entity, ErrOutOfDomain)
		case int(st.At) >= utility.FlipLimit:
			return fmt.Errorf("intent_flips[%d]: at %d: want 0 to %d: %w", i, st.At, utility.FlipLimit-1, ErrOutOfDomain)
		}
		top = max(top, st.Entity.ID())
	}
	if len(sts) == 0 {
		clear(f.recs)
		return nil
	}
	recs := make([]intentFlip, max(int(top)+1, len(f.recs)))
	for i, st := range sts {
		r := &recs[st.Entity.ID()]
		if !r.e.IsZero() {
			return fmt.Errorf("intent_flips[%d]: entity ID %d twice: %w", i, st.Entity.ID(), ErrOutOfDomain)
		}
		*r = intentFlip{e: st.Entity, flipFlops: st.FlipFlops, at: st.At, flipTime: math.Float64frombits(st.FlipTime)}
		for j, c := range st.Changes {
			r.changes[j] = math.Float64frombits(c)
		}
		for j, k := range st.Keys {
			r.keys[j] = intentKey{mode: k.Mode, move: k.Move, target: k.Target, p: k.Point}
		}
	}
	f.recs = recs
	return nil
}
