package systems_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A Diagnostics added to the frame writes a line when its findings change, and only
// then: nothing for a clean world, one line when an agent loses its Rand (written at the
// next periodic check), none while the finding stays, and one when it goes.
func TestDiagnosticsWritesFindingsThatChange(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	sp, err := systems.NewSpawner(w, systems.Wanderer{})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 8.5, Y: 8.5}, nil)
	var out bytes.Buffer
	diag := &systems.Diagnostics{Every: 10, Out: &out}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}, diag)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 25)
	assert.Empty(t, out.String(), "a clean world")

	randID := arche.ComponentID[components.Rand](w)
	w.Remove(e, randID)
	s.Run(w, 5) // frames 25 to 29: the next check is at frame 30
	assert.Empty(t, out.String())
	s.Run(w, 1)
	assert.Equal(t, fmt.Sprintf("archai: frame 30: diagnostics: 1 agent, 1 of them misconfigured (1 finding): wander_no_rand 1 (e.g. entity %d)\n",
		e.ID()), out.String())
	s.Run(w, 40)
	assert.Equal(t, 1, strings.Count(out.String(), "\n"), "the same finding is not written again")
	assert.Equal(t, 0.0, testing.AllocsPerRun(20, func() { s.Run(w, 10) }), "a check whose findings did not change")

	w.Add(e, randID)
	out.Reset()
	s.Run(w, 10)
	assert.Contains(t, out.String(), "diagnostics: 1 agent, no misconfiguration\n", "the finding went")
}

// Without Out a Diagnostics writes to standard error: one added inline to the frame
// is not silent.
func TestDiagnosticsWritesToStandardErrorByDefault(t *testing.T) {
	r, pw, err := os.Pipe()
	require.NoError(t, err)
	stderr := os.Stderr
	os.Stderr = pw
	defer func() { os.Stderr = stderr }()

	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	sp, err := systems.NewSpawner(w, systems.Wanderer{})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 8.5, Y: 8.5}, nil)
	w.Remove(e, arche.ComponentID[components.Rand](w))
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}, &systems.Diagnostics{})
	s.Initialize(w)
	s.Run(w, 1)
	s.Finalize(w)
	os.Stderr = stderr
	require.NoError(t, pw.Close())
	got, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.Contains(t, string(got), "archai: frame 0: diagnostics: 1 agent, 1 of them misconfigured (1 finding): wander_no_rand 1")
}

// When only the counts of causes already written change, a Diagnostics writes a short
// line (the counts that changed and the frame whose line gave the examples and advice),
// so a count swinging from check to check does not repeat the advice; a cause coming or
// going, or any other finding, is written in full again.
func TestDiagnosticsWritesOnlyCountsThatSwing(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	sp, err := systems.NewSpawner(w, systems.Wanderer{})
	require.NoError(t, err)
	a := sp.Spawn(r2.Vec{X: 4.5, Y: 8.5}, nil)
	b := sp.Spawn(r2.Vec{X: 12.5, Y: 8.5}, nil)
	var out bytes.Buffer
	diag := &systems.Diagnostics{Every: 10, Out: &out}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}, diag)
	s.Initialize(w)
	defer s.Finalize(w)
	randID := arche.ComponentID[components.Rand](w)
	w.Remove(a, randID)
	s.Run(w, 1)
	full := fmt.Sprintf("archai: frame 0: diagnostics: 2 agents, 1 of them misconfigured (1 finding): wander_no_rand 1 (e.g. entity %d)\n", a.ID())
	require.Equal(t, full, out.String())

	w.Remove(b, randID)
	s.Run(w, 10)
	assert.Equal(t, full+"archai: frame 10: diagnostics: 2 agents, 2 of them misconfigured (2 findings): "+
		"wander_no_rand 2 (was 1); examples and advice as at frame 0\n", out.String())
	w.Add(b, randID)
	out.Reset()
	s.Run(w, 10)
	assert.Equal(t, "archai: frame 20: diagnostics: 2 agents, 1 of them misconfigured (1 finding): "+
		"wander_no_rand 1 (was 2); examples and advice as at frame 0\n", out.String())

	// another cause: the line in full, which the next short line names
	out.Reset()
	in := generic.NewMap[components.Intent](w)
	in.Get(b).Move, in.Get(b).Goal = true, r2.Vec{X: math.NaN(), Y: 1}
	s.Run(w, 10)
	assert.Contains(t, out.String(), "archai: frame 30: diagnostics: 2 agents, 2 of them misconfigured (2 findings): wander_no_rand 1 (e.g. entity")
	assert.Contains(t, out.String(), "goal_not_finite 1 (e.g. entity")
	out.Reset()
	w.Remove(b, randID)
	s.Run(w, 10)
	assert.Equal(t, "archai: frame 40: diagnostics: 2 agents, 2 of them misconfigured (3 findings): "+
		"wander_no_rand 2 (was 1); examples and advice as at frame 30\n", out.String())
}

// A short line is written only when nothing but cause counts changed: when another
// finding was swapped for a different one (the same number of them, so the total
// alone does not tell), the line is written in full. It used to be short, naming only
// the count, and the new finding (here the clock's DT gone NaN instead of negative)
// was never written.
func TestDiagnosticsWritesInFullWhenAnotherFindingChanged(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	clock := &ecs.Clock{DT: -1, Frame: 0, Started: true}
	arche.AddResource(w, clock)
	sp, err := systems.NewSpawner(w, systems.Wanderer{})
	require.NoError(t, err)
	a := sp.Spawn(r2.Vec{X: 4.5, Y: 8.5}, nil)
	b := sp.Spawn(r2.Vec{X: 12.5, Y: 8.5}, nil)
	var out bytes.Buffer
	diag := &systems.Diagnostics{Every: 1, Out: &out}
	diag.Initialize(w)
	defer diag.Finalize(w)
	randID := arche.ComponentID[components.Rand](w)
	w.Remove(a, randID)
	diag.Update(w)
	require.Contains(t, out.String(), "wander_no_rand 1")
	require.Equal(t, systems.ClockDTNotPositive, diag.Report.ClockFault)

	out.Reset()
	w.Remove(b, randID)
	clock.DT, clock.Frame = math.NaN(), 1
	diag.Update(w)
	require.Equal(t, systems.ClockDTNotFinite, diag.Report.ClockFault)
	assert.NotContains(t, out.String(), "examples and advice as at frame")
	assert.Contains(t, out.String(), "wander_no_rand 2 (e.g. entity")
}
