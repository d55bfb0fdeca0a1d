package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"time"

	"github.com/archai-go/archai/nav/grid"
)

// runScenario checks grid A* against every query of a MovingAI scenario file.
// The map is the file the scenario names, looked up beside the scenario.
func runScenario(path string, stdout, stderr io.Writer) int {
	queries, err := grid.LoadScenario(path)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	if len(queries) == 0 {
		fmt.Fprintf(stderr, "bench: %s has no queries\n", path)
		return 1
	}
	maps := map[string]*grid.Grid{}
	var total time.Duration
	ok := 0
	var buf []grid.Cell
	searches := map[string]*grid.Search{}
	for i, q := range queries {
		g, found := maps[q.Map]
		if !found {
			mp := filepath.Join(filepath.Dir(path), filepath.Base(q.Map))
			if g, err = grid.LoadMap(mp); err != nil {
				fmt.Fprintln(stderr, "bench:", err)
				return 1
			}
			maps[q.Map] = g
			searches[q.Map] = grid.NewSearch(g)
		}
		s := searches[q.Map]
		t0 := time.Now()
		var cost float64
		buf, cost, err = s.Path(q.Start, q.Goal, buf[:0])
		total += time.Since(t0)
		if match, why := matches(q, cost, err); match {
			ok++
		} else {
			fmt.Fprintf(stdout, "mismatch: query %d (%d,%d)->(%d,%d): %s\n", i, q.Start.X, q.Start.Y, q.Goal.X, q.Goal.Y, why)
		}
	}
	fmt.Fprintf(stdout, "scenario %s: %d queries\n", filepath.Base(path), len(queries))
	fmt.Fprintf(stdout, "optimal: %d/%d\n", ok, len(queries))
	fmt.Fprintf(stdout, "mean time per query: %.1f µs (grid A*, octile)\n", float64(total.Nanoseconds())/1e3/float64(len(queries)))
	if ok != len(queries) {
		return 1
	}
	return 0
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
