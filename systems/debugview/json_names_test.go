package debugview_test

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

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
	assert.Equal(t, []int{1, 1, 2, 2}, a.Tree.Status)
	assert.Equal(t, []string{"Running", "Running", "Success", "Success"}, names)
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
