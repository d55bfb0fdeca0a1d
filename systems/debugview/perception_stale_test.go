package debugview_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems/debugview"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// The perception system leaves TargetAt and Distance at the last foe's values once no foe
// is in sight; the JSON used to show them ("distance": 9.9 with "visible": false). They are
// null while Visible is false, and the values while it is true.
func TestPerceptionTargetIsNullWhenNotVisible(t *testing.T) {
	tw := newTestWorld(t, 4, 0, func(v *debugview.Viewer) { v.Every = 1 })
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	e := tw.agents[0]
	require.True(t, tw.v.Select(e.ID()))
	tw.run(2)
	per := generic.NewMap[components.Perception](tw.w)
	raw := func() map[string]any {
		t.Helper()
		tw.v.Update(tw.w)
		resp, err := http.Get(srv.URL + "/state")
		require.NoError(t, err)
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		var s struct {
			Selected struct {
				Perception map[string]any `json:"perception"`
			} `json:"selected"`
		}
		require.NoError(t, json.Unmarshal(body, &s))
		require.NotNil(t, s.Selected.Perception)
		return s.Selected.Perception
	}

	p := per.Get(e)
	p.Visible, p.Target, p.TargetAt, p.Distance = false, tw.agents[3], r2.Vec{X: 7, Y: 8}, 9.9
	got := raw()
	assert.Equal(t, false, got["visible"])
	assert.Contains(t, got, "distance")
	assert.Nil(t, got["distance"], "no foe in sight: no distance")
	assert.Nil(t, got["targetAt"], "no foe in sight: no position")

	p = per.Get(e)
	p.Visible, p.Target, p.TargetAt, p.Distance = true, tw.agents[3], r2.Vec{X: 7, Y: 8}, 9.9
	got = raw()
	assert.Equal(t, 9.9, got["distance"])
	assert.Equal(t, map[string]any{"x": 7.0, "y": 8.0}, got["targetAt"])
}
