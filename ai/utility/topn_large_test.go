package utility

import (
	"math/rand/v2"
	"slices"
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
func TestTopNOverManyActionsIsLinear(t *testing.T) {
	acts := make([]Action, MaxActions)
	for i := range acts {
		acts[i] = Action{Name: "a", Weight: 1 + float64(i%7)}
	}
	for _, p := range []Policy{TopNPolicy(0), TopNPolicy(MaxActions / 2), TopNPolicy(5).WithHysteresis(0.1)} {
		r := mustNew(t, p, acts...)
		s := r.NewState()
		src := steer.NewRand(1)
		start := time.Now()
		for range 3 {
			r.Decide(nil, &s, &src)
		}
		assert.Less(t, time.Since(start), 2*time.Second, "%+v: three decisions", p)
		assert.NotEqual(t, None, s.Choice)
	}
}
