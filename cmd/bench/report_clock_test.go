package main

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clockSetter is a program's own system that sets the world's clock step at every
// Update, after the scenario's ClockSystem.
type clockSetter struct {
	dt    float64
	clock *ecs.Clock
}

func (s *clockSetter) Initialize(w *arche.World) { s.clock = ecs.ClockOf(w) }
func (s *clockSetter) Update(w *arche.World)     { s.clock.DT = s.dt }
func (s *clockSetter) Finalize(w *arche.World)   {}

// A run whose clock a program's system makes unusable (a NaN step) or steps in
// milliseconds reports it in -json by name ("clock_findings": systems.Report.ClockFault), never
// as a number JSON cannot hold (a NaN made encoding/json fail), and in the text
// report's diagnostics; a well set-up run reports an empty list, not a missing key.
func TestJSONReportNamesTheClocksFault(t *testing.T) {
	for _, c := range []struct {
		dt   float64 // 0: no clockSetter
		want []any
		text string
	}{
		{0, []any{}, "diagnostics      no misconfigured agent"},
		{math.NaN(), []any{"clock_dt_not_finite"}, "clock step NaN s a frame (clock_dt_not_finite"},
		{math.Inf(1), []any{"clock_dt_not_finite"}, "clock step +Inf s a frame (clock_dt_not_finite"},
		{-1.0 / 60, []any{"clock_dt_not_positive"}, "clock_dt_not_positive"},
		{16.7, []any{"clock_dt_over_max"}, "clock step 16.7 s a frame (dt is in seconds"},
	} {
		cfg := crowdConfig{Scenario: "swarm", Agents: 100, Frames: 3, Seed: 1, Workers: 1, Sectors: -1}
		if c.dt != 0 {
			cfg.addSystems = func(_ *arche.World, s *ecs.Scheduler) { s.Add(&clockSetter{dt: c.dt}) }
		}
		rep, err := runCrowd(cfg)
		require.NoError(t, err, "dt %v", c.dt)
		var out bytes.Buffer
		require.NoError(t, rep.writeJSON(&out), "dt %v", c.dt)
		var m map[string]any
		require.NoError(t, json.Unmarshal(out.Bytes(), &m))
		require.Contains(t, m, "clock_findings")
		assert.Equal(t, c.want, m["clock_findings"], "dt %v", c.dt)
		out.Reset()
		rep.writeText(&out)
		assert.Contains(t, out.String(), c.text, "dt %v", c.dt)
	}
}
