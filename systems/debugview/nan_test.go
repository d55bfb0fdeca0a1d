package debugview_test

import (
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems/debugview"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The page keeps working when the world holds values JSON cannot: a clock whose Time is
// NaN or infinite (a program stepping its own Clock; or Frame·DT overflowing) and a
// selected agent with a NaN velocity. /state used to answer 500 and the event stream
// ended, so the debugger went dark exactly when something was wrong; such values are
// shown as 0, as the other fields of the snapshot already are.
func TestSnapshotWithNonFiniteTimeOrVelocityStillServes(t *testing.T) {
	for _, name := range []string{"time NaN", "time +Inf", "velocity NaN"} {
		t.Run(name, func(t *testing.T) {
			tw := newTestWorld(t, 4, 0, func(v *debugview.Viewer) { v.Every = 1 })
			srv := httptest.NewServer(tw.v.Handler())
			defer srv.Close()
			tw.run(3)
			clock := ecs.ClockOf(tw.w)
			e := tw.agents[0]
			switch name {
			case "time NaN":
				clock.Time = math.NaN()
			case "time +Inf":
				clock.Time = math.Inf(1)
			case "velocity NaN":
				require.True(t, tw.v.Select(e.ID()))
				tw.v.Update(tw.w) // selects
				vel := generic.NewMap[components.Velocity](tw.w)
				vel.Get(e).X = math.NaN()
			}
			tw.v.Update(tw.w)
			resp, err := http.Get(srv.URL + "/state")
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
			s := getState(t, srv)
			if name == "velocity NaN" {
				require.NotNil(t, s.Selected)
				require.NotNil(t, s.Selected.Vel)
				assert.Zero(t, s.Selected.Vel.X)
			} else {
				assert.Zero(t, s.Time)
			}
		})
	}
}
