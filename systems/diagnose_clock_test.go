package systems

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A think interval given in milliseconds (Thinker{Interval: 100} for 10 Hz) is taken as
// seconds: the agent thinks once per 100 s and seems never to decide, and Diagnose used
// to say nothing. It is counted as CauseThinkIntervalLong, through the bundle as set
// by hand or by a LOD level; MaxThinkInterval itself is not.
func TestDiagnoseReportsAThinkIntervalInMilliseconds(t *testing.T) {
	tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	for _, c := range []struct {
		interval float64
		want     int
	}{{100, 1}, {MaxThinkInterval + 0.001, 1}, {MaxThinkInterval, 0}, {0.5, 0}, {0, 0}} {
		w, _ := newWorld(10, 10)
		sp, err := NewSpawner(w, Thinker{Tree: tree, Interval: c.interval}, Mover{})
		require.NoError(t, err, "%v s: the bundle takes it", c.interval)
		e := sp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, nil)
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Perception{}, &Decision{}, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{})
		s.Initialize(w)
		r := Diagnose(w)
		s.Finalize(w)
		assert.Equal(t, c.want, r.Counts[CauseThinkIntervalLong], "interval %v: %s", c.interval, r)
		assert.Equal(t, c.want, r.Total(), "interval %v: %s", c.interval, r)
		if c.want == 1 {
			assert.Equal(t, e, r.Examples[CauseThinkIntervalLong])
			assert.Contains(t, r.String(), "think_interval_too_long 1 (e.g. entity 1, Think.Interval ")
			assert.Contains(t, r.String(), " s, over MaxThinkInterval (10 s): Interval is in seconds of simulation time, so ")
		}
	}

	// a LOD level in milliseconds: counted on the agents it is given to
	w, _ := newWorld(10, 10)
	sp, err := NewSpawner(w, Thinker{Tree: tree}, Mover{})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, nil)
	put(w, e, components.LOD{})
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &LOD{Levels: []LODLevel{{Distance: 100, Interval: 500}}},
		&Spatial{}, &Perception{}, &Decision{}, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{})
	s.Initialize(w)
	r := Diagnose(w)
	assert.Zero(t, r.Total(), "before the LOD's first frame: 0.1 s")
	s.Run(w, 1)
	r = Diagnose(w)
	s.Finalize(w)
	assert.Equal(t, 1, r.Counts[CauseThinkIntervalLong], "%s", r)
}

// A Think.Interval of 60 is more often "60 Hz" or "every 60 frames" than 60 ms: the
// hint used to name milliseconds only. It now gives the interval's meaning in seconds
// and the value to write for each reading, computed from the interval given.
func TestThinkIntervalHintNamesEachReading(t *testing.T) {
	tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	for _, c := range []struct {
		interval float64
		want     string
	}{
		{60, "think_interval_too_long 1 (e.g. entity 1, Think.Interval 60 s, over MaxThinkInterval (10 s): Interval is in seconds of simulation time, so 60 means one think every 60 s; for 60 thinks a second write 1.0/60, for one every 60 ms 0.06, for one every 60 frames 60 × the clock step)"},
		{100, "think_interval_too_long 1 (e.g. entity 1, Think.Interval 100 s, over MaxThinkInterval (10 s): Interval is in seconds of simulation time, so 100 means one think every 100 s; for 100 thinks a second write 1.0/100, for one every 100 ms 0.1, for one every 100 frames 100 × the clock step)"},
		{12.5, "Think.Interval 12.5 s, over MaxThinkInterval (10 s): Interval is in seconds of simulation time, so 12.5 means one think every 12.5 s; for 12.5 thinks a second write 1.0/12.5, for one every 12.5 ms 0.0125, for one every 12.5 frames 12.5 × the clock step)"},
	} {
		w, _ := newWorld(10, 10)
		sp, err := NewSpawner(w, Thinker{Tree: tree, Interval: c.interval}, Mover{})
		require.NoError(t, err)
		sp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, nil)
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Perception{}, &Decision{}, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{})
		s.Initialize(w)
		r := Diagnose(w)
		s.Finalize(w)
		assert.Contains(t, r.String(), c.want)
		assert.NotContains(t, r.String(), "milliseconds given for seconds")
	}
}

// A program that steps its own Clock resource can set a NaN, infinite or ≤ 0 DT, or a
// NaN or infinite Time: Movement then moves nobody, and Diagnose used to say nothing
// (an infinite DT went into ClockDT, which encoding/json cannot write). Each is a
// ClockFault, one finding, with ClockDT 0; the report marshals to JSON with the fault's
// name; a usable clock again clears it.
func TestDiagnoseReportsAnUnusableClockOfAProgram(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		dt, time float64
		want     ClockFault
		text     string
	}{
		{nan, 1, ClockDTNotFinite, "clock step NaN s a frame (clock_dt_not_finite: dt must be a finite number of seconds > 0; nothing moves)"},
		{inf, 1, ClockDTNotFinite, "clock step +Inf s a frame (clock_dt_not_finite: dt must be a finite number of seconds > 0; nothing moves)"},
		{-inf, 1, ClockDTNotFinite, "clock step -Inf s a frame (clock_dt_not_finite: dt must be a finite number of seconds > 0; nothing moves)"},
		{-1.0 / 60, 1, ClockDTNotPositive, "clock step -0.016666666666666666 s a frame (clock_dt_not_positive: dt must be a finite number of seconds > 0; nothing moves)"},
		{0, 1, ClockDTNotPositive, "clock step 0 s a frame (clock_dt_not_positive: dt must be a finite number of seconds > 0; nothing moves)"},
		{1.0 / 60, nan, ClockTimeNotFinite, "clock time NaN s (clock_time_not_finite: no agent thinks on time)"},
		{1.0 / 60, -inf, ClockTimeNotFinite, "clock time -Inf s (clock_time_not_finite: no agent thinks on time)"},
		{nan, nan, ClockDTNotFinite, "clock step NaN s a frame (clock_dt_not_finite: dt must be a finite number of seconds > 0; nothing moves)"},
		{16, 1, ClockDTOverMax, "clock step 16 s a frame (dt is in seconds: 1.0/60 for 60 frames a second)"},
	} {
		w, _ := newWorld(10, 10)
		e := goodAgent(t, w)
		compOf[components.Velocity](w, e).Vec = r2.Vec{X: 1}
		arche.AddResource(w, &ecs.Clock{DT: c.dt, Time: c.time, Started: true})
		s := ecs.NewScheduler(&Spatial{}, &Perception{}, &FlowField{}, &Decision{}, &PathQueue{}, &PathFollow{}, &Steer{}, &Movement{})
		s.Initialize(w)
		s.Run(w, 1) // the program's frame: its own clock, not a ClockSystem
		r := Diagnose(w)
		assert.Equal(t, c.want, r.ClockFault, "dt %v, time %v", c.dt, c.time)
		assert.Equal(t, 1, r.Total(), "%s", r)
		assert.Zero(t, r.Misconfigured)
		if c.want == ClockDTOverMax {
			assert.Equal(t, c.dt, r.ClockDT)
		} else {
			assert.Zero(t, r.ClockDT, "ClockDT is finite (JSON) and only for a step over MaxDT")
		}
		assert.Equal(t, "diagnostics: 1 agent, none misconfigured (1 finding): "+c.text, r.String())
		b, err := json.Marshal(r)
		require.NoError(t, err, "dt %v, time %v", c.dt, c.time)
		assert.Contains(t, string(b), `"ClockFault":"`+c.want.String()+`"`)
		if c.want != ClockTimeNotFinite && c.want != ClockDTOverMax {
			assert.Equal(t, r2.Vec{X: 2.5, Y: 2.5}, compOf[components.Position](w, e).Vec, "dt %v: nobody moves", c.dt)
		}

		clock := ecs.Resource[ecs.Clock](w)
		clock.DT, clock.Time = 1.0/60, 1
		r = Diagnose(w)
		assert.Zero(t, r.Total(), "a usable clock again: %s", r)
		s.Finalize(w)
	}
	assert.Equal(t, "clock_usable", ClockUsable.String())
	assert.Equal(t, "clock_fault(9)", ClockFault(9).String())
}

// The Diagnostics system reports an unusable clock without allocating, and clears it
// once the program's clock is usable again.
func TestDiagnosticsSystemReportsAnUnusableClock(t *testing.T) {
	w, _ := newWorld(10, 10)
	goodAgent(t, w)
	clock := &ecs.Clock{DT: math.NaN()}
	arche.AddResource(w, clock)
	d := &Diagnostics{Every: 1}
	d.Initialize(w)
	d.Update(w)
	require.Equal(t, ClockDTNotFinite, d.Report.ClockFault)
	assert.Zero(t, testing.AllocsPerRun(20, func() { d.Check(w) }))
	assert.Equal(t, ClockDTNotFinite, d.Report.ClockFault)
	clock.DT = 1.0 / 60
	d.Update(w)
	assert.Equal(t, ClockUsable, d.Report.ClockFault)
	assert.Zero(t, d.Report.Total(), "%s", d.Report)
	d.Finalize(w)
}
