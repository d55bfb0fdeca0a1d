package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Crowds whose generated map exceeds grid.MaxCells and negative think budgets are
// errors (exit code 2) before anything is built: they used to panic in grid.New.
func TestCrowdSettingsOutOfRange(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-agents", "20000000", "-frames", "1"}, "-agents: 20000000 agents: their generated map would be about 11449×11449 cells"},
		{[]string{"-scenario", "swarm", "-agents", "10240001", "-frames", "1"}, "at most 10240000 agents"},
		{[]string{"-scenario", "reference", "-agents", "20000000", "-frames", "1"}, "-agents: 20000000 agents"},
		// with -sweep, each count of the list is checked (-agents with -sweep is a usage
		// error of its own: TestSweepListsReplaceSingleRunFlags)
		{[]string{"-sweep", "100,20000000", "-frames", "1"}, "-sweep: 20000000 agents"},
		{[]string{"-agents", "100", "-frames", "1", "-think-budget", "-5"}, "-think-budget -5: want 0"},
		// the swarm does not think: these exited 1, as a fault of the run
		{[]string{"-scenario", "swarm", "-agents", "10", "-frames", "1", "-lod"}, "-lod and -think-budget apply to the guard scenario; the swarm does not think"},
		{[]string{"-scenario", "swarm", "-agents", "10", "-frames", "1", "-think-budget", "5"}, "the swarm does not think"},
		{[]string{"-scenario", "swarm", "-frames", "1", "-sweep", "10,20", "-lod"}, "the swarm does not think"},
		// these three used to run out of memory: a time kept per frame, a goroutine
		// per worker, the agents on a map of -map-size
		{[]string{"-scenario", "swarm", "-agents", "10", "-frames", "100000000000"}, "-frames"}, // beyond int32: the flag package refuses it on 32-bit builds
		{[]string{"-scenario", "swarm", "-agents", "10", "-frames", "20000000"}, "-frames 20000000: at most 10000000"},
		{[]string{"-scenario", "swarm", "-agents", "10", "-frames", "2", "-workers", "10000000"}, "-workers 10000000: at most 1024"},
		{[]string{"-scenario", "swarm", "-agents", "1000000000", "-frames", "2", "-map-size", "64"}, "-agents: 1000000000 agents: at most 10240000 agents in a run"},
		{[]string{"-scenario", "swarm", "-frames", "2", "-sweep", "10,1000000000", "-map-size", "64"}, "-sweep: 1000000000 agents: at most 10240000"},
	} {
		var out, errs bytes.Buffer
		assert.Equal(t, 2, run(tc.args, &out, &errs), "%v", tc.args)
		assert.Contains(t, errs.String(), tc.msg, "%v", tc.args)
		assert.NotContains(t, errs.String(), "panic")
	}
}

// mergeLines writes reports as a JSON-lines file and returns its path.
func mergeLines(t *testing.T, name string, reps ...*report) string {
	var b bytes.Buffer
	for _, r := range reps {
		require.NoError(t, writeJSONLine(&b, r))
	}
	file := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(file, b.Bytes(), 0o644))
	return file
}

func goodReport(agents, workers int) *report {
	return &report{Scenario: "guards", Agents: agents, Frames: 10, Workers: workers, MsMedian: 1.5, MsP95: 2, MsMean: 1.6,
		NsPerAgentFrame: 30, Systems: map[string]float64{"steer": 0.5, "clock": 0}}
}

// Merged reports with values no run can give are errors naming file:line and the
// field (1e300 ms used to panic in the plot's log scale); more panels than
// maxPlotPanels is an error (2000 worker counts used to run out of memory).
func TestMergeChecksReports(t *testing.T) {
	bad := func(f func(r *report)) *report { r := goodReport(200, 1); f(r); return r }
	for _, tc := range []struct {
		r   *report
		msg string
	}{
		{bad(func(r *report) { r.MsMedian = 1e300 }), ":2: report 2: ms_per_frame_median: 1e+300"},
		{bad(func(r *report) { r.MsP95 = -1 }), "ms_per_frame_p95: -1"},
		{bad(func(r *report) { r.MsMean = 1e-300 }), "ms_per_frame_mean: 1e-300"},
		{bad(func(r *report) { r.Systems["steer"] = 1e9 }), "systems.steer: 1e+09"},
		{bad(func(r *report) { r.Tutorial = &tutorialReport{MsMedian: 2e6} }), "tutorial.ms_per_frame_median"},
		{bad(func(r *report) { r.Agents = 2_000_000_000 }), "agents: 2000000000"},
		{bad(func(r *report) { r.Workers = -3 }), "workers: -3"},
	} {
		file := mergeLines(t, "runs.jsonl", goodReport(100, 1), tc.r)
		var out, errs bytes.Buffer
		code := run([]string{"-merge", "-plot", filepath.Join(t.TempDir(), "p.png"), file}, &out, &errs)
		assert.Equal(t, 2, code, tc.msg)
		assert.Contains(t, errs.String(), file+":2: report 2: ")
		assert.Contains(t, errs.String(), tc.msg)
	}
	// NaN cannot be written by encoding/json: a hand-edited line
	file := filepath.Join(t.TempDir(), "nan.jsonl")
	require.NoError(t, os.WriteFile(file, []byte(`{"scenario":"guards","agents":5,"frames":3,"ms_per_frame_median":1e400}`+"\n"), 0o644))
	var out, errs bytes.Buffer
	assert.Equal(t, 2, run([]string{"-merge", file}, &out, &errs))
	assert.Contains(t, errs.String(), "nan.jsonl: report 1")

	var reps []*report
	for w := 1; w <= maxPlotPanels+1; w++ {
		reps = append(reps, goodReport(100, w))
	}
	many := mergeLines(t, "many.jsonl", reps...)
	png := filepath.Join(t.TempDir(), "p.png")
	out.Reset()
	errs.Reset()
	assert.Equal(t, 1, run([]string{"-merge", "-plot", png, many}, &out, &errs))
	assert.Contains(t, errs.String(), "17 panels (one per scenario and worker count), at most 16")
	out.Reset()
	errs.Reset()
	ok := mergeLines(t, "ok.jsonl", reps[:maxPlotPanels]...)
	assert.Equal(t, 0, run([]string{"-merge", "-plot", png, ok}, &out, &errs), errs.String())
}

// A save file's meta is checked like the flags, and its agent count against the
// world's: each used to be accepted.
func TestLoadChecksMeta(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "g.json")
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-agents", "50", "-frames", "4", "-save", file, "-save-at", "2", "-quiet"}, &out, &errs), errs.String())
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	for _, tc := range []struct{ from, to, msg string }{
		{`"agents":50`, `"agents":5`, "meta.agents is 5, but the world holds 50 agents"},
		{`"agents":50`, `"agents":2000000000`, "meta.agents is 2000000000, but the world holds 50"},
		{`"think_budget":0`, `"think_budget":-5`, "meta.think-budget -5: want 0"},
	} {
		bad := bytes.Replace(data, []byte(tc.from), []byte(tc.to), 1)
		require.NotEqual(t, data, bad, tc.from)
		f := filepath.Join(dir, "bad.json")
		require.NoError(t, os.WriteFile(f, bad, 0o644))
		out.Reset()
		errs.Reset()
		assert.Equal(t, 2, run([]string{"-load", f, "-frames", "2", "-quiet"}, &out, &errs), tc.msg)
		assert.Contains(t, errs.String(), tc.msg)
	}
}
