package debugview_test

import (
	"net/http/httptest"
	"testing"

	"github.com/archai-go/archai/systems/debugview"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every log starts with its "selected" entry (what was selected, and when), also once
// the selection is older than LogSeconds: it used to drop out of the window with the
// entries of its time. Beside it each log keeps the last entry before the window, the
// state in force at the window's start, so the page scrubbed to the window's start shows
// that state rather than the selection's; the entries between are dropped. The
// snapshot says how long the window is (logSeconds).
func TestLogsKeepTheirSelectedEntry(t *testing.T) {
	dw := newDecideWorld(t, true)
	dw.v.LogSeconds = 1
	srv := httptest.NewServer(dw.v.Handler())
	defer srv.Close()
	dw.run(1)
	selectID(t, srv, dw.villager.ID())
	dw.run(1)  // t = 0.1: selected; Chop's tree runs, Carry at t = 0.3, Chop at 0.7, ...
	dw.run(20) // t = 2.1: the window is [1.1, 2.1]
	s := getState(t, srv)
	assert.Equal(t, 1.0, s.LogSeconds)
	a := s.Selected
	require.NotNil(t, a)
	from := s.Time - 1
	require.GreaterOrEqual(t, len(a.FSMLog), 3)
	sel := a.FSMLog[0]
	assert.Equal(t, "selected", sel.Kind)
	assert.Equal(t, []string{"Day", "Work", "Chop"}, sel.To)
	assert.InDelta(t, 0.1, sel.Time, 1e-9, "the selection's time, older than the window")
	inForce := a.FSMLog[1]
	assert.Equal(t, "transition", inForce.Kind)
	assert.Less(t, inForce.Time, from, "the state at the window's start")
	for _, x := range a.FSMLog[2:] {
		assert.GreaterOrEqual(t, x.Time, from)
	}
	for _, tr := range a.FSM.Trees {
		require.NotEmpty(t, tr.Log, tr.Tree.Name)
		if tr.Tree.Name == "chop" { // running at the selection
			assert.Equal(t, "selected", tr.Log[0].Kind)
			assert.InDelta(t, 0.1, tr.Log[0].Time, 1e-9)
		}
	}

	// the wolf's utility log: chosen once at the selection, no change since
	selectID(t, srv, dw.wolf.ID())
	dw.run(1)
	dw.run(20)
	a = getState(t, srv).Selected
	require.NotNil(t, a)
	require.Len(t, a.UtilityLog, 1)
	assert.Equal(t, "selected", a.UtilityLog[0].Kind)
	assert.Equal(t, "hunt", a.UtilityLog[0].To)
}

// The behavior tree's log keeps its "selected" entry too.
func TestTreeLogKeepsItsSelectedEntry(t *testing.T) {
	tw := newTestWorld(t, 2, 0, func(v *debugview.Viewer) { v.Every, v.LogSeconds = 1, 1 })
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	tw.run(30)
	require.True(t, tw.v.Select(tw.agents[0].ID()))
	tw.run(1)
	tw.run(180) // 3 s later
	a := agentJSON(t, srv)
	require.NotEmpty(t, a.Log)
	assert.Equal(t, "selected", a.Log[0].Kind)
	assert.InDelta(t, 30.0/60, a.Log[0].Time, 1e-9)
}
