package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeScen writes an open 8x8 MovingAI map, small.map, and a scenario of n queries
// on it, small.map.scen, into dir; it returns the scenario's path.
func writeScen(t *testing.T, dir string, n int) string {
	t.Helper()
	m := "type octile\nheight 8\nwidth 8\nmap\n" + strings.Repeat("........\n", 8)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "small.map"), []byte(m), 0o644))
	var b strings.Builder
	b.WriteString("version 1\n")
	for range n {
		fmt.Fprintf(&b, "0\tsmall.map\t8\t8\t0\t0\t3\t0\t3.00000000\n")
	}
	scen := filepath.Join(dir, "small.map.scen")
	require.NoError(t, os.WriteFile(scen, []byte(b.String()), 0o644))
	return scen
}

// TestScenRefusesFlagsItWouldIgnore: -scen checks A* and JPS and prints a text
// report; every other flag given but -quiet is a usage error (exit 2) before
// anything runs, as with -scenario reference, not a check that silently leaves it
// out (-save wrote no file and exited 0; -plot, -map, -scenario swarm, -agents and
// -workers were dropped the same way).
func TestScenRefusesFlagsItWouldIgnore(t *testing.T) {
	dir := t.TempDir()
	scen := writeScen(t, dir, 3)
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		args []string
		drop string
	}{
		{[]string{"-save", out, "-save-at", "1"}, "drop -save, -save-at\n"},
		{[]string{"-plot", out}, "drop -plot\n"},
		{[]string{"-md", out}, "drop -md\n"},
		{[]string{"-map", filepath.Join(dir, "small.map")}, "drop -map\n"},
		{[]string{"-scenario", "swarm"}, "drop -scenario\n"},
		{[]string{"-scenario", "guards"}, "drop -scenario\n"}, // given, even at its default
		{[]string{"-agents", "10", "-workers", "2"}, "drop -agents, -workers\n"},
		{[]string{"-json"}, "drop -json\n"},
		{[]string{"-frames", "5", "-seed", "2", "-lod", "-avoid", "orca"}, "drop -avoid, -frames, -lod, -seed\n"},
		{[]string{"-sweep", "100", "-compare", "-tutorial"}, "drop -compare, -sweep, -tutorial\n"},
		{[]string{"-serve", "localhost:0", "-debugview", "on"}, "drop -debugview, -serve\n"},
		{[]string{"-merge", out}, "drop -merge\n"}, // before the merge is tried
		{[]string{"-quiet", "-load", out}, "drop -load\n"},
	} {
		args := append([]string{"-scen", scen}, tc.args...)
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, run(args, &stdout, &stderr), "%v", args)
		assert.Equal(t, "bench: -scen checks A* and JPS against the scenario's queries on the map it names and prints a text report; it takes no flag but -quiet: "+tc.drop,
			stderr.String(), "%v", args)
		assert.Empty(t, stdout.String(), "%v", args)
		assert.NoFileExists(t, out, "%v", args)
	}
	// -merge's files come first; a -scen after them is refused as well
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run([]string{"-merge", out, "-scen", scen}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "drop -merge\n")

	// what it uses runs
	stdout.Reset()
	stderr.Reset()
	require.Equal(t, 0, run([]string{"-scen", scen, "-quiet"}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "JPS optimal: 3/3")
}

// TestScenErrorsSayWhatWentWrong: the .map given for its .map.scen, and a scenario
// without its map beside it, each say so, not only the parser's or the file
// system's error.
func TestScenErrorsSayWhatWentWrong(t *testing.T) {
	dir := t.TempDir()
	scen := writeScen(t, dir, 3)
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run([]string{"-scen", filepath.Join(dir, "small.map")}, &stdout, &stderr))
	assert.Equal(t, fmt.Sprintf("bench: -scen %s looks like a MovingAI .map file (it reads as a 8x8 map); -scen wants the scenario, %s, beside it\n",
		filepath.Join(dir, "small.map"), scen), stderr.String())
	assert.Empty(t, stdout.String())

	alone := filepath.Join(t.TempDir(), "small.map.scen") // a copy without the map
	data, err := os.ReadFile(scen)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(alone, data, 0o644))
	stderr.Reset()
	assert.Equal(t, 2, run([]string{"-scen", alone}, &stdout, &stderr))
	assert.Equal(t, fmt.Sprintf("bench: %s names the map \"small.map\" (query 0), looked for beside the scenario file, at %s: there is no such file\n",
		alone, filepath.Join(filepath.Dir(alone), "small.map")), stderr.String())
	assert.Empty(t, stdout.String())

	// a .map without its scenario beside it: the hint names the kind of file
	require.NoError(t, os.Rename(scen, scen+".away"))
	stderr.Reset()
	assert.Equal(t, 2, run([]string{"-scen", filepath.Join(dir, "small.map")}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "looks like a MovingAI .map file (it reads as a 8x8 map); -scen wants the scenario, a .map.scen file (with the map it names beside it)\n")
}

// TestScenProgressOnlyOnATerminal: the progress of a scenario of 2,000 queries or
// more is redrawn with carriage returns, so it goes to stderr only when that is not
// a file or a pipe (a log would join it into one line), and never with -quiet; as
// the crowd's progress bar.
func TestScenProgressOnlyOnATerminal(t *testing.T) {
	scen := writeScen(t, t.TempDir(), 2000)
	var stdout, stderr bytes.Buffer // not a file: as a terminal
	require.Equal(t, 0, run([]string{"-scen", scen}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stderr.String(), "round 1: 2000/2000 queries\r", "shown where it can be redrawn")
	assert.Contains(t, stdout.String(), "JPS optimal: 2000/2000")

	stderr.Reset()
	require.Equal(t, 0, run([]string{"-scen", scen, "-quiet"}, &stdout, &stderr))
	assert.Empty(t, stderr.String(), "-quiet")

	f, err := os.Create(filepath.Join(t.TempDir(), "stderr.log"))
	require.NoError(t, err)
	defer f.Close()
	stdout.Reset()
	require.Equal(t, 0, run([]string{"-scen", scen}, &stdout, f))
	logged, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	assert.Empty(t, string(logged), "no progress into a file")
	assert.Contains(t, stdout.String(), "JPS optimal: 2000/2000")
}

// TestMapGivenAScenarioSaysSo: a .map.scen given to -map is named as the scenario
// file it is, with the map it wants beside it (or the kind of file, when that map is
// not there), as -scen given a .map is; not only the map parser's "unexpected
// header line". A usage error, exit 2, before anything runs, in any mode.
func TestMapGivenAScenarioSaysSo(t *testing.T) {
	dir := t.TempDir()
	scen := writeScen(t, dir, 3)
	for _, args := range [][]string{
		{"-map", scen, "-agents", "10", "-frames", "1"},
		{"-map", scen, "-scenario", "swarm", "-sweep", "10,20", "-frames", "1"},
		{"-map", scen, "-compare", "-agents", "10"},
	} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, run(args, &stdout, &stderr), "%v", args)
		assert.Equal(t, fmt.Sprintf("bench: -map %s looks like a MovingAI .map.scen file (it reads as a scenario of 3 queries); -map wants the map, %s, beside it\n",
			scen, filepath.Join(dir, "small.map")), stderr.String(), "%v", args)
		assert.Empty(t, stdout.String(), "%v", args)
	}

	require.NoError(t, os.Remove(filepath.Join(dir, "small.map")))
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run([]string{"-map", scen, "-agents", "10", "-frames", "1"}, &stdout, &stderr))
	assert.Equal(t, fmt.Sprintf("bench: -map %s looks like a MovingAI .map.scen file (it reads as a scenario of 3 queries); -map wants the map, a .map file (its queries are on small.map)\n", scen),
		stderr.String())
}
