package systems

import (
	"io"
	"strings"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A newcomer printing diag.Report before a spread round's end (20,041 entities: frames
// 1–33 then) read "diagnostics: 0 agents, no misconfiguration" for a world not checked
// yet. The zero Report now says it is no check's, and Report.Checked tells; a check that
// finds nothing still says "no misconfiguration". The first spread round of 20,000
// entities (no brains) has ⌈20,000/2,048⌉ + 30 = 40 stages: published at the 40th
// Update, as Diagnostics.Report's doc says.
func TestDiagnosticsReportBeforeTheFirstCheckSaysNotCheckedYet(t *testing.T) {
	var zero Report
	assert.False(t, zero.Checked())
	assert.True(t, strings.HasPrefix(zero.String(), "diagnostics: not checked yet ("), zero.String())
	assert.NotContains(t, zero.String(), "no misconfiguration")

	empty := arche.NewWorld()
	r := Diagnose(&empty)
	assert.True(t, r.Checked(), "a check of an empty world is a check")
	assert.Contains(t, r.String(), "diagnostics: 0 agents, no misconfiguration")

	w, _ := newWorld(64, 64)
	const n = DiagnoseSpreadAgents
	for i := range n {
		put(w, w.NewEntity(), components.Position{Vec: r2.Vec{X: float64(i%60) + 0.5, Y: float64(i/60%60) + 0.5}})
	}
	d := &Diagnostics{Out: io.Discard}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Movement{}, d)
	require.NoError(t, s.InitializeChecked(w))
	assert.Equal(t, notCheckedYet, d.Report.String(), "after Initialize")
	for f := 1; f < 40; f++ {
		s.Update(w)
		require.Zero(t, d.Checks, "Update %d", f)
		require.False(t, d.Report.Checked(), "Update %d", f)
		require.Equal(t, notCheckedYet, d.Report.String(), "Update %d", f)
	}
	s.Update(w)
	require.Equal(t, 1, d.Checks, "published at the 40th Update")
	assert.True(t, d.Report.Checked())
	assert.Equal(t, "diagnostics: 20000 agents, no misconfiguration", d.Report.String())
}
