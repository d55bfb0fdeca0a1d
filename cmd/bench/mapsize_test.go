package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSwarmMapSizeAndSectors: -map-size sets the generated map's side, and
// the swarm runs with sector flow fields (-sectors), its goal moving every
// 5 s, with no misconfigured agent and the same state hash on 1 worker as
// on 2.
func TestSwarmMapSizeAndSectors(t *testing.T) {
	var out, errs bytes.Buffer
	code := run([]string{"-scenario", "swarm", "-agents", "400", "-frames", "320", "-map-size", "160", "-sectors", "32", "-json"}, &out, &errs)
	require.Equal(t, 0, code, errs.String())
	var rep map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	require.Equal(t, "generated 160x160 (seed 1)", rep["map"])
	require.Equal(t, 1.0, rep["goal_moves"], "the goal moved after 5 s")
	for k, v := range rep["diagnostics"].(map[string]any) {
		require.Zero(t, v, k)
	}
	// the same seed gives the same state on one worker
	out.Reset()
	require.Equal(t, 0, run([]string{"-scenario", "swarm", "-agents", "400", "-frames", "320", "-map-size", "160", "-sectors", "32", "-json", "-workers", "1"}, &out, &errs), errs.String())
	var one map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &one))
	require.Equal(t, rep["state_hash"], one["state_hash"])
}

// TestMapSizeOutOfRange: a -map-size outside 16..8192 is an error naming
// the range.
func TestMapSizeOutOfRange(t *testing.T) {
	var out, errs bytes.Buffer
	require.Equal(t, 2, run([]string{"-scenario", "swarm", "-agents", "10", "-frames", "1", "-map-size", "9"}, &out, &errs), "a usage error, as other bad flags")
	require.Contains(t, errs.String(), "-map-size 9: want 16 to 8192 cells")
}

// TestSectorSideAuto: -sectors -1 picks sector fields only beyond
// SectorAutoSide.
func TestSectorSideAuto(t *testing.T) {
	require.Equal(t, 0, sectorSide(crowdConfig{Sectors: -1, Agents: 100000}, nil), "832² for 100,000 agents")
	require.Equal(t, 0, sectorSide(crowdConfig{Sectors: -1}, grid.New(SectorAutoSide, 10)))
	require.Equal(t, DefaultSectorSide, sectorSide(crowdConfig{Sectors: -1}, grid.New(10, 4096)))
	require.Equal(t, 16, sectorSide(crowdConfig{Sectors: 16}, nil))
	require.Equal(t, 0, sectorSide(crowdConfig{Sectors: 0}, grid.New(4096, 16)))
}

// TestSectorsFlagErrors: a -sectors the run cannot use is a usage error
// (exit 2) naming the allowed values, not a panic at Initialize or a value
// silently ignored.
func TestSectorsFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-scenario", "swarm", "-sectors", "3"}, "bench: -sectors 3: want -1 (automatic: 64 on maps over 1024 cells a side), 0 (whole-grid fields) or a sector side of 4 to 256 cells\n"},
		{[]string{"-scenario", "swarm", "-sectors", "300"}, "bench: -sectors 300: want -1"},
		{[]string{"-scenario", "swarm", "-sectors", "-7"}, "bench: -sectors -7: want -1"},
		{[]string{"-sectors", "64"}, "bench: -sectors applies to the swarm scenario (its flow fields); -scenario guards has none\n"},
		{[]string{"-scenario", "reference", "-sectors", "0"}, "-scenario reference has none"},
	} {
		var out, errs bytes.Buffer
		assert.Equal(t, 2, run(append(tc.args, "-agents", "50", "-frames", "1"), &out, &errs), "%v", tc.args)
		assert.Contains(t, errs.String(), tc.msg, "%v", tc.args)
		assert.Empty(t, out.String(), "%v", tc.args)
	}
	var out, errs bytes.Buffer
	for _, n := range []string{"4", "256", "0", "-1"} {
		out.Reset()
		assert.Equal(t, 0, run([]string{"-scenario", "swarm", "-sectors", n, "-agents", "50", "-frames", "2"}, &out, &errs), "-sectors %s: %s", n, errs.String())
	}
}
