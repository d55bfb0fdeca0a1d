package systems

import (
	"strconv"
	"strings"

	"github.com/archai-go/archai/ai/utility"
)

// nanInputNote is the note of CauseUtilityInputNaN for State s, held by the
// UtilityBrain (in "") or at the component field in ("Fighter.Attack").
func nanInputNote(in string, s *utility.State) exampleNote {
	return exampleNote{kind: noteNaNInput, what: in, reasoner: s.Reasoner(), w: s.NaNInput, n: s.NaNInputs}
}

// appendNaNInput writes the note of CauseUtilityInputNaN n (noteNaNInput): where the
// State is, the reasoner, action and consideration whose Input returned NaN, and the
// fix.
func appendNaNInput(b *strings.Builder, n *exampleNote) {
	b.WriteString(", ")
	if n.what != "" {
		b.WriteString("its utility.State ")
		b.WriteString(n.what)
		b.WriteString(": ")
	}
	rs := n.reasoner
	a, c, ok := -1, -1, false
	if rs != nil {
		a, c, ok = rs.Locate(n.w)
	}
	if ok {
		act, _ := rs.Action(a)
		b.WriteString("reasoner ")
		b.WriteString(strconv.Quote(rs.Name()))
		b.WriteString(", action ")
		b.WriteString(strconv.Quote(act.Name))
		b.WriteString(", consideration ")
		b.WriteString(strconv.Quote(act.Considerations[c].Name))
		b.WriteString(": its Input returned NaN at the last decision")
	} else {
		b.WriteString("a consideration's Input returned NaN at the last decision")
	}
	if n.n > 1 {
		b.WriteString(" (")
		b.WriteString(strconv.FormatUint(uint64(n.n), 10))
		b.WriteString(" NaN inputs, utility.State.NaNInputs)")
	}
	if ok && vetoes(rs, a, c) {
		b.WriteString(", which scores 0 and so vetoes the action")
	} else if ok {
		b.WriteString(", which scores 0 in the action's weighted mean")
	} else {
		b.WriteString(", which scores 0 (a veto in a product)")
	}
	b.WriteString(": a division 0/0 (an empty store, no people), a NaN field or math.Log of a negative? " +
		"Make the Input return a number in that case (if s.People == 0 { return 0 }), or, to veto on purpose, " +
		"a value its Range and Curve score 0")
}

// vetoes reports whether a zero score of consideration c of action a of rs vetoes the
// action: in a product, or with Veto in a WeightedSum.
func vetoes(rs *utility.Reasoner, a, c int) bool {
	act, _ := rs.Action(a)
	return act.Combine != utility.WeightedSum || act.Considerations[c].Veto
}
