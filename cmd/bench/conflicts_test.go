package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConflictingFlagsSayWhichAndWhatToDo: every pair of flags that cannot run
// together is a usage error (exit 2) before anything runs, whose message names
// both flags and says which to drop; nothing is printed on stdout and no file
// is written.
func TestConflictingFlagsSayWhichAndWhatToDo(t *testing.T) {
	dir := t.TempDir()
	md, png, save := filepath.Join(dir, "out.md"), filepath.Join(dir, "out.png"), filepath.Join(dir, "s.json")
	lines := filepath.Join(dir, "r.jsonl")
	require.NoError(t, os.WriteFile(lines, []byte(`{"scenario":"guards","agents":10,"frames":2}`+"\n"), 0o644))
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		// -debugview with each report mode
		// (-debugview with -md or -plot on a single run is allowed: TestDebugviewWithReportFiles)
		{[]string{"-debugview", "on", "-md", md, "-sweep", "100"}, "bench: -debugview and -sweep cannot be used together"},
		{[]string{"-debugview", "on", "-sweep", "100"}, "bench: -debugview and -sweep cannot be used together: -debugview measures the viewer's cost in one run and -sweep's runs leave the viewer out; drop -sweep to measure it at -agents, or drop -debugview\n"},
		{[]string{"-debugview", "on", "-sweep-workers", "1,2"}, "bench: -debugview and -sweep-workers cannot be used together"},
		{[]string{"-debugview", "on", "-shard", "0/2"}, "bench: -debugview and -shard cannot be used together"},
		{[]string{"-debugview", "on", "-tutorial"}, "bench: -debugview and -tutorial cannot be used together"},
		{[]string{"-debugview", "on", "-compare"}, "bench: -debugview and -compare cannot be used together"},
		// -serve with each report mode, -debugview, -frames, -json
		{[]string{"-serve", "localhost:0", "-md", md}, "bench: -serve and -md cannot be used together: -serve runs the scenario in real time until interrupted and reports nothing; drop -md, or drop -serve to run the benchmark\n"},
		{[]string{"-serve", "localhost:0", "-plot", png}, "bench: -serve and -plot cannot be used together"},
		{[]string{"-serve", "localhost:0", "-sweep", "100"}, "bench: -serve and -sweep cannot be used together"},
		{[]string{"-serve", "localhost:0", "-tutorial"}, "bench: -serve and -tutorial cannot be used together"},
		{[]string{"-serve", "localhost:0", "-compare"}, "bench: -serve and -compare cannot be used together"},
		{[]string{"-serve", "localhost:0", "-debugview", "on"}, "bench: -serve and -debugview cannot be used together: -serve adds the viewer already, and -debugview measures the viewer's cost in a timed run; drop -debugview to watch, or drop -serve to measure\n"},
		{[]string{"-serve", "localhost:0", "-frames", "10"}, "bench: -serve and -frames cannot be used together: -serve runs until interrupted and prints no report; drop -frames\n"},
		{[]string{"-serve", "localhost:0", "-json"}, "bench: -serve and -json cannot be used together: -serve runs until interrupted and prints no report; drop -json\n"},
		{[]string{"-serve", "localhost:0", "-ratio"}, "bench: -serve and -ratio cannot be used together: -serve runs until interrupted and prints no report; drop -ratio\n"},
		{[]string{"-serve", "localhost:0", "-save", "x.json", "-save-at", "5"}, "bench: -serve and -save and -save-at cannot be used together: -serve runs until interrupted and saves nothing; drop -save and -save-at (save a measured run, then watch it: -load FILE -serve ADDR)\n"},
		{[]string{"-serve", "localhost:0", "-save-at", "5"}, "bench: -serve and -save-at cannot be used together"},
		{[]string{"-speed", "2"}, "bench: -speed paces -serve's real-time run; without -serve the benchmark runs as fast as it can: drop -speed, or add -serve ADDR\n"},
		// -save and -load with the reports of many runs
		{[]string{"-save", save, "-save-at", "1", "-sweep", "100"}, "bench: -save and -sweep cannot be used together: -save and -load work on one run; drop -sweep, or drop -save\n"},
		{[]string{"-load", save, "-tutorial"}, "bench: -load and -tutorial cannot be used together: -save and -load work on one run; drop -tutorial, or drop -load\n"},
		{[]string{"-save", save, "-save-at", "1", "-compare"}, "bench: -save and -compare cannot be used together"},
		{[]string{"-load", save, "-shard", "0/2"}, "bench: -load and -shard cannot be used together"},
		// -cpuprofile and -memprofile profile one measured run
		{[]string{"-cpuprofile", "cpu.out", "-sweep", "100"}, "bench: -cpuprofile and -sweep cannot be used together: -cpuprofile profiles the frames of one run and -sweep makes many; drop -sweep to profile the run at -agents, or drop -cpuprofile\n"},
		{[]string{"-memprofile", "mem.out", "-tutorial"}, "bench: -memprofile and -tutorial cannot be used together"},
		{[]string{"-cpuprofile", "cpu.out", "-serve", "localhost:0"}, "bench: -serve and -cpuprofile cannot be used together: -serve runs until interrupted and -cpuprofile profiles a measured run; drop -cpuprofile, or drop -serve to profile the benchmark\n"},
		{[]string{"-merge", lines, "-cpuprofile", "cpu.out"}, "drop -cpuprofile\n"},
		{[]string{"-scen", "x.map.scen", "-memprofile", "mem.out"}, "it takes no flag but -quiet: drop -memprofile\n"},
		// -compare and -merge take only the flags they use
		{[]string{"-compare", "-tutorial"}, "bench: -compare times A* and flow fields on the generated map of each agent count; it takes -agents, -sweep, -seed, -map, -json and -quiet: drop -tutorial\n"},
		{[]string{"-compare", "-md", md, "-ratio", "-frames", "5"}, "bench: -compare times A* and flow fields on the generated map of each agent count; it takes -agents, -sweep, -seed, -map, -json and -quiet: drop -frames, -md, -ratio\n"},
		{[]string{"-merge", lines, "-debugview", "on"}, "bench: -merge joins the reports saved in the files given and runs nothing; it takes -json, -md, -plot and -quiet: drop -debugview\n"},
		{[]string{"-merge", lines, "-save", save, "-save-at", "1", "-agents", "5"}, "bench: -merge joins the reports saved in the files given and runs nothing; it takes -json, -md, -plot and -quiet: drop -agents, -save, -save-at\n"},
		{[]string{"-sweep", "100", "-merge", lines}, "drop -sweep\n"},
		// a flag that takes a value, given none, swallows the next flag
		{[]string{"-debugview", "-md", md}, "bench: -debugview needs a value, off or on; it took the next flag, -md, as its value: write -debugview on (or off) before -md\n"},
		{[]string{"-debugview", "-plot", png}, "bench: -debugview needs a value, off or on; it took the next flag, -plot, as its value"},
		{[]string{"-map", "-agents", "10"}, "bench: -map needs a value; it took the next flag, -agents, as its value: write -map VALUE before -agents\n"},
		{[]string{"-md", "--plot=x.png"}, "bench: -md needs a value; it took the next flag, -plot, as its value"},
	} {
		var out, errs bytes.Buffer
		assert.Equal(t, 2, run(tc.args, &out, &errs), "%v", tc.args)
		assert.Contains(t, errs.String(), tc.msg, "%v", tc.args)
		assert.Empty(t, out.String(), "%v", tc.args)
		for _, f := range []string{md, png, save, "cpu.out", "mem.out"} {
			assert.NoFileExists(t, f, "%v", tc.args)
		}
	}
}
