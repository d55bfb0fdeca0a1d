package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A newcomer's RTS wrote NaN, 0, −1, 1e6 and 1/30 to ecs.ClockOf(w).DT between frames
// to change the step: the ClockSystem stepped its own 1/60 and Diagnose said "no
// misconfiguration". It now reports clock_dt_written (one finding) naming the value,
// the step used and how to set the system's DT, from that frame on; a Diagnostics
// check many frames later still sees it. A NaN Time written is clock_time_written.
func TestDiagnoseReportsAClockDTWrittenBetweenFrames(t *testing.T) {
	for _, c := range []struct {
		dt, time float64
		fault    systems.ClockFault
		says     string
	}{
		{math.NaN(), 0, systems.ClockDTWritten, "Clock.DT written between frames (last NaN, 1 frames), the ClockSystem stepped its own DT 0.016666666666666666"},
		{0, 0, systems.ClockDTWritten, "(last 0, 1 frames)"},
		{-1, 0, systems.ClockDTWritten, "(last -1, 1 frames)"},
		{1e6, 0, systems.ClockDTWritten, "(last 1e+06, 1 frames)"},
		{1.0 / 30, 0, systems.ClockDTWritten, "(last 0.03333333333333333, 1 frames)"},
		{0, math.NaN(), systems.ClockTimeWritten, "Clock.Time written NaN between frames (1 frames)"},
	} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(16, 16))
		sp, err := systems.NewSpawner(w, systems.Mover{})
		require.NoError(t, err)
		sp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, nil)
		diag := &systems.Diagnostics{Every: 60}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{}, &systems.PathFollow{},
			&systems.Steer{}, &systems.Movement{}, diag)
		require.NoError(t, s.InitializeChecked(w))
		s.Run(w, 5)
		require.Equal(t, systems.ClockUsable, systems.Diagnose(w).ClockFault)
		if c.fault == systems.ClockDTWritten {
			ecs.ClockOf(w).DT = c.dt
		} else {
			ecs.ClockOf(w).Time = c.time
		}
		s.Run(w, 120)
		assert.Equal(t, 1.0/60, ecs.ClockOf(w).DT)
		for _, r := range []systems.Report{systems.Diagnose(w), diag.Report} {
			assert.Equal(t, c.fault, r.ClockFault, "dt %v time %v: %s", c.dt, c.time, r)
			assert.Equal(t, 1, r.Total(), "%s", r)
			assert.Contains(t, r.String(), c.says)
			assert.Contains(t, r.String(), c.fault.String())
		}
		if c.fault == systems.ClockDTWritten {
			assert.Contains(t, systems.Diagnose(w).String(), "set the ClockSystem's DT: clockSystem.DT = x")
		}
		s.Finalize(w)
		assert.Equal(t, systems.ClockUsable, systems.Diagnose(w).ClockFault, "no live ClockSystem")
	}
}
