package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/archai-go/archai/nav/grid"
)

// scenAlgo is one search configuration checked by runScenario.
type scenAlgo struct {
	name string
	opt  grid.Options
}

var scenAlgos = []scenAlgo{
	{"A* (octile)", grid.Options{}},
	{"JPS", grid.Options{JumpPoints: true}},
}

// runScenario checks grid A* and jump point search against every query of a
// MovingAI scenario file, timed by the wall clock: see checkScenario.
func runScenario(path string, quiet bool, stdout, stderr io.Writer) int {
	return checkScenario(path, quiet, stdout, stderr, wallClock)
}

// wallClock runs search and returns the wall-clock time it took.
func wallClock(_ int, search func()) time.Duration {
	t0 := time.Now()
	search()
	return time.Since(t0)
}

// checkScenario checks grid A* and jump point search against every query of a
// MovingAI scenario file. The map is the file the scenario names, looked up beside
// the scenario. It prints, for each algorithm, "optimal: N/M", the mean time and
// expansions per query, then the JPS/A* time ratio, and returns 1 on any mismatch;
// a scenario file or map that cannot be used (missing, not a scenario or a map, no
// queries, another size than the scenario says) is a usage error, 2, before any
// search. Progress goes to stderr on a scenario of 2,000 queries or more, unless
// quiet or stderr is a file or a pipe (as the crowd's progress bar: a carriage
// return redraws it, which a log would join into one line).
//
// The times: each search's grid mirror is built by an untimed first query; then
// rounds run every query with both algorithms, A* first on one query and JPS first
// on the next (the order swapped every round), so a slow spell of the machine falls
// on both, until scenDone says enough. A query's time is its median over the
// rounds, so one search held up (by a preemption on a loaded machine, a GC, a cold
// cache) does not move it; the ratio is JPS's sum of those over A*'s, and its spread
// is the middle half of the rounds' own ratios. clock runs one search of algorithm
// algo (an index of scenAlgos) and returns its time.
func checkScenario(path string, quiet bool, stdout, stderr io.Writer, clock func(algo int, search func()) time.Duration) int {
	queries, err := grid.LoadScenario(path)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", scenarioError(path, err))
		return 2
	}
	progress := !quiet && !logFile(stderr) && len(queries) >= 2000 // meter.go
	if len(queries) == 0 {
		fmt.Fprintf(stderr, "bench: %s has no queries\n", path)
		return 2
	}
	maps := map[string]*grid.Grid{}
	for i, q := range queries {
		mp := filepath.Join(filepath.Dir(path), filepath.Base(q.Map))
		g, found := maps[q.Map]
		if !found {
			g, err = grid.LoadMap(mp)
			if errors.Is(err, fs.ErrNotExist) {
				fmt.Fprintf(stderr, "bench: %s names the map %q (query %d), looked for beside the scenario file, at %s: there is no such file\n", path, q.Map, i, mp)
				return 2
			}
			if err != nil {
				fmt.Fprintf(stderr, "bench: the map %q named by %s (query %d), looked for beside it at %s: %v\n", q.Map, path, i, mp, err)
				return 2
			}
			g.Prepare()
			maps[q.Map] = g
		}
		// every query's size, not only the first's of its map: a later one saying
		// another size would be searched off the map and count as a mismatch of
		// the search, not of the file
		if g.Width() != q.Width || g.Height() != q.Height {
			fmt.Fprintf(stderr, "bench: %s is %dx%d, scenario says %dx%d (query %d)\n", mp, g.Width(), g.Height(), q.Width, q.Height, i)
			return 2
		}
	}
	fmt.Fprintf(stdout, "scenario %s: %d queries\n", filepath.Base(path), len(queries))
	n := len(queries)
	var (
		searches [2]map[string]*grid.Search
		bufs     [2][]grid.Cell
		times    [2][]time.Duration // [algo][round*n + query]
		ok       [2]int
		expanded [2]int
	)
	for ai, algo := range scenAlgos {
		searches[ai] = map[string]*grid.Search{}
		bufs[ai] = make([]grid.Cell, 0, 4096)
		for _, q := range queries {
			if searches[ai][q.Map] == nil {
				s := grid.NewSearchOptions(maps[q.Map], algo.opt)
				searches[ai][q.Map] = s
				// an untimed first query builds the search's mirror of the grid
				// (allowed moves; for JPS also its bitsets and jump tables), so
				// the times below are the searches' own
				bufs[ai], _, _ = s.Path(q.Start, q.Goal, bufs[ai][:0])
			}
		}
	}
	var mismatches [2][]string
	rounds := 0
	for timed := time.Duration(0); ; {
		runtime.GC() // not during the round: the searches allocate nothing
		for i, q := range queries {
			for k := range 2 {
				ai := (i + rounds + k) % 2 // A* first on every other query
				s := searches[ai][q.Map]
				var cost float64
				var err error
				d := clock(ai, func() { bufs[ai], cost, err = s.Path(q.Start, q.Goal, bufs[ai][:0]) })
				times[ai] = append(times[ai], d)
				timed += d
				if rounds > 0 {
					continue
				}
				expanded[ai] += s.Expanded()
				if match, why := matches(q, cost, err); match {
					ok[ai]++
				} else {
					mismatches[ai] = append(mismatches[ai], fmt.Sprintf("mismatch (%s): query %d (%d,%d)->(%d,%d): %s\n", scenAlgos[ai].name, i, q.Start.X, q.Start.Y, q.Goal.X, q.Goal.Y, why))
				}
			}
			if progress && (i+1)%1000 == 0 {
				fmt.Fprintf(stderr, "round %d: %d/%d queries\r", rounds+1, i+1, n)
			}
		}
		rounds++
		if scenDone(rounds, n, timed) {
			break
		}
	}
	if progress {
		fmt.Fprintln(stderr)
	}
	status := 0
	var sums [2]time.Duration // the sum over queries of each query's median time
	for ai, algo := range scenAlgos {
		for _, m := range mismatches[ai] {
			fmt.Fprint(stdout, m)
		}
		sample := make([]time.Duration, rounds)
		for i := range n {
			for r := range rounds {
				sample[r] = times[ai][r*n+i]
			}
			sums[ai] += median(sample)
		}
		fmt.Fprintf(stdout, "%s optimal: %d/%d\n", algo.name, ok[ai], n)
		fmt.Fprintf(stdout, "%s mean time per query: %s, %.0f expansions\n", algo.name, micros(float64(sums[ai].Nanoseconds())/1e3/float64(n)), float64(expanded[ai])/float64(n))
		if ok[ai] != n {
			status = 1
		}
	}
	if sums[0] > 0 {
		fmt.Fprintf(stdout, "JPS time / A* time: %.2f (%s)\n", float64(sums[1])/float64(sums[0]), roundsSpread(times, n, rounds))
	}
	return status
}

// scenDone reports whether checkScenario has timed enough rounds of n queries, the
// searches of all of them having taken timed: 5 rounds once they took 0.25 s,
// fewer when they took 10 s (on maze512 one A* pass takes about two minutes), and
// at most 51, fewer when 2,000,000 times would be kept (a time per query, round
// and algorithm).
func scenDone(rounds, n int, timed time.Duration) bool {
	maxRounds := min(51, max(1, 2_000_000/n))
	return rounds >= maxRounds || timed >= 10*time.Second || (rounds >= 5 && timed >= 250*time.Millisecond)
}

// roundsSpread describes how the ratio was found and the middle half (25th to 75th
// percentile) of the rounds' own ratios, each round's JPS time over its A* time.
func roundsSpread(times [2][]time.Duration, n, rounds int) string {
	const how = "A* and JPS alternating per query"
	if rounds == 1 {
		return "one round, " + how + ": no spread, the round took over 10 s"
	}
	ratios := make([]float64, rounds)
	for r := range rounds {
		var sum [2]time.Duration
		for ai := range 2 {
			for _, d := range times[ai][r*n : (r+1)*n] {
				sum[ai] += d
			}
		}
		ratios[r] = float64(sum[1]) / float64(max(sum[0], 1))
	}
	slices.Sort(ratios)
	lo, hi := ratios[(rounds-1)/4], ratios[rounds-1-(rounds-1)/4]
	return fmt.Sprintf("the middle half of the rounds' ratios %.2f–%.2f; each query's median over %d rounds, %s", lo, hi, rounds, how)
}

// median returns the median of ds, which it sorts.
func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	m := len(ds) / 2
	if len(ds)%2 == 1 {
		return ds[m]
	}
	return (ds[m-1] + ds[m]) / 2
}

// scenarioError returns err, the error of reading the scenario file path, with what
// went wrong when path is a MovingAI map rather than its scenario (grid.LoadScenario
// says only that the first line is not "version 1").
func scenarioError(path string, err error) error {
	g, merr := grid.LoadMap(path)
	if merr != nil {
		return err
	}
	hint := "a .map.scen file (with the map it names beside it)"
	if st, serr := os.Stat(path + ".scen"); serr == nil && st.Mode().IsRegular() {
		hint = path + ".scen, beside it"
	}
	return fmt.Errorf("-scen %s looks like a MovingAI .map file (it reads as a %dx%d map); -scen wants the scenario, %s", path, g.Width(), g.Height(), hint)
}

// matches reports whether a search result agrees with the scenario: the cost
// equals the optimal length within relative error 1e-4, or the query is an
// unreachable one (length 0, start ≠ goal) and the search said so.
func matches(q grid.Query, cost float64, err error) (bool, string) {
	if q.Optimal == 0 && q.Start != q.Goal {
		if errors.Is(err, grid.ErrUnreachable) {
			return true, ""
		}
		return false, fmt.Sprintf("expected unreachable, got cost %.8f, err %v", cost, err)
	}
	if err != nil {
		return false, fmt.Sprintf("expected %.8f, got error %v", q.Optimal, err)
	}
	if math.Abs(cost-q.Optimal) > 1e-4*math.Max(q.Optimal, 1e-9) && !(q.Optimal == 0 && cost == 0) {
		return false, fmt.Sprintf("expected %.8f, got %.8f", q.Optimal, cost)
	}
	return true, ""
}

// micros formats a duration in microseconds, switching to ms from 1,000 µs.
func micros(us float64) string {
	if us >= 1000 {
		return fmt.Sprintf("%.2f ms", us/1000)
	}
	return fmt.Sprintf("%.1f µs", us)
}
