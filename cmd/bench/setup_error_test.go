package main

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A fault of setup (a system whose resource the world lacks, or with an unusable
// setting) ends a run with the *ecs.SetupError as its error, which run prints as one
// line ("bench: systems: ...") with exit status 1, not a panic trace.
func TestCrowdSetupFaultIsAnError(t *testing.T) {
	for _, tc := range []struct {
		name string
		sys  ecs.System
		kind error
		msg  string
	}{
		{"missing resource", &systems.GOAP{}, ecs.ErrMissingResource,
			"systems: GOAP: the world has no *goap.Registry resource: add the registry of the agents' domains with arche.AddResource(w, registry) before Initialize"},
		{"bad setting", &systems.LOD{Levels: []systems.LODLevel{{Distance: -1, Interval: 0.1}}}, ecs.ErrSettings, "systems: LOD.Levels[0] is {Distance: -1, Interval: 0.1}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := crowdConfig{Scenario: "guards", Agents: 50, Frames: 5, Seed: 1, Workers: 1, Sectors: -1}
			cfg.addSystems = func(_ *arche.World, s *ecs.Scheduler) { s.Add(tc.sys) }
			var rep *report
			var err error
			require.NotPanics(t, func() { rep, err = runCrowd(cfg) })
			assert.Nil(t, rep)
			var se *ecs.SetupError
			require.ErrorAs(t, err, &se)
			assert.True(t, errors.Is(err, tc.kind), "%v", err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

func TestServeSetupFaultExitsWithOneLine(t *testing.T) {
	cfg := crowdConfig{Scenario: "swarm", Agents: 50, Seed: 1, Workers: 1, Sectors: -1}
	cfg.addSystems = func(_ *arche.World, s *ecs.Scheduler) { s.Add(&systems.GOAP{}) }
	var out, errs bytes.Buffer
	code := runServe(context.Background(), cfg, "127.0.0.1:0", 0, &out, &errs)
	assert.Equal(t, 1, code)
	assert.Equal(t, "bench: systems: GOAP: the world has no *goap.Registry resource: add the registry of the agents' domains with arche.AddResource(w, registry) before Initialize\n", errs.String())
	assert.Empty(t, out.String(), "nothing served")
}
