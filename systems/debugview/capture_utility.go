package debugview

import (
	"fmt"
	"math"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
)

// utilSeen is what observeUtility compares: the selected agent's choice at the last frame.
type utilSeen struct {
	valid     bool
	reasoner  *utility.Reasoner
	choice    int
	decisions uint64
}

// observeUtility asks the selected agent's reasoner for the inputs it uses (the
// viewer's Trace in its State) and logs its changes of choice of this frame.
func (v *Viewer) observeUtility(w *arche.World) {
	e := v.selected
	if !w.Has(e, v.ids.util) {
		v.utilSeen = utilSeen{}
		return
	}
	u := (*components.UtilityBrain)(w.Get(e, v.ids.util))
	if u.State.Trace != &v.utilTrace {
		v.untrace(w)
		v.utilTrace.Scorings = 0
		u.State.Trace, v.traceOwner = &v.utilTrace, e
	}
	r := u.Reasoner
	if r == nil {
		v.utilSeen = utilSeen{}
		return
	}
	prev := v.utilSeen
	s := &u.State
	if prev.valid && prev.reasoner == r && prev.choice == s.Choice {
		v.utilSeen.decisions = s.Decisions
		return
	}
	v.utilSeen = utilSeen{valid: true, reasoner: r, choice: s.Choice, decisions: s.Decisions}
	v.appendUtilLog("", prev, utilityOf(u, &v.utilTrace)) // the decision of this frame, whose inputs the Trace recorded
}

// appendUtilLog logs decision d of the utility State at field ("" for the
// UtilityBrain's): a change of choice from prev, or the baseline ("selected")
// if prev was of no decision or of another reasoner.
func (v *Viewer) appendUtilLog(field string, prev utilSeen, d *Utility) {
	now := v.frameTime()
	r := d.reasoner
	t := UtilityTransition{Time: finite(now), Field: field, Kind: "selected", To: r.ActionName(d.Choice), Choice: d.Choice,
		Scores: d.Scores, Held: d.Held, Traced: d.Traced, Options: d.Options}
	if prev.valid && prev.reasoner == r {
		t.Kind, t.From = "choice", r.ActionName(choiceIn(r, prev.choice))
	}
	v.utilLog = append(v.utilLog, t)
	v.utilLog = trimLog(v.utilLog, now-v.LogSeconds, utilInfo)
}

// untrace takes the viewer's Trace out of the agent it was given to, if that
// agent still has it.
func (v *Viewer) untrace(w *arche.World) {
	e := v.traceOwner
	v.traceOwner = arche.Entity{}
	if e.IsZero() || !aliveIn(w, e) || !w.Has(e, v.ids.util) {
		return
	}
	if u := (*components.UtilityBrain)(w.Get(e, v.ids.util)); u.State.Trace == &v.utilTrace {
		u.State.Trace = nil
	}
}

// choiceIn returns c if it is an action of r, else utility.None.
func choiceIn(r *utility.Reasoner, c int) int {
	if c < 0 || c >= r.Len() {
		return utility.None
	}
	return c
}

// utilityOf copies the agent's reasoner and its last decision; trace holds the
// inputs if it is the agent's State.Trace.
func utilityOf(u *components.UtilityBrain, trace *utility.Trace) *Utility {
	return utilityOfState(u.Reasoner, &u.State, trace)
}

// utilityOfState copies reasoner r and its last decision in s (nil for a nil
// r); trace holds the inputs if it is s.Trace.
func utilityOfState(r *utility.Reasoner, s *utility.State, trace *utility.Trace) *Utility {
	if r == nil {
		return nil
	}
	p := r.Policy()
	out := &Utility{reasoner: r, Name: r.Name(), Choice: choiceIn(r, s.Choice), Actions: make([]string, r.Len()), Scores: make([]float64, r.Len()),
		Policy: policyName(p), Hysteresis: p.Hysteresis, Held: utility.None, Decisions: s.Decisions, Unread: s.Unread,
		NaNInputs: s.NaNInputs,
		Options:   make([]Option, r.Len())}
	if s.Decisions > 0 {
		out.Held = choiceIn(r, s.Previous)
	}
	traced := trace != nil && s.Trace == trace && trace.Scorings > 0 && trace.Reasoner == r
	out.Traced = traced
	sized := len(s.Scores) == r.Len()
	off := 0 // action i's first consideration in State.Considerations and Trace.Inputs
	for i := range r.Len() {
		out.Actions[i] = r.ActionName(i)
		a, _ := r.Action(i)
		o := Option{Name: a.Name, Weight: orOne(a.Weight), Combine: a.Combine.String(), Considerations: make([]ConsiderationScore, len(a.Considerations))}
		if sized {
			o.Score = finite(s.Scores[i])
		}
		o.Selection = o.Score
		if i == out.Held {
			o.Selection = finite(o.Score * (1 + p.Hysteresis))
		}
		out.Scores[i] = o.Score
		scores := r.ConsiderationScores(s, i)
		n := len(a.Considerations)
		var inputs []float64
		if traced && len(trace.Inputs) == len(s.Considerations) && scores != nil && off+n <= len(trace.Inputs) {
			inputs = trace.Inputs[off : off+n]
		}
		off += n
		for j, c := range a.Considerations {
			cs := ConsiderationScore{Name: c.Name, Curve: curveName(c.Curve), Veto: c.Veto}
			if a.Combine == utility.WeightedSum { // the products ignore weights: 0, left out of the JSON
				cs.Weight = orOne(c.Weight)
			}
			if c.Range != (utility.Range{}) {
				cs.Range = &[2]float64{c.Range.Min, c.Range.Max}
			}
			if scores != nil {
				sc := scores[j]
				cs.Evaluated = sc != utility.NotEvaluated
				if cs.Evaluated {
					cs.Score = finite(sc)
					cs.Compensated = cs.Score
					if a.Combine == utility.Compensated {
						cs.Compensated = utility.Compensate(cs.Score, n)
					}
					if cs.Score == 0 && (a.Combine != utility.WeightedSum || c.Veto) {
						o.Vetoed = true
					}
				} else {
					cs.Note = "not evaluated: an earlier consideration vetoed the option"
				}
			}
			switch {
			case inputs != nil && cs.Evaluated:
				cs.Input, cs.X, cs.Note = inputOf(c, inputs[j])
			case !traced && (scores == nil || cs.Evaluated):
				cs.Pending, cs.Note = true, notePending
			}
			o.Considerations[j] = cs
		}
		out.Options[i] = o
	}
	return out
}

// notePending is the Note of a consideration whose input is not recorded yet.
const notePending = "input pending: recorded from the first decision after the selection (a utility State keeps curve outputs, not inputs)"

// orOne returns a weight as it counts: utility.Action's and utility.Consideration's
// zero Weight counts as 1.
func orOne(w float64) float64 {
	if w == 0 {
		return 1
	}
	return w
}

// inputOf returns a consideration's raw input and the curve's x for it (nil where
// JSON cannot hold the number, or the curve scores it 0 unseen), with a note.
func inputOf(c utility.Consideration, raw float64) (in, x *float64, note string) {
	switch {
	case math.IsNaN(raw):
		return nil, nil, "the input is NaN: it scores 0 (a fact that returned NaN, a utility.KeyInput whose key the blackboard has not set, " +
			"or an Input that could not read the agent, counted in unread)"
	case math.IsInf(raw, 0):
		note = fmt.Sprintf("the input is %v", raw)
	default:
		in = &raw
	}
	xv := raw
	if c.Range != (utility.Range{}) {
		xv = c.Range.Normalize(xv)
	}
	if math.IsNaN(xv) || math.IsInf(xv, 0) {
		if note != "" {
			note += ": it scores 0"
		}
		return in, nil, note
	}
	xv = max(0, min(1, xv))
	return in, &xv, note
}

func policyName(p utility.Policy) string {
	switch p.Kind {
	case utility.Softmax:
		return fmt.Sprintf("Softmax (T=%g)", p.Temperature)
	case utility.TopN:
		return fmt.Sprintf("TopN (N=%d)", p.N)
	}
	return p.Kind.String()
}

func curveName(c utility.Curve) string {
	if c.Kind == utility.CurveIdentity {
		return "Identity"
	}
	return fmt.Sprintf("%s(M=%g K=%g B=%g C=%g)", c.Kind, c.M, c.K, c.B, c.C)
}

// utilityLogWindow copies the choice changes of the last LogSeconds.
func (v *Viewer) utilityLogWindow() []UtilityTransition {
	return logWindow(v.utilLog, v.frameTime()-v.LogSeconds, utilInfo)
}

func utilInfo(t UtilityTransition) (float64, string, string) { return t.Time, t.Kind, t.Field }
