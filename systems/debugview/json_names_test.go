package debugview_test

import (
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/systems/debugview"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawAgent decodes the selected agent of GET /state as plain JSON, as a
// consumer without the page reads it.
func rawAgent(t *testing.T, srv *httptest.Server) map[string]any {
	t.Helper()
	res, err := srv.Client().Get(srv.URL + "/state")
	require.NoError(t, err)
	defer res.Body.Close()
	var raw struct {
		Selected map[string]any `json:"selected"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&raw))
	require.NotNil(t, raw.Selected)
	return raw.Selected
}

// TestTreeStatusesHaveNames (newcomer finding 5): the tree's node statuses and its
// log's from and to read without the page's legend: each node carries its status by
// name beside the numbers (which stay), and each log entry its from and to.
func TestTreeStatusesHaveNames(t *testing.T) {
	tw := newTestWorld(t, 2, 0, func(v *debugview.Viewer) { v.Every = 1 })
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	tw.run(2)
	require.True(t, tw.v.Select(tw.agents[0].ID()))
	tw.run(40) // the Waits have run once: the first runs again
	a := agentJSON(t, srv)
	require.NotNil(t, a.Tree)
	var names []string
	for i, n := range a.Tree.Nodes {
		assert.Equal(t, bt.Status(a.Tree.Status[i]).String(), n.StatusName, "node %d", i)
		names = append(names, n.StatusName)
	}
	// the Sequence runs again: look and the second Wait succeeded in its last run, over,
	// so they show Idle (as Groot2 does), their Success kept as their last status
	assert.True(t, a.Tree.Recorded)
	assert.Equal(t, []int{1, 1, 0, 0}, a.Tree.Status)
	assert.Equal(t, []string{"Running", "Running", "Idle", "Idle"}, names)
	assert.Equal(t, []int{1, 1, 2, 2}, a.Tree.LastStatus)
	var last []string
	var stale []bool
	for _, n := range a.Tree.Nodes {
		last, stale = append(last, n.LastStatusName), append(stale, n.Stale)
	}
	assert.Equal(t, []string{"Running", "Running", "Success", "Success"}, last)
	assert.Equal(t, []bool{false, false, true, true}, stale)
	require.NotEmpty(t, a.Log)
	for _, x := range a.Log {
		assert.Equal(t, bt.Status(x.From).String(), x.FromName, "%+v", x)
		assert.Equal(t, bt.Status(x.To).String(), x.ToName, "%+v", x)
	}

	raw := rawAgent(t, srv)
	node := raw["tree"].(map[string]any)["nodes"].([]any)[0].(map[string]any)
	assert.Equal(t, "Running", node["statusName"])
	assert.Contains(t, raw["tree"], "status", "the numbers stay")
	entry := raw["log"].([]any)[0].(map[string]any)
	for _, k := range []string{"t", "node", "from", "to", "fromName", "toName"} {
		assert.Contains(t, entry, k)
	}
}

// TestStateTreeStatusesHaveNames: a tree run inside a state names its root's status
// (rootName beside root) and its nodes' and log's statuses as the agent's tree does.
func TestStateTreeStatusesHaveNames(t *testing.T) {
	dw := newDecideWorld(t, true)
	srv := httptest.NewServer(dw.v.Handler())
	defer srv.Close()
	dw.run(1)
	selectID(t, srv, dw.villager.ID())
	dw.run(3) // t = 0.3: Chop's tree succeeded, Carry entered; t = 0.4 would tick Carry
	dw.run(1)
	a := agentJSON(t, srv)
	require.NotNil(t, a.FSM)
	carry := treeNamed(a.FSM.Trees, "carry")
	require.NotNil(t, carry)
	assert.Equal(t, int(bt.Running), carry.Root)
	assert.Equal(t, "Running", carry.RootName)
	assert.Equal(t, "Running", carry.Tree.Nodes[0].StatusName)
	assert.Equal(t, "Idle", carry.Tree.Nodes[2].StatusName)
	require.NotEmpty(t, carry.Log)
	assert.Equal(t, "Idle", carry.Log[0].FromName)
	assert.Equal(t, "Running", carry.Log[0].ToName)
}

// TestUtilitySelectorNodeShowsItsType (newcomer finding 5): a utility choice inside the
// tree (hybrid.UtilitySelector, a bt.Choose underneath) keeps kind "Choose" and shows
// the type the user wrote in type; other nodes' type is their kind.
func TestUtilitySelectorNodeShowsItsType(t *testing.T) {
	dw := newDuelWorld(t, nil)
	dw.run(1)
	selectID(t, dw.srv, dw.e.ID())
	dw.run(1)
	a := agentJSON(t, dw.srv)
	require.NotNil(t, a.Tree)
	n := a.Tree.Nodes[0]
	assert.Equal(t, "attack", n.Name)
	assert.Equal(t, "Choose", n.Kind)
	assert.Equal(t, "UtilitySelector", n.Type)
	assert.Equal(t, "Action", a.Tree.Nodes[1].Type)
	raw := rawAgent(t, dw.srv)
	assert.Equal(t, "UtilitySelector", raw["tree"].(map[string]any)["nodes"].([]any)[0].(map[string]any)["type"])
}

// TestTreeLogStartsWithTheStatusesAtSelection (newcomer finding 5): the tree's log
// starts with a "selected" entry holding every node's status when the agent was
// selected, as the utility, state-machine and plan logs start with theirs, rather than
// staying null while nothing changes. The entry is the root (node 0) with from = to,
// so that undoing the log's entries from the live statuses still works; every later
// entry is a "transition", and undoing them all gives the statuses of the baseline.
func TestTreeLogStartsWithTheStatusesAtSelection(t *testing.T) {
	tw := newTestWorld(t, 2, 0, func(v *debugview.Viewer) { v.Every = 1 })
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	tw.run(30) // the tree is running
	require.True(t, tw.v.Select(tw.agents[0].ID()))
	tw.run(1)
	a := agentJSON(t, srv)
	require.NotNil(t, a.Tree)
	at := append([]int(nil), a.Tree.LastStatus...)
	require.Len(t, a.Log, 1, "nothing changed yet: the baseline alone")
	base := a.Log[0]
	assert.Equal(t, "selected", base.Kind)
	assert.Equal(t, 0, base.Node)
	assert.Equal(t, 1, base.From, "the root is Running")
	assert.Equal(t, base.From, base.To)
	assert.Equal(t, "Running", base.FromName)
	assert.Equal(t, "Running", base.ToName)
	assert.Equal(t, at, base.Status)
	var names []string
	for _, s := range at {
		names = append(names, bt.Status(s).String())
	}
	assert.Equal(t, names, base.StatusNames)
	assert.InDelta(t, 30.0/60, base.Time, 1e-9, "the frame of the selection")

	tw.run(60)
	a = agentJSON(t, srv)
	require.Greater(t, len(a.Log), 1)
	assert.Equal(t, base, a.Log[0], "the baseline stays first")
	undone := append([]int(nil), a.Tree.LastStatus...) // the log records the last statuses' changes
	for i := len(a.Log) - 1; i >= 1; i-- {
		x := a.Log[i]
		assert.Equal(t, "transition", x.Kind)
		assert.NotEqual(t, x.From, x.To)
		assert.Nil(t, x.Status, "only the baseline carries every status")
		undone[x.Node] = x.From
	}
	assert.Equal(t, at, undone)
	raw := rawAgent(t, srv)
	logs := raw["log"].([]any)
	assert.Contains(t, logs[0], "statusNames")
	assert.NotContains(t, logs[1], "status", "left out of a transition")
}

// TestTreeLogBaselineWhilePaused: an agent selected while paused has its tree log's
// baseline at once, as its utility log's.
func TestTreeLogBaselineWhilePaused(t *testing.T) {
	tw := newTestWorld(t, 2, 0, func(v *debugview.Viewer) { v.Every = 1 })
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	tw.run(30)
	code, _ := post(t, srv, url.Values{"op": {"pause"}})
	require.Equal(t, 202, code)
	done := make(chan struct{})
	go func() { defer close(done); tw.run(1) }() // blocks, paused
	defer func() { tw.v.Close(); <-done }()
	var s debugview.Snapshot
	for range 2000 {
		if s = getState(t, srv); s.Paused {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	require.True(t, s.Paused)
	selectID(t, srv, tw.agents[0].ID())
	for range 2000 {
		if s = getState(t, srv); s.Selected != nil {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	require.NotNil(t, s.Selected)
	require.NotNil(t, s.Selected.Tree)
	require.Len(t, s.Selected.Log, 1)
	assert.Equal(t, "selected", s.Selected.Log[0].Kind)
	assert.Equal(t, s.Selected.Tree.Status, s.Selected.Log[0].Status)
}

// TestStateTreeLogStartsWithTheStatusesAtSelection: a tree run inside a state starts
// its log with its statuses at the selection too; a tree first run after it is logged
// from Idle, with no baseline.
func TestStateTreeLogStartsWithTheStatusesAtSelection(t *testing.T) {
	dw := newDecideWorld(t, true)
	srv := httptest.NewServer(dw.v.Handler())
	defer srv.Close()
	dw.run(2) // t = 0.1: Chop's tree runs its Wait
	selectID(t, srv, dw.villager.ID())
	dw.run(1)
	a := agentJSON(t, srv)
	chop := treeNamed(a.FSM.Trees, "chop")
	require.NotNil(t, chop)
	require.NotEmpty(t, chop.Log)
	assert.Equal(t, "selected", chop.Log[0].Kind)
	assert.Equal(t, []int{1, 1, 0}, chop.Log[0].Status)
	assert.InDelta(t, 0.2, chop.Log[0].Time, 1e-9)
	dw.run(2) // t = 0.4: Carry's tree ticked
	a = agentJSON(t, srv)
	carry := treeNamed(a.FSM.Trees, "carry")
	require.NotNil(t, carry)
	require.NotEmpty(t, carry.Log)
	assert.Equal(t, "transition", carry.Log[0].Kind, "first run after the selection: from Idle")
	assert.Equal(t, 0, carry.Log[0].From)
}

// TestSelectorInputsPendingSayWhy (newcomer finding 5): a utility State keeps each
// consideration's curve output but not its raw input (only a utility.Trace records
// those, and the viewer gives the State its Trace at the selection), so the inputs of
// the decision made before the selection cannot be shown. Until the next decision the
// JSON says so: pending true and a note, beside the null input and x; after it the
// inputs show and pending is false. A consideration a veto skipped is not pending.
func TestSelectorInputsPendingSayWhy(t *testing.T) {
	dw := newDuelWorld(t, nil)
	dw.run(1)
	selectID(t, dw.srv, dw.e.ID())
	dw.run(1) // the viewer gives the State its Trace after this frame's decision
	a := agentJSON(t, dw.srv)
	require.Len(t, a.Selectors, 1)
	u := a.Selectors[0].Utility
	require.NotNil(t, u)
	assert.False(t, u.Traced)
	c := u.Options[0].Considerations[0]
	assert.True(t, c.Evaluated)
	assert.Nil(t, c.Input)
	assert.Nil(t, c.X)
	assert.True(t, c.Pending)
	assert.Equal(t, "input pending: recorded from the first decision after the selection (a utility State keeps curve outputs, not inputs)", c.Note)
	assert.InDelta(t, 0.7, c.Score, 1e-12, "the curve output is known")
	require.NotEmpty(t, a.UtilityLog)
	assert.True(t, a.UtilityLog[0].Options[0].Considerations[0].Pending, "the baseline's decision: inputs not recorded")
	raw := rawAgent(t, dw.srv)
	rc := raw["selectors"].([]any)[0].(map[string]any)["utility"].(map[string]any)["options"].([]any)[0].(map[string]any)["considerations"].([]any)[0].(map[string]any)
	assert.Equal(t, true, rc["pending"])
	assert.Nil(t, rc["input"])

	dw.run(1)
	c = agentJSON(t, dw.srv).Selectors[0].Utility.Options[0].Considerations[0]
	assert.False(t, c.Pending)
	assert.Empty(t, c.Note)
	require.NotNil(t, c.Input)
	assert.Equal(t, 3.0, *c.Input)
}
