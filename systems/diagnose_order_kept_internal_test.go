package systems

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// review18: a Report kept from one check must not change at a later check
// (silent18's TestDiagnosticsKeptReportDoesNotChange, for Report.Order).
func TestKeptReportOrderDoesNotChange(t *testing.T) {
	w, _ := newWorld(10, 10)
	goodAgent(t, w)
	d := &Diagnostics{Every: 1000}
	mv, pf := &Movement{}, &PathFollow{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &Perception{}, &Decision{}, &PathQueue{},
		pf, mv, &Steer{}, d) // Movement before Steer
	s.Initialize(w)
	s.Run(w, 1)
	first := d.Check(w)
	require.Equal(t, []string{"movement before steer"}, first.Order)
	assert.Zero(t, testing.AllocsPerRun(20, func() { d.Check(w) }), "the same Order findings: no allocation")

	// Movement again after Steer (fixed); PathFollow again after Steer (a new finding)
	mv.Finalize(w)
	pf.Finalize(w)
	mv2, pf2 := &Movement{}, &PathFollow{}
	mv2.Initialize(w)
	pf2.Initialize(w)
	later := d.Check(w)
	require.Equal(t, []string{"steer before pathfollow"}, later.Order)
	assert.Equal(t, []string{"movement before steer"}, first.Order, "the first report is unchanged")
}
