package systems

import (
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A world whose only archai system is a Diagnostics reported "no misconfiguration
// found (before any system's Initialize ...)" even after Initialize: the note now says
// that no archai system but the Diagnostics was initialized; before any Initialize it
// is unchanged.
func TestReportOfAWorldWithOnlyADiagnostics(t *testing.T) {
	w, _ := newWorld(10, 10)
	goodAgent(t, w)
	const before = " (before any system's Initialize: missing systems not checked; call Diagnose after Initialize)"
	assert.Equal(t, "diagnostics: 1 agent, no misconfiguration found"+before, Diagnose(w).String())

	diag := &Diagnostics{Every: 1, Out: io.Discard}
	diag.Initialize(w)
	defer diag.Finalize(w)
	diag.Update(w)
	const only = " (no archai system initialized but a Diagnostics: missing systems not checked; " +
		"add and initialize the systems the agents need (a Decision, a Steer, a Movement ...))"
	assert.True(t, diag.Report.SystemsUnchecked)
	assert.Equal(t, "diagnostics: 1 agent, no misconfiguration found"+only, diag.Report.String())
	assert.Equal(t, "diagnostics: 1 agent, no misconfiguration found"+only, Diagnose(w).String())
	diag.Finalize(w)
	assert.Equal(t, "diagnostics: 1 agent, no misconfiguration found"+before, Diagnose(w).String(), "finalized: none live")
}
