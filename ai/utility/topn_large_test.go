package utility

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/archai-go/archai/ai/steer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TopN's cut, the n-th best (value, index) pair of the actions scoring above 0, is the
// one a sort gives, found by n scans (small n) or by a search over the values' bits,
// ties and a current action's hysteresis bonus included.
func TestTopNCutIsTheNthBest(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	levels := []float64{0, 0.1, 0.25, 0.5, 0.5000000000000001, 1, 3, 1e-300, 1e300}
	for trial := range 1000 {
		scores := make([]float64, 1+rng.IntN(70))
		for i := range scores {
			scores[i] = levels[rng.IntN(len(levels))]
		}
		current, bonus := rng.IntN(len(scores)+1)-1, 1+float64(rng.IntN(3))/10
		value := func(i int) float64 {
			if i == current {
				return scores[i] * bonus
			}
			return scores[i]
		}
		var ranked []int // the actions scoring above 0, best first
		for i := range scores {
			if scores[i] > 0 {
				ranked = append(ranked, i)
			}
		}
		slices.SortStableFunc(ranked, func(a, b int) int {
			if ranksAbove(value(a), a, value(b), b) {
				return -1
			}
			return 1
		})
		for n := 1; n < len(ranked); n++ {
			want := ranked[n-1]
			v, i := nthBestBits(scores, value, n)
			require.Equal(t, []any{value(want), want}, []any{v, i}, "trial %d n %d (bits)", trial, n)
			if n <= topNScan {
				v, i = nthBestScan(scores, value, n)
				require.Equal(t, []any{value(want), want}, []any{v, i}, "trial %d n %d (scan)", trial, n)
			}
		}
	}
}

// A TopN reasoner of many actions decides in time linear in their number. Before, the
// cut took N scans of the scores: with TopN(0) (all) over 16,000 actions a decision took
// 0.37 s, over MaxActions (65,536) about 6 s, for every agent at every think.
//
// The cut's work is counted, not timed: the scores each way of finding it reads over
// MaxActions actions, for an N as Decide gives it (n scans up to topNScan, the search
// over the values' bits past it), is at most 70 reads an action (65 at most), whatever
// N (N scans were up to 65,535). Decide's own loop over MaxActions actions, which picks
// the way, runs ten decisions a policy under a bound that only catches a return of the
// N scans: 15 s (ten decisions took 13 to 730 ms on a loaded 2-core machine; N scans take
// seconds a decision, about 6 s for TopN(0) as above, and under that load 19 s for
// TopN(MaxActions/2) and 34 s for TopN(0)). The bound used to be 2 s for three.
func TestTopNOverManyActionsIsLinear(t *testing.T) {
	acts := make([]Action, MaxActions)
	scores := make([]float64, MaxActions)
	for i := range acts {
		acts[i] = Action{Name: "a" + strconv.Itoa(i), Weight: 1 + float64(i%7)} // names of their own: New refuses one used twice
		scores[i] = acts[i].Weight
	}
	best := slices.Sorted(slices.Values(scores)) // ascending
	for _, n := range []int{1, topNScan, topNScan + 1, MaxActions / 2, MaxActions - 1} {
		reads := 0
		value := func(i int) float64 { reads++; return scores[i] }
		var v float64
		if n <= topNScan {
			v, _ = nthBestScan(scores, value, n)
		} else {
			v, _ = nthBestBits(scores, value, n)
		}
		assert.Equal(t, best[MaxActions-n], v, "n %d: the n-th best value", n)
		assert.LessOrEqual(t, reads, 70*MaxActions, "n %d: scores read to find the cut", n)
	}

	for _, p := range []Policy{TopNPolicy(0), TopNPolicy(MaxActions / 2), TopNPolicy(5).WithHysteresis(0.1)} {
		r := mustNew(t, p, acts...)
		s := r.NewState()
		src := steer.NewRand(1)
		start := time.Now()
		for range 10 {
			r.Decide(nil, &s, &src)
		}
		assert.Less(t, time.Since(start), 15*time.Second, "%+v: ten decisions (a bound that catches N scans only)", p)
		assert.NotEqual(t, None, s.Choice)
	}
}
