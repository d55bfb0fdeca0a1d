package systems

import (
	"math"
	"strconv"
	"strings"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// flipChecks counts under CauseUtilityFlipFlop the UtilityBrains whose choice is
// flip-flopping at simulation time now (utility.State.FlipFlopping; NaN without a
// clock: each State at its last decision). The note names the two actions of the
// last flip-flop, the count since the State was made and the reasoner's
// Policy.Hysteresis.
func flipChecks(w *arche.World, r *Report, f *generic.Filter4[components.UtilityBrain, components.Think, components.Position, components.Intent], now float64) {
	q := f.Query(w)
	for q.Next() {
		b, _, _, _ := q.Get()
		if b.Reasoner == nil || !b.State.FlipFlopping(now) {
			continue
		}
		rs := b.Reasoner
		r.addNote(CauseUtilityFlipFlop, q.Entity(), exampleNote{kind: noteFlips,
			what: rs.ActionName(b.State.FlipActions[0]), then: rs.ActionName(b.State.FlipActions[1]),
			pos: r2.Vec{X: rs.Policy().Hysteresis, Y: float64(b.State.FlipFlops)}})
	}
}

// clockTime returns the Time of w's *ecs.Clock resource, or NaN without one.
func clockTime(w *arche.World) float64 {
	if c := ecs.Resource[ecs.Clock](w); c != nil {
		return c.Time
	}
	return math.NaN()
}

// appendFlips writes the note of CauseUtilityFlipFlop n (noteFlips). The advice
// depends on the reasoner's hysteresis: with none, set one; with one already, it was
// not enough: raise it, or, for an action whose score jumps between 0 and its weight
// at a threshold (a veto, which no hysteresis factor holds), grade the consideration.
func appendFlips(b *strings.Builder, n *exampleNote) {
	b.WriteString(", its choice went back and forth between ")
	b.WriteString(strconv.Quote(n.what))
	b.WriteString(" and ")
	b.WriteString(strconv.Quote(n.then))
	b.WriteString(" (")
	b.WriteString(strconv.FormatFloat(n.pos.Y, 'f', 0, 64))
	if n.pos.Y == 1 {
		b.WriteString(" flip-flop")
	} else {
		b.WriteString(" flip-flops")
	}
	b.WriteString(", utility.State.FlipFlops) under Policy.Hysteresis ")
	b.WriteString(strconv.FormatFloat(n.pos.X, 'g', -1, 64))
	if !(n.pos.X > 0) {
		b.WriteString(": their scores cross and cross again; give the reasoner a hysteresis " +
			"(utility.Policy{}.WithHysteresis(0.15): a challenger must beat the current choice by 15%)")
		return
	}
	b.WriteString(": their scores cross and cross again by more than that hysteresis holds; raise it, " +
		"or, if a consideration jumps between 0 and 1 at a threshold (a range check, a flag: a vetoed " +
		"choice is never held, whatever the hysteresis), give it a graded curve or a margin of its own")
}

// noRandChecks counts under CauseUtilityNoRand the UtilityBrains whose reasoner picks
// at random (Softmax above temperature 0, TopN) on an agent without a Rand (randID):
// Utility then picks like Argmax. The note names the reasoner and its policy.
func noRandChecks(w *arche.World, r *Report, f *generic.Filter4[components.UtilityBrain, components.Think, components.Position, components.Intent], randID arche.ID) {
	q := f.Query(w)
	for q.Next() {
		b, _, _, _ := q.Get()
		if b.Reasoner == nil || !randomPolicy(b.Reasoner.Policy()) || w.Has(q.Entity(), randID) {
			continue
		}
		r.addNote(CauseUtilityNoRand, q.Entity(), exampleNote{kind: noteNoRand,
			what: b.Reasoner.Name(), then: b.Reasoner.Policy().Kind.String()})
	}
}

// appendNoRand writes the note of CauseUtilityNoRand n (noteNoRand).
func appendNoRand(b *strings.Builder, n *exampleNote) {
	b.WriteString(", reasoner ")
	b.WriteString(strconv.Quote(n.what))
	b.WriteString(" has a ")
	b.WriteString(n.then)
	b.WriteString(" policy, but without a components.Rand Utility picks like Argmax (give the agent a Rand)")
}

// randomPolicy reports whether p draws from a random source: Softmax above
// temperature 0, or TopN.
func randomPolicy(p utility.Policy) bool {
	return p.Kind == utility.TopN || p.Kind == utility.Softmax && p.Temperature > 0
}
