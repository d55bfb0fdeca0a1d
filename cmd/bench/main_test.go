package main

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"testing"

	"github.com/archai-go/archai/systems"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const maps = "../../../shared/maps"

func TestCrowdJSONReport(t *testing.T) {
	var out, errs bytes.Buffer
	code := run([]string{"-agents", "500", "-frames", "60", "-seed", "3", "-json"}, &out, &errs)
	require.Equal(t, 0, code, errs.String())
	var rep map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	for _, k := range []string{"agents", "frames", "ms_per_frame_median", "ms_per_frame_p95",
		"ns_per_agent_frame", "allocs_per_frame", "systems", "state_hash"} {
		assert.Contains(t, rep, k)
	}
	assert.Equal(t, 500.0, rep["agents"])
	assert.Equal(t, 60.0, rep["frames"])
	sys := rep["systems"].(map[string]any)
	for _, k := range []string{"perception", "decision", "pathqueue", "steer", "movement"} {
		assert.Contains(t, sys, k)
	}
	assert.Regexp(t, `^[0-9a-f]{16}$`, rep["state_hash"])

	// the same seed gives the same hash
	var again bytes.Buffer
	require.Equal(t, 0, run([]string{"-agents", "500", "-frames", "60", "-seed", "3", "-json"}, &again, &errs))
	var rep2 map[string]any
	require.NoError(t, json.Unmarshal(again.Bytes(), &rep2))
	assert.Equal(t, rep["state_hash"], rep2["state_hash"])
}

func TestCrowdTextReportAndBadFlags(t *testing.T) {
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-agents", "200", "-frames", "30"}, &out, &errs), errs.String())
	for _, want := range []string{"frame time", "ns per agent per frame", "heap allocs", "agents thought per frame", "served", "state hash"} {
		assert.Contains(t, out.String(), want)
	}
	// usage errors exit 2 (exit_codes_test.go), each with a message naming the problem
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-agents", "0"}, 2, "bench: -agents 0: want a positive number of agents, 1 to 10240000\n"},
		{[]string{"-agents", "-5"}, 2, "bench: -agents -5: want a positive number of agents, 1 to 10240000\n"},
		{[]string{"-frames", "-5"}, 2, "bench: -frames -5: want a positive number of frames, 1 to 10000000\n"},
		{[]string{"-agents", "-1", "-frames", "0"}, 2, "bench: -agents -1: want a positive number"},
		{[]string{"-nope"}, 2, "flag provided but not defined: -nope\n"},
		{[]string{"-map", "does-not-exist.map"}, 2, "bench: -map does-not-exist.map: grid: open does-not-exist.map: "},
		{[]string{"-scen", "does-not-exist.map.scen"}, 2, "bench: grid: open does-not-exist.map.scen: "},
	} {
		out.Reset()
		errs.Reset()
		assert.Equal(t, tc.code, run(tc.args, &out, &errs), "%v", tc.args)
		assert.Contains(t, errs.String(), tc.msg, "%v", tc.args)
		assert.Empty(t, out.String(), "%v", tc.args)
	}
}

func TestScenarioFiles(t *testing.T) {
	needMaps(t)
	for _, tc := range []struct{ file, optimal string }{
		{"arena.map.scen", "optimal: 130/130"},
		{"rmtst01.map.scen", "optimal: 470/470"},
	} {
		var out, errs bytes.Buffer
		code := run([]string{"-scen", maps + "/" + tc.file}, &out, &errs)
		assert.Equal(t, 0, code, "%s: %s%s", tc.file, out.String(), errs.String())
		assert.Contains(t, out.String(), tc.optimal)
		assert.Regexp(t, regexp.MustCompile(`mean time per query: [0-9.]+ µs`), out.String())
	}
}

func TestCrowdOnMovingAIMap(t *testing.T) {
	needMaps(t)
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-map", maps + "/arena.map", "-agents", "300", "-frames", "60"}, &out, &errs), errs.String())
	assert.Contains(t, out.String(), "arena.map 49x49")
}

func TestSwarmScenarioReport(t *testing.T) {
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-scenario", "swarm", "-agents", "500", "-frames", "60", "-json", "-workers", "2"}, &out, &errs), errs.String())
	var rep map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	assert.Equal(t, "swarm", rep["scenario"])
	assert.Equal(t, 2.0, rep["workers"])
	assert.Contains(t, rep["systems"], "flowfield")
	assert.Contains(t, rep["systems"], "pathfollow")
	assert.Equal(t, "separation", rep["avoid"], "the default local avoidance")
	assert.NotContains(t, rep, "branches", "guard-only figures are left out")
	assert.Equal(t, 2, run([]string{"-scenario", "nope", "-agents", "10", "-frames", "1"}, &out, &errs), "a usage error (flagcheck_test.go)")
}

func TestAvoidFlag(t *testing.T) {
	for _, scen := range []string{"swarm", "guards"} {
		var out, errs bytes.Buffer
		require.Equal(t, 0, run([]string{"-scenario", scen, "-agents", "50", "-frames", "2", "-avoid", "separation"}, &out, &errs), errs.String())
		out.Reset()
		require.Equal(t, 0, run([]string{"-scenario", scen, "-agents", "50", "-frames", "2", "-avoid", "orca", "-json"}, &out, &errs), errs.String())
		var rep map[string]any
		require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
		assert.Equal(t, "orca", rep["avoid"])
		assert.Contains(t, rep["systems"], "orca", "the ORCA system runs")
		assert.Zero(t, rep["diagnostics"].(map[string]any)["orca_invalid"])
		errs.Reset()
		assert.Equal(t, 2, run([]string{"-scenario", scen, "-agents", "50", "-frames", "2", "-avoid", "rvo"}, &out, &errs), "a usage error (exit_codes_test.go)")
		assert.Contains(t, errs.String(), `-avoid rvo: unknown avoidance "rvo": want separation or orca`)
	}
}

// needMaps skips a test when ../shared/maps is absent, except on CI
// (CI=true), where the maps must be there.
func needMaps(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(maps); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI: the MovingAI maps are missing at %s", maps)
		}
		t.Skip("no ../shared/maps")
	}
}

// Both scenarios spawn well set-up agents: systems.Diagnose counts nothing,
// before the first frame or after the last.
func TestScenariosHaveNoMisconfiguredAgents(t *testing.T) {
	for _, scen := range []string{"guards", "swarm"} {
		var out, errs bytes.Buffer
		require.Equal(t, 0, run([]string{"-scenario", scen, "-agents", "300", "-frames", "60", "-json", "-workers", "1"}, &out, &errs), errs.String())
		var rep struct {
			Diagnostics  map[string]int `json:"diagnostics"`
			ScriptErrors *uint64        `json:"script_errors"`
			ClockFaults  *uint64        `json:"clock_faults"`
		}
		require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
		require.NotNil(t, rep.ScriptErrors, "%s: script_errors is reported", scen)
		require.NotNil(t, rep.ClockFaults, "%s: clock_faults is reported", scen)
		assert.Zero(t, *rep.ScriptErrors, "%s: Decision's script errors", scen)
		assert.Zero(t, *rep.ClockFaults, "%s: Decision's clock faults", scen)
		require.Len(t, rep.Diagnostics, int(systems.NumCauses), "%s: every cause is listed", scen)
		for c := range systems.NumCauses {
			assert.Zero(t, rep.Diagnostics[c.String()], "%s: %s", scen, c)
		}
		out.Reset()
		require.Equal(t, 0, run([]string{"-scenario", scen, "-agents", "300", "-frames", "30", "-workers", "1"}, &out, &errs), errs.String())
		assert.Contains(t, out.String(), "diagnostics      no misconfigured agent")
	}
}
