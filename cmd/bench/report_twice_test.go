package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A run with a system installed twice reports it in -json ("installed_twice", what
// systems.Diagnose's Report.Twice holds) as the text report does; a well set-up run
// reports an empty list, not a missing key.
func TestJSONReportListsSystemsInstalledTwice(t *testing.T) {
	cfg := crowdConfig{Scenario: "guards", Agents: 100, Frames: 5, Seed: 1, Workers: 1, Sectors: -1}
	rep, err := runCrowd(cfg)
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, rep.writeJSON(&out))
	var m map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &m))
	require.Contains(t, m, "installed_twice")
	assert.Equal(t, []any{}, m["installed_twice"])

	cfg.addSystems = func(_ *arche.World, s *ecs.Scheduler) { s.Add(&systems.Movement{}) } // a second Movement
	rep, err = runCrowd(cfg)
	require.NoError(t, err)
	out.Reset()
	require.NoError(t, rep.writeJSON(&out))
	m = nil
	require.NoError(t, json.Unmarshal(out.Bytes(), &m))
	assert.Equal(t, []any{"movement"}, m["installed_twice"])
	out.Reset()
	rep.writeText(&out)
	assert.Contains(t, out.String(), "systems installed twice: movement")
}

// -json's "schedule_order" lists the pairs of systems in an order that works a frame
// late (Report.Order) found before the first frame or after the last, each once; a
// well set-up run reports an empty list, not a missing key.
func TestJSONReportListsScheduleOrder(t *testing.T) {
	_, _, _, order := diagnosticsJSON(systems.Report{Order: []string{"movement before steer"}},
		systems.Report{Order: []string{"movement before steer", "steer before pathfollow"}})
	assert.Equal(t, []string{"movement before steer", "steer before pathfollow"}, order)

	cfg := crowdConfig{Scenario: "swarm", Agents: 100, Frames: 5, Seed: 1, Workers: 1, Sectors: -1}
	rep, err := runCrowd(cfg)
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, rep.writeJSON(&out))
	var m map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &m))
	require.Contains(t, m, "schedule_order")
	assert.Equal(t, []any{}, m["schedule_order"])
}
