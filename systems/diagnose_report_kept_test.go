package systems

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Report returned by a Diagnostics' Check shared its Twice and Replaced slices with the
// next check's: a program that kept the first report (to compare, to log later) saw its
// Twice turn from [spatial] into [decision] once the findings changed. The kept report
// is the holder's; the same findings check after check still allocate nothing.
func TestDiagnosticsKeptReportDoesNotChange(t *testing.T) {
	w, _ := newWorld(10, 10)
	goodAgent(t, w)
	d := &Diagnostics{Every: 1000}
	sp := &Spatial{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, sp, &Perception{}, &FlowField{}, &Decision{}, &PathQueue{},
		&PathFollow{}, &Steer{}, &Movement{}, d)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 1)
	first := d.Check(w)
	require.Equal(t, []string{"spatial"}, first.Twice)
	again := d.Check(w)
	assert.Equal(t, []string{"spatial"}, again.Twice)
	assert.Zero(t, testing.AllocsPerRun(20, func() { d.Check(w) }), "the same findings: no allocation")

	sp.Finalize(w) // spatial once now, and a second Decision
	dec := &Decision{}
	dec.Initialize(w)
	defer dec.Finalize(w)
	later := d.Check(w)
	assert.Equal(t, []string{"decision"}, later.Twice)
	assert.Equal(t, []string{"spatial"}, first.Twice, "the first report is unchanged")
	assert.Equal(t, []string{"spatial"}, again.Twice)

	dec.Finalize(w)
	none := d.Check(w)
	assert.Nil(t, none.Twice)
	assert.Equal(t, []string{"decision"}, later.Twice)
}
