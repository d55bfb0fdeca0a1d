package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The rule of the exit status (the package doc, -help and the README say it): 2 for
// a usage error, found before the work begins, which the user fixes by changing the
// command line: a flag, value or name they typed, flags that do not go together, or
// a file they named (-map, -scen and the map it names, -load and the map it records,
// -merge's files) that is missing or is not the file the flag wants; 1 when the work
// began and failed (a -scen query not found optimal, a fault of the run, an output
// file that could not be written); 0 otherwise.
func TestExitStatusRule(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	const tiny = "type octile\nheight 2\nwidth 3\nmap\n...\n...\n"
	write("tiny.map", tiny)
	good := write("good.map.scen", "version 1\n0\ttiny.map\t3\t2\t0\t0\t2\t0\t2.00000000\n")
	wrong := write("wrong.map.scen", "version 1\n0\ttiny.map\t3\t2\t0\t0\t2\t0\t3.00000000\n")
	orphan := write("orphan.map.scen", "version 1\n0\tgone.map\t3\t2\t0\t0\t2\t0\t2.00000000\n")
	garbage := write("garbage.map", "this is not a map\n")
	badJSON := write("bad.jsonl", "{not json\n")
	empty := write("empty.jsonl", "")

	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"unknown flag", []string{"-nope"}, 2, "flag provided but not defined: -nope"},
		{"-agents 0", []string{"-agents", "0"}, 2, "-agents"},
		{"-avoid typo", []string{"-avoid", "ocra", "-agents", "10", "-frames", "1"}, 2, `-avoid ocra: unknown avoidance "ocra": want separation or orca`},
		{"-avoid typo, swarm", []string{"-scenario", "swarm", "-avoid", "ocra", "-agents", "10", "-frames", "1"}, 2, "-avoid ocra"},
		{"-avoid typo, reference (the conflict first)", []string{"-scenario", "reference", "-avoid", "ocra"}, 2, "-avoid ocra applies to the guard and swarm scenarios"},
		{"-map missing", []string{"-map", filepath.Join(dir, "nosuch.map"), "-agents", "10", "-frames", "1"}, 2, "-map " + filepath.Join(dir, "nosuch.map") + ": "},
		{"-map missing, swarm", []string{"-scenario", "swarm", "-map", filepath.Join(dir, "nosuch.map"), "-agents", "10", "-frames", "1"}, 2, "-map "},
		{"-map missing, sweep", []string{"-map", filepath.Join(dir, "nosuch.map"), "-sweep", "10,20", "-frames", "1"}, 2, "-map "},
		{"-map missing, compare", []string{"-compare", "-map", filepath.Join(dir, "nosuch.map"), "-agents", "10"}, 2, "-map "},
		{"-map not a map", []string{"-map", garbage, "-agents", "10", "-frames", "1"}, 2, "-map " + garbage + ": "},
		{"-scen missing", []string{"-scen", filepath.Join(dir, "x.map")}, 2, "x.map"},
		{"-scen missing scenario", []string{"-scen", filepath.Join(dir, "nosuch.map.scen")}, 2, "nosuch.map.scen"},
		{"-scen names a missing map", []string{"-scen", orphan}, 2, "there is no such file"},
		{"-scen not a scenario", []string{"-scen", garbage}, 2, "garbage.map"},
		{"-merge missing", []string{"-merge", filepath.Join(dir, "nosuch")}, 2, "nosuch"},
		{"-merge not JSON lines", []string{"-merge", badJSON}, 2, "bad.jsonl"},
		{"-merge no report", []string{"-merge", empty}, 2, "no report"},
		{"-load missing", []string{"-load", filepath.Join(dir, "nosuch.json")}, 2, "nosuch.json"},
		{"-scen query not optimal", []string{"-scen", wrong, "-quiet"}, 1, ""},
		{"-scen all optimal", []string{"-scen", good, "-quiet"}, 0, ""},
	} {
		var out, errs bytes.Buffer
		assert.Equal(t, tc.code, run(tc.args, &out, &errs), "%s: %v: %s", tc.name, tc.args, errs.String())
		assert.Contains(t, errs.String(), tc.msg, tc.name)
	}
}

// A save file records its -map; when that map has gone, -load is a usage error
// (exit 2) naming the save file's field, as a missing -map is.
func TestLoadOfARunWhoseMapHasGoneExits2(t *testing.T) {
	needMaps(t)
	dir := t.TempDir()
	text, err := os.ReadFile(maps + "/arena.map")
	require.NoError(t, err)
	mp := filepath.Join(dir, "arena.map")
	require.NoError(t, os.WriteFile(mp, text, 0o644))
	save := filepath.Join(dir, "run.json")
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-map", mp, "-agents", "20", "-frames", "2", "-save", save, "-save-at", "1", "-quiet"}, &out, &errs), errs.String())
	require.NoError(t, os.Remove(mp))
	errs.Reset()
	assert.Equal(t, 2, run([]string{"-load", save, "-frames", "1", "-quiet"}, &out, &errs), errs.String())
	assert.Contains(t, errs.String(), save+": meta.map_file "+mp+": ")
}

// -help states the rule (and the README, beside the table of flags).
func TestHelpStatesTheExitStatusRule(t *testing.T) {
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-help"}, &out, &errs))
	help := strings.Join(strings.Fields(errs.String()), " ")
	assert.Contains(t, help, "Exit status: 0 when the work is done; 2 for a usage error")
	assert.Contains(t, help, "1 when the work began and failed")
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	assert.Contains(t, string(readme), "Exit status: 0 when the work is done; 2 for a usage error")
}

// A flag the parser refuses (an unknown flag, a value of the wrong kind) gets
// the parser's line and one pointing to -help, not the whole flag list.
func TestAParseErrorIsTwoLines(t *testing.T) {
	for _, args := range [][]string{{"-dt", "0.5"}, {"-seed", "abc"}} {
		var out, errs bytes.Buffer
		require.Equal(t, 2, run(args, &out, &errs), "%v", args)
		lines := strings.Split(strings.TrimSpace(errs.String()), "\n")
		require.Len(t, lines, 2, "%v: %s", args, errs.String())
		assert.Equal(t, "bench: go run ./cmd/bench -help lists the flags", lines[1])
	}
}
