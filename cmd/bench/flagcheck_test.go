package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFlagUseErrors: values out of range and flags the chosen mode would
// ignore are usage errors (exit 2) with a message naming the problem, before
// anything runs.
func TestFlagUseErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-scenario", "foo"}, "bench: unknown scenario \"foo\" (guards, swarm or reference)\n"},
		{[]string{"-save", "x.json", "-save-at", "0"}, "bench: -save-at 0 is out of range: it counts frames since the start of the run, 1 or more (up to -frames)\n"},
		{[]string{"-save", "x.json", "-save-at", "-3"}, "bench: -save-at -3 is out of range"},
		{[]string{"-workers", "-2"}, "bench: -workers -2: want 0 (GOMAXPROCS) or a positive number of goroutines\n"},
		{[]string{"-scen", "x.map.scen", "-json"}, "bench: -scen checks A* and JPS against the scenario's queries on the map it names and prints a text report; it takes no flag but -quiet: drop -json\n"},
		// pairs of flags that conflict: TestConflictingFlagsSayWhichAndWhatToDo
	} {
		var out, errs bytes.Buffer
		assert.Equal(t, 2, run(tc.args, &out, &errs), "%v", tc.args)
		assert.Contains(t, errs.String(), tc.msg, "%v", tc.args)
		assert.Empty(t, out.String(), "%v", tc.args)
	}
	// -save without -save-at still says what it needs
	var out, errs bytes.Buffer
	assert.Equal(t, 2, run([]string{"-save", "x.json"}, &out, &errs))
	assert.Contains(t, errs.String(), "bench: -save needs -save-at N")
}

// TestReferenceRefusesFlagsItWouldIgnore: the reference loop has no Arche world, no
// decisions and one way to avoid; a flag it would ignore is a usage error (exit 2)
// before anything runs, not a run that silently leaves it out (-save wrote no file
// and exited 0). The flags it does use still run.
func TestReferenceRefusesFlagsItWouldIgnore(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "r.json")
	ref := []string{"-scenario", "reference", "-agents", "200", "-frames", "5"}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-save", saved, "-save-at", "3"}, "bench: -save: the reference loop (-scenario reference) runs without Arche and has no world to save; save a guards or swarm run\n"},
		{[]string{"-save", saved}, "has no world to save"},
		{[]string{"-save-at", "3"}, "has no world to save"},
		{[]string{"-load", saved}, "bench: -load continues a saved guards or swarm run, whose scenario the file records; leave out -scenario reference\n"},
		{[]string{"-debugview", "on"}, "bench: -debugview adds the live debugger's system to a scenario's world; the reference loop (-scenario reference) runs without Arche and has none\n"},
		{[]string{"-debugview", "off"}, "has none"},
		{[]string{"-lod"}, "bench: -lod and -think-budget apply to the guard scenario; the reference loop does not think\n"},
		{[]string{"-think-budget", "100"}, "the reference loop does not think"},
		{[]string{"-avoid", "orca"}, "bench: -avoid orca applies to the guard and swarm scenarios; the reference loop always separates with a force\n"},
		{[]string{"-ratio"}, "-scenario reference runs the loop alone"},
		{[]string{"-map-size", "64"}, "-map-size is not supported by the reference loop"},
		{[]string{"-sectors", "16"}, "-scenario reference has none"},
		{[]string{"-tutorial"}, "-tutorial compares the guard scenario"},
		{[]string{"-sweep", "100", "-lod"}, "the reference loop does not think"},
	} {
		args := append(append([]string{}, ref...), tc.args...)
		var out, errs bytes.Buffer
		assert.Equal(t, 2, run(args, &out, &errs), "%v", args)
		assert.Contains(t, errs.String(), tc.msg, "%v", args)
		assert.Empty(t, out.String(), "%v", args)
		assert.NoFileExists(t, saved, "%v", args)
	}
	var out, errs bytes.Buffer // -serve (no -frames: it runs until interrupted)
	assert.Equal(t, 2, run([]string{"-scenario", "reference", "-serve", "localhost:0"}, &out, &errs))
	assert.Contains(t, errs.String(), "-serve runs the guards or swarm scenario, not \"reference\"")
	assert.Empty(t, out.String())

	// what it uses, or what says what it does anyway, runs
	out.Reset()
	require.Equal(t, 0, run(append(append([]string{}, ref...), "-avoid", "separation", "-lod=false", "-think-budget", "0", "-json"), &out, &errs), errs.String())
	assert.Contains(t, out.String(), `"scenario": "reference"`)
}

// TestLoadRefusesAFileOfAnotherScenario: a save file's meta.scenario other than guards
// or swarm (none is saved by the reference loop) is refused before a world is built.
func TestLoadRefusesAFileOfAnotherScenario(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "g.json")
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-agents", "50", "-frames", "2", "-save", file, "-save-at", "1", "-json"}, &out, &errs), errs.String())
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	edited := bytes.Replace(data, []byte(`"scenario":"guards"`), []byte(`"scenario":"reference"`), 1)
	require.NotEqual(t, data, edited, "the meta records the scenario")
	require.NoError(t, os.WriteFile(file, edited, 0o644))
	out.Reset()
	assert.Equal(t, 2, run([]string{"-load", file, "-frames", "2"}, &out, &errs))
	assert.Contains(t, errs.String(), `meta.scenario "reference": only guards and swarm runs are saved`)
	assert.Empty(t, out.String())
}

// TestSweepHeaderAndQuietBar: a sweep of one point says "1 run"; a run that ends
// before the bar is due draws nothing, not even at its finish.
func TestSweepHeaderAndQuietBar(t *testing.T) {
	d := progressAfter
	defer func() { progressAfter = d }()
	progressAfter = time.Hour
	var out, errs bytes.Buffer
	assert.Equal(t, 0, run([]string{"-sweep", "100", "-frames", "5"}, &out, &errs), errs.String())
	assert.Contains(t, out.String(), "archai bench: 1 run, 5 frames each")
	assert.Empty(t, errs.String(), "the bar was never due")
	out.Reset()
	assert.Equal(t, 0, run([]string{"-sweep", "100,120", "-frames", "5"}, &out, &errs), errs.String())
	assert.Contains(t, out.String(), "archai bench: 2 runs, 5 frames each")
}
