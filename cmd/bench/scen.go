package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
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
// MovingAI scenario file. The map is the file the scenario names, looked up
// beside the scenario. It prints, for each algorithm, "optimal: N/M", the
// mean time and expansions per query, then the JPS/A* time ratio, and
// returns 1 on any mismatch; a scenario file or map that cannot be used (missing,
// not a scenario or a map, no queries, another size than the scenario says) is a
// usage error, 2, before any search. Progress goes to stderr on a scenario of 2,000
// queries or more, unless quiet or stderr is a file or a pipe (as the crowd's
// progress bar: a carriage return redraws it, which a log would join into one
// line).
func runScenario(path string, quiet bool, stdout, stderr io.Writer) int {
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
	status := 0
	means := make([]float64, len(scenAlgos))
	for ai, algo := range scenAlgos {
		searches := map[string]*grid.Search{}
		var total time.Duration
		ok, expanded := 0, 0
		buf := make([]grid.Cell, 0, 4096)
		for i, q := range queries {
			s := searches[q.Map]
			if s == nil {
				s = grid.NewSearchOptions(maps[q.Map], algo.opt)
				searches[q.Map] = s
				// an untimed first query builds the search's mirror of the grid
				// (allowed moves; for JPS also its bitsets and jump tables), so
				// the times below are the searches' own
				buf, _, _ = s.Path(q.Start, q.Goal, buf[:0])
			}
			t0 := time.Now()
			var cost float64
			buf, cost, err = s.Path(q.Start, q.Goal, buf[:0])
			total += time.Since(t0)
			expanded += s.Expanded()
			if progress && (i+1)%1000 == 0 {
				fmt.Fprintf(stderr, "%s: %d/%d queries\r", algo.name, i+1, len(queries))
			}
			if match, why := matches(q, cost, err); match {
				ok++
			} else {
				fmt.Fprintf(stdout, "mismatch (%s): query %d (%d,%d)->(%d,%d): %s\n", algo.name, i, q.Start.X, q.Start.Y, q.Goal.X, q.Goal.Y, why)
			}
		}
		if progress {
			fmt.Fprintln(stderr)
		}
		means[ai] = float64(total.Nanoseconds()) / 1e3 / float64(len(queries))
		fmt.Fprintf(stdout, "%s optimal: %d/%d\n", algo.name, ok, len(queries))
		fmt.Fprintf(stdout, "%s mean time per query: %s, %.0f expansions\n", algo.name, micros(means[ai]), float64(expanded)/float64(len(queries)))
		if ok != len(queries) {
			status = 1
		}
	}
	if means[0] > 0 {
		fmt.Fprintf(stdout, "JPS time / A* time: %.2f (wall clock, one pass, each search's grid mirror built before the timing)\n", means[1]/means[0])
	}
	return status
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
