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

// TestSweepListsReplaceSingleRunFlags: -sweep gives every run's agent count and
// -sweep-workers every run's worker count, so -agents beside -sweep (also with
// -compare) and -workers beside -sweep-workers were silently ignored (-sweep 1000
// -agents 2000 ran 1,000 agents, exit 0). Each pair is a usage error before anything
// runs, naming both flags and what to do; the flags alone, or the other pairs
// (-agents with -sweep-workers, -workers with -sweep), still run.
func TestSweepListsReplaceSingleRunFlags(t *testing.T) {
	md := filepath.Join(t.TempDir(), "x.md")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-sweep", "10", "-agents", "20"}, "bench: -sweep and -agents cannot be used together: -sweep gives the agent counts of every run, so -agents would be ignored; drop -agents (put its count in the -sweep list), or drop -sweep\n"},
		{[]string{"-agents", "20", "-sweep", "10,20", "-md", md}, "bench: -sweep and -agents cannot be used together"},
		{[]string{"-compare", "-sweep", "10", "-agents", "20"}, "bench: -sweep and -agents cannot be used together"},
		{[]string{"-sweep-workers", "1", "-workers", "2"}, "bench: -sweep-workers and -workers cannot be used together: -sweep-workers gives the worker counts of every run, so -workers would be ignored; drop -workers (put its count in the -sweep-workers list), or drop -sweep-workers\n"},
		{[]string{"-sweep-workers", "1,2", "-workers", "0", "-shard", "0/2"}, "bench: -sweep-workers and -workers cannot be used together"},
		// -ratio with the reference loop: with -sweep it was found once the sweep ran (exit 1)
		{[]string{"-scenario", "reference", "-ratio", "-sweep", "10"}, "bench: -ratio compares a guards or swarm run with the reference loop; -scenario reference runs the loop alone: drop -ratio, or choose -scenario guards or swarm\n"},
		{[]string{"-scenario", "reference", "-ratio", "-sweep-workers", "1"}, "-scenario reference runs the loop alone"},
	} {
		args := append(tc.args, "-frames", "1", "-quiet")
		var out, errs bytes.Buffer
		assert.Equal(t, 2, run(args, &out, &errs), "%v", args)
		assert.Contains(t, errs.String(), tc.msg, "%v", args)
		assert.Empty(t, out.String(), "%v: nothing ran", args)
		assert.NoFileExists(t, md, "%v", args)
	}
	for _, args := range [][]string{
		{"-sweep", "10", "-workers", "1"},
		{"-sweep-workers", "1", "-agents", "10"},
		{"-scenario", "reference", "-ratio=false", "-agents", "10"},
	} {
		args = append(args, "-frames", "1", "-quiet", "-json")
		var out, errs bytes.Buffer
		assert.Equal(t, 0, run(args, &out, &errs), "%v: %s", args, errs.String())
		assert.Regexp(t, `"agents": ?10,`, out.String(), "%v", args)
	}
}

// TestFlagPairsWorkOrAreRefused: the pairs of an audit of silently ignored flags that
// no other test covered, each either refused before anything runs (exit 2, naming the
// flag) or in effect.
func TestFlagPairsWorkOrAreRefused(t *testing.T) {
	dir := t.TempDir()
	save, m := filepath.Join(dir, "s.json"), filepath.Join(dir, "open.map")
	require.NoError(t, os.WriteFile(m, []byte("type octile\nheight 16\nwidth 16\nmap\n"+strings.Repeat(strings.Repeat(".", 16)+"\n", 16)), 0o644))
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-agents", "20", "-frames", "2", "-save", save, "-save-at", "1", "-quiet"}, &out, &errs), errs.String())
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-compare", "-scenario", "swarm"}, "it takes -agents, -sweep, -seed, -map, -json and -quiet: drop -scenario\n"},
		{[]string{"-scenario", "guards", "-sectors", "16"}, "-sectors applies to the swarm scenario (its flow fields); -scenario guards has none"},
		{[]string{"-load", save, "-seed", "3"}, "[-seed] come from it; leave them out"},
		{[]string{"-load", save, "-map", m}, "[-map] come from it; leave them out"},
	} {
		out.Reset()
		errs.Reset()
		assert.Equal(t, 2, run(append(tc.args, "-quiet"), &out, &errs), "%v", tc.args)
		assert.Contains(t, errs.String(), tc.msg, "%v", tc.args)
		assert.Empty(t, out.String(), "%v", tc.args)
	}
	// -ratio with -sweep: every point has its reference run and ratio
	out.Reset()
	require.Equal(t, 0, run([]string{"-ratio", "-sweep", "10,20", "-frames", "2", "-json"}, &out, &errs), errs.String())
	reps := jsonLines(t, out.Bytes())
	require.Len(t, reps, 2)
	for _, r := range reps {
		assert.Greater(t, r["ratio_to_reference"], 0.0)
	}
}

// Review finding: an empty list is no sweep (one run at -agents, with -workers), as a
// script passing -sweep "$COUNTS" with COUNTS unset gives it; with -agents or -workers
// beside it, it was refused as if the list replaced them.
func TestEmptySweepListKeepsSingleRunFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-sweep", "", "-agents", "20"},
		{"-sweep-workers", "", "-workers", "1"},
		{"-compare", "-sweep", "", "-agents", "20"},
	} {
		if args[0] != "-compare" { // it takes no -frames
			args = append(args, "-frames", "1")
		}
		var out, errs bytes.Buffer
		assert.Zero(t, run(append(args, "-quiet"), &out, &errs), "%v: %s", args, errs.String())
		assert.NotContains(t, errs.String(), "cannot be used together", "%v", args)
	}
}

// Review finding: -sweep " " -agents 10 (a script's COUNTS=" ") was refused as
// "-sweep and -agents cannot be used together", telling the user to drop -agents,
// which would not mend it: the list is blank, not empty, and refused alone too. A
// malformed list beside its single-run flag is refused for the list (exit 2, nothing
// run); a blank one says how to ask for no sweep.
func TestMalformedSweepListBesideItsSingleFlagNamesTheList(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-sweep", " ", "-agents", "10"}, "bench: -sweep \" \" is blank: want comma-separated agent counts, e.g. 1000,10000, or an empty list (-sweep \"\") for one run at -agents\n"},
		{[]string{"-sweep", " "}, "bench: -sweep \" \" is blank"},
		{[]string{"-compare", "-sweep", "\t", "-agents", "10"}, "bench: -sweep \"\\t\" is blank"},
		{[]string{"-sweep", "x", "-agents", "10"}, "bench: -sweep \"x\": want comma-separated positive agent counts"},
		{[]string{"-sweep-workers", " ", "-workers", "2"}, "bench: -sweep-workers \" \" is blank: want comma-separated worker counts, e.g. 0,1,2, or an empty list (-sweep-workers \"\") for one run at -workers\n"},
		{[]string{"-sweep-workers", "1,,2", "-workers", "2"}, "bench: -sweep-workers \"1,,2\": want comma-separated worker counts"},
	} {
		args := tc.args
		if args[0] != "-compare" {
			args = append(args, "-frames", "1")
		}
		var out, errs bytes.Buffer
		assert.Equal(t, 2, run(append(args, "-quiet"), &out, &errs), "%v", args)
		assert.Contains(t, errs.String(), tc.msg, "%v", args)
		assert.NotContains(t, errs.String(), "cannot be used together", "%v", args)
		assert.Empty(t, out.String(), "%v: nothing ran", args)
	}
}
