package debugview

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A loop that stops without Finalize (or a system stuck in its Update) used to look live:
// the last snapshot said fps 30 for ever. Once the simulation has not come back to the
// viewer for StallAfter of wall time, the JSON says stalled, with the seconds since the
// last frame ended; the next frame clears it. A fake clock: no wall-clock waits.
func TestStalledAfterNoFrameForStallAfter(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	v := New()
	v.Speed, v.Every = 0, 1
	wall := time.Unix(1000, 0)
	v.now = func() time.Time { return wall }
	sched := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), v)
	sched.Initialize(w)
	defer v.Close()
	srv := httptest.NewServer(v.Handler())
	defer srv.Close()
	state := func() (stalled bool, since float64, fps float64) {
		t.Helper()
		resp, err := http.Get(srv.URL + "/state")
		require.NoError(t, err)
		defer resp.Body.Close()
		var s struct {
			Stalled    bool    `json:"stalled"`
			SinceFrame float64 `json:"sinceFrame"`
			FPS        float64 `json:"fps"`
		}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&s))
		return s.Stalled, s.SinceFrame, s.FPS
	}
	for range 3 {
		sched.Update(w)
		wall = wall.Add(time.Second / 60)
	}
	stalled, since, _ := state()
	assert.False(t, stalled)
	assert.InDelta(t, 1.0/60, since, 1e-3, "seconds since the last frame ended, to the ms")

	wall = wall.Add(StallAfter - time.Second/60 - time.Millisecond)
	stalled, _, _ = state()
	assert.False(t, stalled, "just under StallAfter")

	wall = wall.Add(2 * time.Second)
	stalled, since, _ = state()
	assert.True(t, stalled)
	assert.InDelta(t, (StallAfter + 2*time.Second - time.Millisecond).Seconds(), since, 1e-3)

	sched.Update(w) // the loop goes on
	stalled, since, _ = state()
	assert.False(t, stalled)
	assert.Zero(t, since)

	wall = wall.Add(time.Minute)
	sched.Finalize(w) // ended: not stalled
	stalled, since, fps := state()
	assert.False(t, stalled)
	assert.Zero(t, since)
	assert.Zero(t, fps)
}
