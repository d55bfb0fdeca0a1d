package systems_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A finding that is not a cause swapped for another of the same number (a
// clock fault for another) writes a line: Diagnostics compared only the
// total and the causes' counts, so the second fault went unwritten. A save
// keeps what the last line had, so the loaded run writes the lines the
// unbroken one does.
func TestDiagnosticsWritesAClockFaultSwappedForAnother(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	clock := &ecs.Clock{DT: 1.0 / 60, Started: true}
	arche.AddResource(w, clock)
	var out bytes.Buffer
	diag := &systems.Diagnostics{Every: 1, Out: &out}
	s := ecs.NewScheduler(diag)
	s.Initialize(w)
	defer s.Finalize(w)
	step := func(dt float64) {
		clock.DT = dt
		s.Update(w)
		clock.Frame++
	}
	step(1.0 / 60)
	assert.Empty(t, out.String(), "a clean world")
	step(33) // milliseconds given for seconds
	assert.Contains(t, out.String(), "clock step 33 s a frame")
	lines := strings.Count(out.String(), "\n")
	step(33)
	assert.Equal(t, lines, strings.Count(out.String(), "\n"), "the same fault is not written again")

	step(-1) // another fault, the same number of findings
	require.Equal(t, lines+1, strings.Count(out.String(), "\n"), "the fault swapped for another is written")
	assert.Contains(t, out.String()[strings.LastIndex(out.String()[:len(out.String())-1], "\n")+1:], "none misconfigured (1 finding)")

	// saved now (the clock set right for the save, which refuses a faulty one;
	// no check in between), loaded: the fault the last line had again writes no
	// line, the other one does, in the unbroken run and the loaded one alike
	clock.DT = 1.0 / 60
	data, err := save.Save(w, nil, diag)
	require.NoError(t, err)
	step(-1)
	assert.Equal(t, lines+1, strings.Count(out.String(), "\n"), "the fault of the last line: no line")
	step(33)
	assert.Equal(t, lines+2, strings.Count(out.String(), "\n"), "back to the first fault: a line")

	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	var lout bytes.Buffer
	ldiag := &systems.Diagnostics{Every: 1, Out: &lout}
	ls := ecs.NewScheduler(ldiag)
	ls.Initialize(l.World)
	defer ls.Finalize(l.World)
	require.NoError(t, l.Restore(ldiag))
	lclock := ecs.Resource[ecs.Clock](l.World)
	lclock.DT = -1
	ls.Update(l.World)
	assert.Empty(t, lout.String(), "the fault the saved run's last line had: no line")
	lclock.Frame++
	lclock.DT = 33
	ls.Update(l.World)
	assert.Equal(t, 1, strings.Count(lout.String(), "\n"), "the loaded run writes the swap too")
}
