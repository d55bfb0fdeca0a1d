package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJSONLeavesOutFiguresTheScenarioHasNot: the guards' JSON has no goal_moves or
// near_goal (swarm figures), the swarm's and the reference loop's no decisions,
// paths or combat (guard figures); a figure of the scenario stays even at 0 (a
// one-frame guards run strikes nothing and searches nothing), and script_errors and clock_faults are in
// every one. The same in a sweep's JSON lines and in -merge's output.
func TestJSONLeavesOutFiguresTheScenarioHasNot(t *testing.T) {
	guardKeys := []string{"thought_per_frame", "paths_served", "paths_dropped", "paths_orphaned", "paths_replaced", "paths_cancelled", "paths_waiting", "strikes", "guards_down", "intruders_down",
		"perceived_per_frame", "searches_per_frame"}
	goalKeys := []string{"goal_moves", "near_goal"}
	check := func(rep map[string]any, scen string) {
		t.Helper()
		has, hasNot := guardKeys, goalKeys
		if scen != "guards" {
			has, hasNot = goalKeys, guardKeys
		}
		for _, k := range has {
			assert.Contains(t, rep, k, scen)
		}
		for _, k := range hasNot {
			assert.NotContains(t, rep, k, scen)
		}
		assert.Contains(t, rep, "script_errors", scen)
		assert.Contains(t, rep, "clock_faults", scen)
	}
	for _, scen := range []string{"guards", "swarm", "reference"} {
		var out, errs bytes.Buffer
		require.Equal(t, 0, run([]string{"-scenario", scen, "-agents", "40", "-frames", "1", "-json"}, &out, &errs), errs.String())
		var rep map[string]any
		require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
		check(rep, scen)
		if scen == "guards" {
			assert.Equal(t, 0.0, rep["strikes"], "none in one frame, and still there")
			assert.Equal(t, 0.0, rep["searches_per_frame"], "no A* search in one frame of 40 agents, and still there")
			assert.Equal(t, rep["paths_dropped"], rep["paths_orphaned"].(float64)+rep["paths_replaced"].(float64)+rep["paths_cancelled"].(float64),
				"the dropped paths by reason add up")
		}
	}

	dir := t.TempDir()
	lines := filepath.Join(dir, "s.jsonl")
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-scenario", "swarm", "-sweep", "30,40", "-frames", "2", "-json"}, &out, &errs), errs.String())
	require.NoError(t, os.WriteFile(lines, out.Bytes(), 0o644))
	for _, r := range jsonLines(t, out.Bytes()) {
		check(r, "swarm")
	}
	out.Reset()
	require.Equal(t, 0, run([]string{"-merge", lines, "-json"}, &out, &errs), errs.String())
	reps := jsonLines(t, out.Bytes())
	require.Len(t, reps, 2)
	for _, r := range reps {
		check(r, "swarm")
	}
}
