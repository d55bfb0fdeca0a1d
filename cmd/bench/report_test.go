package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jsonLines decodes the JSON lines of out, one report per line.
func jsonLines(t *testing.T, out []byte) []map[string]any {
	t.Helper()
	var reps []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r), "%s", sc.Text())
		reps = append(reps, r)
	}
	return reps
}

func TestSweepPrintsOneJSONLinePerRun(t *testing.T) {
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-sweep", "100,200", "-sweep-workers", "1,2", "-frames", "10", "-json"}, &out, &errs), errs.String())
	reps := jsonLines(t, out.Bytes())
	require.Len(t, reps, 4)
	want := [][2]float64{{100, 1}, {100, 2}, {200, 1}, {200, 2}}
	for i, r := range reps {
		assert.Equal(t, want[i][0], r["agents"])
		assert.Equal(t, want[i][1], r["workers"])
		for _, k := range []string{"ms_per_frame_median", "ms_per_frame_p95", "ms_per_frame_max", "ns_per_agent_frame",
			"allocs_per_frame", "allocs_per_frame_steady", "component_bytes_per_agent", "thought_per_frame",
			"paths_served", "state_hash", "systems", "perceived_per_frame", "searches_per_frame"} {
			assert.Contains(t, r, k)
		}
		assert.GreaterOrEqual(t, r["ms_per_frame_max"], r["ms_per_frame_p95"])
		assert.InDelta(t, r["agents"].(float64)/6, r["thought_per_frame"], r["agents"].(float64)/60, "10 Hz thinking at 60 frames/s")
		assert.Equal(t, r["thought_per_frame"], r["perceived_per_frame"], "a perception per think")
	}
	assert.Equal(t, reps[0]["state_hash"], reps[1]["state_hash"], "any worker count, the same run")
	assert.NotEqual(t, reps[0]["state_hash"], reps[2]["state_hash"])
	assert.Empty(t, errs.String(), "no progress bar with -json")
}

// Once warm, a frame of either scenario allocates nothing: the steady-state
// figure is exactly 0. The collector is off (see gcOff): a GC cycle may make
// the runtime allocate an object of its own, which MemStats counts.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	gcOff(t)
	for _, scen := range []string{"guards", "swarm"} {
		rep := steadyRun(t, crowdConfig{Scenario: scen, Agents: 300, Frames: 120, Seed: 2, Workers: 1})
		assert.Zero(t, rep.AllocsPerFrameSteady, scen)
		assert.Equal(t, 60, rep.WarmupFrames)
		assert.Greater(t, rep.AllocsPerFrame, 0.0, "%s: buffers grow during warm-up", scen)
	}
}

func TestComponentBytesPerAgent(t *testing.T) {
	rep, err := runCrowd(crowdConfig{Scenario: "swarm", Agents: 50, Frames: 1, Seed: 1, Workers: 1})
	require.NoError(t, err)
	g, err := runCrowd(crowdConfig{Scenario: "guards", Agents: 50, Frames: 1, Seed: 1, Workers: 1})
	require.NoError(t, err)
	assert.Greater(t, rep.ComponentBytesPerAgent, 100.0)
	assert.Greater(t, g.ComponentBytesPerAgent, rep.ComponentBytesPerAgent, "guards carry a brain, perception, health, a path...")
}

func TestSweepWritesMarkdownAndPlot(t *testing.T) {
	dir := t.TempDir()
	md, img := filepath.Join(dir, "out.md"), filepath.Join(dir, "out.png")
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-sweep", "100,300", "-frames", "10", "-quiet", "-md", md, "-plot", img}, &out, &errs), errs.String())
	assert.Empty(t, errs.String(), "-quiet: no progress bar")
	assert.Contains(t, out.String(), "median ms")
	assert.Contains(t, out.String(), "steady allocs/frame")
	text, err := os.ReadFile(md)
	require.NoError(t, err)
	assert.Contains(t, string(text), "go run ./cmd/bench -frames 10 -md ")
	assert.Contains(t, string(text), "| scenario | agents | workers | median ms |")
	assert.Contains(t, string(text), "| guards | 300 |")
	assert.Contains(t, string(text), "| perception |", "a column per system")
	f, err := os.Open(img)
	require.NoError(t, err)
	defer f.Close()
	pic, err := png.Decode(f)
	require.NoError(t, err)
	assert.Greater(t, pic.Bounds().Dx(), 500)
}

func TestTutorialComparison(t *testing.T) {
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-tutorial", "-agents", "300", "-frames", "30", "-json"}, &out, &errs), errs.String())
	reps := jsonLines(t, out.Bytes())
	require.Len(t, reps, 1)
	tu := reps[0]["tutorial"].(map[string]any)
	assert.Greater(t, reps[0]["ratio_tutorial"], 0.0)
	assert.Equal(t, reps[0]["thought_per_frame"], tu["thought_per_frame"])
	out.Reset()
	require.Equal(t, 0, run([]string{"-tutorial", "-agents", "300", "-frames", "30", "-quiet"}, &out, &errs), errs.String())
	assert.Contains(t, out.String(), "tutorial/archai")
	errs.Reset()
	assert.Equal(t, 2, run([]string{"-tutorial", "-scenario", "swarm"}, &out, &errs))
	assert.Contains(t, errs.String(), "-tutorial compares the guard scenario")
}

func TestCompareFlag(t *testing.T) {
	q, s := compareQueries, compareSample
	compareQueries, compareSample = 10, 50
	defer func() { compareQueries, compareSample = q, s }()
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-compare", "-agents", "200"}, &out, &errs), errs.String())
	assert.Contains(t, out.String(), "gonum/ours")
	assert.Contains(t, out.String(), "A*/flow field")
	out.Reset()
	require.Equal(t, 0, run([]string{"-compare", "-agents", "200", "-json"}, &out, &errs), errs.String())
	reps := jsonLines(t, out.Bytes())
	require.Len(t, reps, 1)
	assert.Equal(t, true, reps[0]["costs_agree"])
	assert.Equal(t, true, reps[0]["flowfield_matches_astar"])
	assert.Equal(t, 50.0, reps[0]["per_agent_astar_sampled"])
}

func TestProgressBarOnStderr(t *testing.T) {
	d := progressAfter
	defer func() { progressAfter = d }()
	progressAfter = 0
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-sweep", "100,200", "-frames", "20"}, &out, &errs), errs.String())
	assert.Contains(t, errs.String(), "frames")
	assert.NotContains(t, out.String(), "frames/s", "the bar stays off stdout")
	errs.Reset()
	require.Equal(t, 0, run([]string{"-agents", "100", "-frames", "20"}, &out, &errs), errs.String())
	assert.Contains(t, errs.String(), "frames", "a single run has one too")
	for _, quiet := range [][]string{{"-quiet"}, {"-json"}} {
		errs.Reset()
		require.Equal(t, 0, run(append([]string{"-agents", "100", "-frames", "20"}, quiet...), &out, &errs), errs.String())
		assert.Empty(t, errs.String(), "%v", quiet)
	}
}

// Written to a file or a pipe (a CI log), a run draws no progress bar: its
// carriage-return redraws would fill the log.
func TestNoProgressBarInALogFile(t *testing.T) {
	d := progressAfter
	defer func() { progressAfter = d }()
	progressAfter = 0
	f, err := os.Create(filepath.Join(t.TempDir(), "run.log"))
	require.NoError(t, err)
	defer f.Close()
	var out bytes.Buffer
	require.Equal(t, 0, run([]string{"-agents", "100", "-frames", "20"}, &out, f))
	require.Equal(t, 0, run([]string{"-sweep", "100,200", "-frames", "20"}, &out, f))
	logged, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	assert.NotContains(t, string(logged), "frames/s")
	assert.NotContains(t, string(logged), "\r")
}

func TestReportFlagErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	require.NoError(t, os.WriteFile(bad, []byte(`{"hello": 1}`+"\n"), 0o644))
	empty := filepath.Join(dir, "empty.jsonl")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-sweep", "10,x"}, 2, `-sweep "10,x": want comma-separated positive agent counts`},
		{[]string{"-sweep", "10", "-sweep-workers", "-1"}, 2, "-sweep-workers"}, // 0 is GOMAXPROCS (sweep_workers_test.go)
		{[]string{"-sweep", "10", "-shard", "4/4"}, 2, "-shard wants i/n with 0 ≤ i < n"},
		{[]string{"-sweep", "10", "-shard", "1"}, 2, "-shard wants i/n"},
		{[]string{"-merge"}, 2, "-merge needs the JSON-lines files"},
		{[]string{"-merge", filepath.Join(dir, "none.jsonl")}, 2, "none.jsonl"},
		{[]string{"-merge", bad}, 2, "bad.jsonl: report 1 is not a bench report"},
		{[]string{"-merge", empty}, 2, "-merge: no report in " + empty},
	} {
		var out, errs bytes.Buffer
		assert.Equal(t, tc.code, run(tc.args, &out, &errs), "%v", tc.args)
		assert.Contains(t, errs.String(), tc.msg, "%v", tc.args)
	}
}

// The n shards of a sweep hold every point once, and merged they give the
// single-process sweep: the same points with the same state hashes.
func TestShardsMergeToTheSingleSweep(t *testing.T) {
	args := []string{"-sweep", "100,150,200", "-sweep-workers", "1,2", "-frames", "10", "-seed", "5", "-json"}
	var single, errs bytes.Buffer
	require.Equal(t, 0, run(args, &single, &errs), errs.String())
	dir := t.TempDir()
	var files []string
	for i := range 4 {
		var out bytes.Buffer
		require.Equal(t, 0, run(append(args, "-shard", shardArg(i, 4)), &out, &errs), errs.String())
		name := filepath.Join(dir, "shard"+shardArg(i, 4)[:1]+".jsonl")
		require.NoError(t, os.WriteFile(name, out.Bytes(), 0o644))
		files = append(files, name)
	}
	assertMergedEqual(t, single.Bytes(), files)

	// shards that overlap are refused
	var out bytes.Buffer
	errs.Reset()
	assert.Equal(t, 2, run(append([]string{"-merge"}, files[0], files[0]), &out, &errs))
	assert.Contains(t, errs.String(), "appears twice")
}

func shardArg(i, n int) string { return strings.Join([]string{itoa(i), itoa(n)}, "/") }

func itoa(i int) string { return string(rune('0' + i)) }

// assertMergedEqual merges files with -merge (JSON, Markdown and the table)
// and checks the result holds the points and state hashes of the single
// sweep's JSON lines.
func assertMergedEqual(t *testing.T, single []byte, files []string) {
	t.Helper()
	hashes := func(reps []map[string]any) map[string]any {
		m := map[string]any{}
		for _, r := range reps {
			m[keyOf(r)] = r["state_hash"]
		}
		return m
	}
	want := jsonLines(t, single)
	md := filepath.Join(t.TempDir(), "merged.md")
	var out, errs bytes.Buffer
	require.Equal(t, 0, run(append([]string{"-merge", "-md", md}, files...), &out, &errs), errs.String())
	var got []map[string]any
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		got = append(got, jsonLines(t, b)...)
	}
	require.Len(t, got, len(want))
	assert.Equal(t, hashes(want), hashes(got))
	text, err := os.ReadFile(md)
	require.NoError(t, err)
	for _, r := range want {
		assert.Contains(t, out.String(), r["state_hash"].(string), "the merged table")
		assert.Contains(t, string(text), r["state_hash"].(string), "the merged Markdown")
	}
	// the merged table lists the points in sweep order
	var merged []*report
	for _, f := range files {
		fh, err := os.Open(f)
		require.NoError(t, err)
		rs, err := readReports(fh, f)
		fh.Close()
		require.NoError(t, err)
		merged = append(merged, rs...)
	}
	sortReports(merged)
	for i, r := range merged {
		assert.Equal(t, want[i]["agents"], float64(r.Agents))
		assert.Equal(t, want[i]["workers"], float64(r.Workers))
		assert.Equal(t, want[i]["state_hash"], r.StateHash)
	}
}

func keyOf(r map[string]any) string {
	b, _ := json.Marshal([]any{r["scenario"], r["agents"], r["workers"], r["seed"], r["frames"]})
	return string(b)
}

func TestMergeAsJSONLines(t *testing.T) {
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-sweep", "100,120", "-frames", "5", "-json"}, &out, &errs), errs.String())
	name := filepath.Join(t.TempDir(), "a.jsonl")
	require.NoError(t, os.WriteFile(name, out.Bytes(), 0o644))
	var merged bytes.Buffer
	require.Equal(t, 0, run([]string{"-merge", name, "-json"}, &merged, &errs), errs.String())
	assert.Equal(t, out.String(), merged.String(), "JSON lines round-trip through -merge")
}

// What the meter is told to leave out (the progress bar, a -save) is left
// out of the steady-state count, and never makes it negative.
func TestMeterExcludes(t *testing.T) {
	m := &frameMeter{frames: 4, warm: 2}
	m.frame(0, 1, nil)
	m.frame(1, 1, nil)
	m.frame(2, 3, nil)
	sink = make([]byte, 1<<10)
	m.exclude(3, 1000)
	m.frame(3, 2, nil)
	rep := &report{}
	m.fill(rep, nil, nil)
	assert.Zero(t, rep.AllocsPerFrameSteady)
	assert.Equal(t, 3.0, rep.MsMax)
	assert.Equal(t, 1000+m.primed, m.excluded, "-save's objects and parking.Prime's")
}

var sink []byte

// A swarm's goal moves at frame 300 (every 5 s at 60 frames/s): the field of
// the new goal is built in buffers reserved at Initialize
// (systems.FlowField.Reserve), so the second half of a 600-frame run, which
// holds that move, still allocates nothing.
func TestSteadyStateAllocatesNothingAcrossAGoalMove(t *testing.T) {
	gcOff(t)
	rep := steadyRun(t, crowdConfig{Scenario: "swarm", Agents: 300, Frames: 600, Seed: 1, Workers: 1})
	assert.Zero(t, rep.AllocsPerFrameSteady)
}

// The long runs of the README: 10,000 agents, 600 frames, steady-state
// allocations exactly 0 (ARCHAI_LONG=1; about 5 s each).
func TestSteadyStateAllocatesNothingLong(t *testing.T) {
	if os.Getenv("ARCHAI_LONG") == "" {
		t.Skip("ARCHAI_LONG=1 runs 10,000 agents for 600 frames")
	}
	gcOff(t)
	for _, scen := range []string{"guards", "swarm"} {
		rep := steadyRun(t, crowdConfig{Scenario: scen, Agents: 10000, Frames: 600, Seed: 1, Workers: 1})
		assert.Zero(t, rep.AllocsPerFrameSteady, scen)
	}
}

// steadyRun runs cfg up to three times and returns the first report whose
// steady state allocated nothing, or the last. A seeded run does the same
// work every time, so an allocation of archai's (a buffer growing on a rare
// path) shows in every run; what MemStats also counts from the runtime on a
// loaded machine (a new M when a thread blocks, a timer) does not repeat, and
// a run that shows 0 proves the frames allocated nothing.
func steadyRun(t *testing.T, cfg crowdConfig) *report {
	t.Helper()
	var rep *report
	for range 3 {
		var err error
		rep, err = runCrowd(cfg)
		require.NoError(t, err)
		if rep.AllocsPerFrameSteady == 0 {
			break
		}
	}
	return rep
}

// gcOff turns the collector off for the rest of the test. After a GC cycle
// the runtime itself now and then allocates an object (a semaphore record in
// gcMarkDone, a worker's parking record once the GC emptied the central
// cache, the scavenger's timer heap, a new M), which runtime.MemStats counts
// with the frames' though no frame asked for it; memory profiles of the
// bench's second half show only those.
func gcOff(t *testing.T) {
	old := debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetGCPercent(old) })
}
