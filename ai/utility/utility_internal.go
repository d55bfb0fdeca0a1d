package utility

import (
	"fmt"
	"math"
	"strconv"

	"github.com/archai-go/archai/internal/detmath"
)

// orOne returns w, or 1 for 0 (a zero weight counts as 1).
func orOne(w float64) float64 {
	if w == 0 {
		return 1
	}
	return w
}

// checkParams returns an error wrapping ErrBadParam naming the first parameter of c's
// Curve or bound of its Range that is NaN or ±Inf.
func (c *Consideration) checkParams() error {
	cv := &c.Curve
	for _, p := range [...]struct {
		name string
		v    float64
	}{{"Curve.M", cv.M}, {"Curve.K", cv.K}, {"Curve.B", cv.B}, {"Curve.C", cv.C},
		{"Range.Min", c.Range.Min}, {"Range.Max", c.Range.Max}} {
		if p.v-p.v != 0 { // NaN or ±Inf
			of := " of a " + cv.Kind.String() + " curve"
			if p.name[0] == 'R' {
				of = ""
			}
			return fmt.Errorf("%w: %s%s is %v", ErrBadParam, p.name, of, p.v)
		}
	}
	return nil
}

// checkScores returns an error wrapping ErrCurveZero when cv scores 0 at every input
// in [0, 1] (its formula is 0 or below, or NaN, there). Every kind but Sine is monotone
// or has one extremum on each side of C (Polynomial, Normal) or is defined between C
// and C + 1 only (Logit), so its highest score on [0, 1] is at 0, 1, C, C + 1 or C + K
// (Smoothstep's edges), clamped to [0, 1]; or next to C, where a Polynomial of odd
// negative K goes to +Inf on one side and −Inf on the other (x^−1 at 0); or, where
// those are singular points scoring NaN (a Logit or Polynomial whose other factor is
// 0), at an inner point, 0.5 or C + 0.5. Sine, periodic, is not checked.
func (cv Curve) checkScores() error {
	if cv.Kind == CurveSine || cv.Kind >= numCurveKinds {
		return nil
	}
	for _, x := range [...]float64{0, 1, clamp01(cv.C), clamp01(cv.C + 1), clamp01(cv.C + cv.K),
		clamp01(math.Nextafter(cv.C, math.Inf(-1))), clamp01(math.Nextafter(cv.C, math.Inf(1))), 0.5, clamp01(cv.C + 0.5)} {
		if cv.Eval(x) > 0 {
			return nil
		}
	}
	return fmt.Errorf("%w: a %v curve with M %v, K %v, B %v, C %v is 0 or below (or NaN) wherever its input is, "+
		"so it vetoes its action, which can never be chosen (B and C shift the curve, M scales or flips it)",
		ErrCurveZero, cv.Kind, cv.M, cv.K, cv.B, cv.C)
}

// check returns an error wrapping ErrBadPolicy naming the first field of p that [New]
// refuses, its value and the values allowed, and the JSON key of that field.
func (p Policy) check() (field string, err error) {
	switch {
	case p.Kind >= numPolicies:
		return "kind", fmt.Errorf("%w: Kind = %v: want Argmax, Softmax or TopN", ErrBadPolicy, p.Kind)
	case !(p.Hysteresis >= 0 && p.Hysteresis <= MaxHysteresis): // NaN too
		hint := ""
		if p.Hysteresis > MaxHysteresis && p.Hysteresis <= 100 {
			hint = "; a percentage? write " + strconv.FormatFloat(p.Hysteresis/100, 'g', -1, 64) +
				" for " + strconv.FormatFloat(p.Hysteresis, 'g', -1, 64) + "%"
		}
		return "hysteresis", fmt.Errorf("%w: Hysteresis = %v: want a fraction of the current choice's score in [0, %v] "+
			"(0.15: a challenger must beat it by 15%%)%s", ErrBadPolicy, p.Hysteresis, MaxHysteresis, hint)
	case !nonNegative(p.Temperature):
		return "temperature", fmt.Errorf("%w: Temperature = %v: want a finite temperature >= 0, in score units (0: Argmax)",
			ErrBadPolicy, p.Temperature)
	case p.N < 0:
		return "n", fmt.Errorf("%w: N = %d: want >= 0, the number of best actions drawn from (0: all)", ErrBadPolicy, p.N)
	}
	return "", nil
}

// nonNegative reports whether v is finite and >= 0.
func nonNegative(v float64) bool { return v >= 0 && !math.IsInf(v, 1) }

// fit sizes s for r, resetting its choice if it was not sized for r or was last
// scored by another reasoner (its Trace is kept), and makes it r's.
func (r *Reasoner) fit(s *State) {
	if len(s.Scores) == len(r.actions) && len(s.Considerations) == r.ncons &&
		(s.reasoner == r || s.reasoner == nil) {
		s.reasoner = r
		return
	}
	t := s.Trace
	if len(s.Scores) == len(r.actions) && len(s.Considerations) == r.ncons {
		// another reasoner's State of r's shape: its storage is kept (it may be
		// held by systems.Arena), its choice and counts start afresh
		*s = State{Choice: None, Previous: None, Scores: s.Scores, Considerations: s.Considerations}
		clear(s.Scores)
		clear(s.Considerations)
	} else {
		*s = r.NewState()
	}
	s.Trace, s.reasoner = t, r
}

// scoreTraced is Score recording each consideration's raw input in t.
func (r *Reasoner) scoreTraced(agent any, s *State, t *Trace) {
	if len(t.Inputs) != r.ncons {
		t.Inputs = make([]float64, r.ncons)
	}
	for k := range t.Inputs {
		t.Inputs[k] = math.NaN()
	}
	cnt := inputCounts{s.Unread, s.NoBlackboard, s.Clamped, 0, 0}
	for i := range r.actions {
		off := r.offsets[i]
		s.Scores[i] = r.scoreAction(i, agent, s.Considerations[off:], t.Inputs[off:], &cnt)
	}
	s.Unread, s.NoBlackboard, s.Clamped = cnt.unread, cnt.noStore, cnt.clamped
	s.NaNInputs, s.NaNInput = cnt.nan, cnt.nanAt
	t.Scorings++
	t.Reasoner = r
}

// scoreAction returns Weight × the combined considerations of action i, writing each
// consideration's score (or NotEvaluated) to out, and its raw input to in unless in
// is nil (a [Trace]), and counting the inputs that could not read the agent, or
// fell outside [0, 1] under the zero Range, in *cnt.
func (r *Reasoner) scoreAction(i int, agent any, out, in []float64, cnt *inputCounts) float64 {
	a := &r.actions[i]
	off := r.offsets[i] // of the action's first consideration in State.Considerations
	w := a.Weight
	if w == 0 {
		w = 1
	}
	n := len(a.Considerations)
	if n == 0 {
		return w
	}
	var score float64
	switch a.Combine {
	case WeightedSum:
		var sum, wsum float64
		for j := range a.Considerations {
			c := &a.Considerations[j]
			s, x := c.score(agent, cnt, off+j)
			out[j] = s
			if in != nil {
				in[j] = x
			}
			if s == 0 && c.Veto {
				markSkipped(out[j+1 : n])
				return 0
			}
			cw := c.Weight
			if cw == 0 {
				cw = 1
			}
			sum += float64(cw * s) // rounded: no multiply-add on any build
			wsum += cw
		}
		score = sum / wsum
	default: // Compensated, Product
		score = 1
		for j := range a.Considerations {
			s, x := a.Considerations[j].score(agent, cnt, off+j)
			out[j] = s
			if in != nil {
				in[j] = x
			}
			if s == 0 {
				markSkipped(out[j+1 : n])
				return 0
			}
			if a.Combine == Compensated {
				s = Compensate(s, n)
			}
			score *= s
		}
	}
	return w * score
}

func markSkipped(out []float64) {
	for j := range out {
		out[j] = NotEvaluated
	}
}

// selectAction picks an action from scores by r's policy; current gets the hysteresis
// bonus.
func (r *Reasoner) selectAction(scores []float64, current int, src Source) int {
	p := &r.policy
	bonus := 1 + p.Hysteresis
	value := func(i int) float64 {
		if i == current {
			return scores[i] * bonus
		}
		return scores[i]
	}
	best := r.argmax(scores, current, bonus)
	if best == None || src == nil {
		return best
	}
	switch p.Kind {
	case Softmax:
		if p.Temperature == 0 {
			return best
		}
		// Subtract the best value so that exp never overflows: the largest term is 1.
		vmax := value(best)
		var total float64
		for i := range scores {
			if scores[i] > 0 {
				total += detmath.Exp((value(i) - vmax) / p.Temperature)
			}
		}
		x := draw(src) * total
		last := best
		for i := range scores {
			if scores[i] > 0 {
				x -= detmath.Exp((value(i) - vmax) / p.Temperature)
				last = i
				if x < 0 {
					return i
				}
			}
		}
		return last // rounding left x just above 0
	case TopN:
		pos := 0 // actions scoring above 0
		for i := range scores {
			if scores[i] > 0 {
				pos++
			}
		}
		n := p.N
		if n == 0 || n > pos {
			n = pos
		}
		// The n-th best (value, index) pair is the cut: an action is a candidate if it
		// ranks at or above it (higher value, or equal value and lower index).
		var cutV float64
		cutI := math.MaxInt // n == pos: every action scoring above 0
		switch {
		case n < pos && n <= topNScan:
			cutV, cutI = nthBestScan(scores, value, n)
		case n < pos:
			cutV, cutI = nthBestBits(scores, value, n)
		}
		var total float64
		for i := range scores {
			if v := value(i); scores[i] > 0 && !ranksAbove(cutV, cutI, v, i) {
				total += v
			}
		}
		x := draw(src) * total
		last := best
		for i := range scores {
			if v := value(i); scores[i] > 0 && !ranksAbove(cutV, cutI, v, i) {
				x -= v
				last = i
				if x < 0 {
					return i
				}
			}
		}
		return last
	}
	return best
}

// topNScan is the largest N of a TopN cut found by n scans of the scores (n·len work);
// a larger one is found by a search over the values' bits (about 64·len).
const topNScan = 32

// nthBestScan returns the n-th best (value, index) pair among the actions scoring
// above 0 (1 ≤ n ≤ their number), by n scans: each finds the best pair ranking below
// the last found.
func nthBestScan(scores []float64, value func(int) float64, n int) (float64, int) {
	cutV, cutI := math.Inf(1), None
	for k := 0; k < n; k++ {
		nv, ni := -1.0, None
		for i := range scores {
			v := value(i)
			if scores[i] <= 0 || (cutI != None && !ranksAbove(cutV, cutI, v, i)) {
				continue // vetoed, or ranks at or above the cut already
			}
			if ni == None || ranksAbove(v, i, nv, ni) {
				nv, ni = v, i
			}
		}
		cutV, cutI = nv, ni
	}
	return cutV, cutI
}

// nthBestBits is nthBestScan in about 64 passes whatever n: the values of the actions
// scoring above 0 are finite and above 0, so their bit patterns order as they do; a
// binary search over the bits finds the n-th largest value v (the largest b with at
// least n values whose bits are b or more), and the cut is the action of value v that
// comes (n − the number of values above v)-th in index order.
func nthBestBits(scores []float64, value func(int) float64, n int) (float64, int) {
	atLeast := func(b uint64) int { // the values whose bits are b or more
		c := 0
		for i := range scores {
			if scores[i] > 0 && math.Float64bits(value(i)) >= b {
				c++
			}
		}
		return c
	}
	lo, hi := uint64(1), math.Float64bits(math.Inf(1))+1 // atLeast(lo) >= n > atLeast(hi)
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; atLeast(mid) >= n {
			lo = mid
		} else {
			hi = mid
		}
	}
	v := math.Float64frombits(lo)
	k := n - atLeast(lo+1) // the cut is the k-th action of value v by index
	for i := range scores {
		if scores[i] > 0 && value(i) == v {
			if k--; k == 0 {
				return v, i
			}
		}
	}
	return v, None // (unreachable)
}

// argmax returns the action with the highest value, the current choice winning ties
// and then the lowest index, or None if no action scores above 0.
func (r *Reasoner) argmax(scores []float64, current int, bonus float64) int {
	best, bestV := None, 0.0
	if current >= 0 && current < len(scores) && scores[current] > 0 {
		best, bestV = current, scores[current]*bonus
	}
	for i, v := range scores {
		if i != current && v > bestV {
			best, bestV = i, v
		}
	}
	return best
}

// ranksAbove reports whether (v, i) ranks strictly above (w, j): a higher value, or an
// equal value and a lower index.
func ranksAbove(v float64, i int, w float64, j int) bool {
	return v > w || (v == w && i < j)
}

// draw returns src's next number, forced into [0, 1).
func draw(src Source) float64 {
	x := src.Float64()
	if !(x >= 0) { // NaN or negative
		return 0
	}
	if x >= 1 {
		return math.Nextafter(1, 0)
	}
	return x
}

// choose selects an action for the scores in s by the policy, records it in s as a
// decision at simulation time now and returns it (see [Reasoner.DecideAt]).
func (r *Reasoner) choose(s *State, src Source, now float64) int {
	choice := r.selectAction(s.Scores, s.Choice, src)
	s.Previous, s.Choice = s.Choice, choice
	s.Decisions++
	s.countFlip(now)
	return choice
}

// countFlip updates s.Flips, FlipFlops, FlipActions and FlipTime after a decision at
// time now (see [State].Flips and FlipFlops).
func (s *State) countFlip(now float64) {
	s.decided = now
	last := s.changes[s.at]
	recent := now >= last && now-last <= FlipWindow // false for a NaN now
	if s.Choice == s.Previous {
		if !recent {
			s.Flips = 0
		}
		return
	}
	if s.left == s.Choice+1 && recent {
		if s.Flips < math.MaxUint32 {
			s.Flips++
		}
	} else {
		s.Flips = 0
	}
	s.left = s.Previous + 1
	s.at = (s.at + 1) % len(s.changes)
	s.changes[s.at] = now
	// the ring's next slot holds the change FlipLimit changes before this one,
	// which began the run if Flips >= FlipLimit
	first := s.changes[(s.at+1)%len(s.changes)]
	if s.Flips >= FlipLimit && now-first <= FlipWindow {
		s.FlipFlops++
		s.FlipActions = [2]int{s.Previous, s.Choice}
		s.FlipTime = now
	}
}
