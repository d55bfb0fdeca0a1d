package main

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The JPS/A* ratio of -scen is that of each query's median time over rounds, A* and
// JPS alternating per query: one search held up (a preemption on a loaded machine, a
// GC, the first query after a cold start) does not move it. One pass used to be the
// figure: on arena, whose 130 queries take well under a millisecond a pass, it read
// 12.81 on one run and 0.50 on the next. The clock here is scripted: A* takes 2 µs,
// JPS 1 µs, except one JPS search held up for a second.
func TestScenRatioIgnoresOneHeldUpSearch(t *testing.T) {
	scen := writeScen(t, t.TempDir(), 3)
	calls := [2]int{}
	clock := func(algo int, search func()) time.Duration {
		search()
		calls[algo]++
		if algo == 1 && calls[algo] == 2 {
			return time.Second
		}
		return time.Duration(2-algo) * time.Microsecond
	}
	var out, errs bytes.Buffer
	require.Equal(t, 0, checkScenario(scen, true, &out, &errs, clock), errs.String())
	assert.Equal(t, "scenario "+filepath.Base(scen)+": 3 queries\n"+
		"A* (octile) optimal: 3/3\n"+
		"A* (octile) mean time per query: 2.0 µs, 4 expansions\n"+
		"JPS optimal: 3/3\n"+
		"JPS mean time per query: 1.0 µs, 2 expansions\n"+
		"JPS time / A* time: 0.50 (the middle half of the rounds' ratios 0.50–0.50; each query's median over 5 rounds, A* and JPS alternating per query)\n",
		out.String())
	assert.Equal(t, [2]int{15, 15}, calls, "5 rounds of 3 queries each (the untimed first query of each search is not timed)")
}

// Rounds go on to at least 5 and stop once the timed searches took 0.25 s; a round
// that takes over 10 s is the only one (maze512's A* takes about 2 minutes a pass),
// and the report says there is no spread; at most 51 rounds on tiny maps.
func TestScenRounds(t *testing.T) {
	for _, tc := range []struct {
		round   time.Duration
		queries int
		want    int
	}{
		{time.Microsecond, 130, 51},
		{10 * time.Millisecond, 130, 25},
		{200 * time.Millisecond, 100, 5},
		{20 * time.Second, 10510, 1},
		{3 * time.Second, 10510, 4},
		{time.Microsecond, 1_000_000, 2},
	} {
		rounds := 0
		for timed := time.Duration(0); ; {
			rounds++
			timed += tc.round
			if scenDone(rounds, tc.queries, timed) {
				break
			}
		}
		assert.Equal(t, tc.want, rounds, "a round of %v, %d queries", tc.round, tc.queries)
	}
}
