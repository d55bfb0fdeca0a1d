package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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
		{[]string{"-speed", "2"}, "bench: -speed paces -serve's real-time run; without -serve the benchmark runs as fast as it can\n"},
		{[]string{"-serve", "localhost:0", "-frames", "10"}, "bench: -serve runs until interrupted and prints no report; drop -frames\n"},
		{[]string{"-serve", "localhost:0", "-json"}, "bench: -serve runs until interrupted and prints no report; drop -json\n"},
		{[]string{"-scen", "x.map.scen", "-json"}, "bench: -scen prints a text report only; drop -json\n"},
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
