package systems_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// ecs.NewClockSystem(math.MaxFloat64): frames 0 and 1 are a step over MaxDT
// (clock_dt_over_max, ClockDT set); at frame 2 the clock's Time, 2·MaxFloat64, is
// +Inf. Diagnose then reported clock_time_not_finite alone, the over-long step that
// caused it no longer; it now keeps ClockDT and names the step as the cause.
func TestDiagnoseNamesTheStepThatRanTheClockToInfinity(t *testing.T) {
	tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	w := arche.NewWorld()
	arche.AddResource(&w, grid.New(16, 16))
	sp, err := systems.NewSpawner(&w, systems.Mover{}, systems.Thinker{Tree: tree})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 4.5, Y: 4.5}, nil)
	s := ecs.NewScheduler(ecs.NewClockSystem(math.MaxFloat64), &systems.Spatial{}, &systems.Decision{},
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(&w)
	defer s.Finalize(&w)

	for frame := range 2 {
		s.Run(&w, 1)
		r := systems.Diagnose(&w)
		assert.Equal(t, systems.ClockDTOverMax, r.ClockFault, "frame %d", frame)
		assert.Equal(t, math.MaxFloat64, r.ClockDT, "frame %d", frame)
	}
	s.Run(&w, 1)
	clock := ecs.ClockOf(&w)
	require.Equal(t, int64(2), clock.Frame)
	require.True(t, math.IsInf(clock.Time, 1), "time %v", clock.Time)

	r := systems.Diagnose(&w)
	assert.Equal(t, systems.ClockTimeNotFinite, r.ClockFault, "%s", r)
	assert.Equal(t, math.MaxFloat64, r.ClockDT, "the cause is kept")
	assert.Equal(t, 1, r.Counts[systems.CauseThinkInvalid], "the agent's Think times are +Inf too: %s", r)
	assert.Equal(t, 2, r.Total(), "that agent and one clock finding: %s", r)
	assert.Equal(t, "diagnostics: 1 agent, 1 of them misconfigured (2 findings): think_invalid 1 (e.g. entity 1), clock time +Inf s (clock_time_not_finite: "+
		"no agent thinks on time) after steps of 1.7976931348623157e+308 s a frame (dt is in seconds: 1.0/60 for 60 frames a second)",
		r.String())
	b, err := json.Marshal(r)
	require.NoError(t, err, "ClockDT stays finite")
	assert.Contains(t, string(b), `"ClockDT":1.7976931348623157e+308`)
	assert.Contains(t, string(b), `"ClockFault":"clock_time_not_finite"`)

	// an infinite Time with a step of a frame (a program's own clock) has no such cause
	clock.DT = 1.0 / 60
	r = systems.Diagnose(&w)
	assert.Equal(t, systems.ClockTimeNotFinite, r.ClockFault)
	assert.Zero(t, r.ClockDT)
	assert.Equal(t, "diagnostics: 1 agent, 1 of them misconfigured (2 findings): think_invalid 1 (e.g. entity 1), clock time +Inf s (clock_time_not_finite: "+
		"no agent thinks on time)", r.String())
}
