package debugview_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"

	"github.com/archai-go/archai/components"
)

// newcomer (village, session of 2026-12-04 22:39): a program that runs its frames,
// calls Finalize and keeps serving the page (to look at the end state) showed the
// last snapshot as a running world, "60 frames/s", and accepted commands (202) that
// nothing would ever read. After Finalize the snapshot says the simulation ended
// (ended, fps 0) and a command gets 503 naming why.
func TestFinalizeMarksTheSnapshotEnded(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	e := w.NewEntity()
	w.Add(e, arche.ComponentID[components.Position](w))
	(*components.Position)(w.Get(e, arche.ComponentID[components.Position](w))).Vec = r2.Vec{X: 1, Y: 1}
	clock := ecs.NewClockSystem(1.0 / 60)
	v := debugview.New()
	v.Speed = 0
	v.Every = 1
	defer v.Close()
	clock.Initialize(w)
	v.Initialize(w)
	for range 10 {
		clock.Update(w)
		v.Update(w)
		time.Sleep(time.Millisecond)
	}
	h := v.Handler()
	state := func() map[string]any {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://localhost/state", nil))
		require.Equal(t, http.StatusOK, rec.Code)
		var s map[string]any
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &s))
		return s
	}
	s := state()
	last := s["frame"]
	assert.Equal(t, false, s["ended"], "running")
	assert.Greater(t, s["fps"].(float64), 0.0, "running")

	v.Finalize(w)
	clock.Finalize(w)
	s = state()
	assert.Equal(t, true, s["ended"], "after Finalize")
	assert.Equal(t, 0.0, s["fps"], "no frame runs after Finalize")
	assert.Equal(t, last, s["frame"], "the last frame stays shown")

	req := httptest.NewRequest(http.MethodPost, "http://localhost/cmd", strings.NewReader("op=select&id=1"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusServiceUnavailable, rec.Code)
	assert.Contains(t, rec.Body.String(), "ended")

	// a level restart runs again
	v.Initialize(w)
	clock.Initialize(w)
	clock.Update(w)
	v.Update(w)
	assert.Equal(t, false, state()["ended"], "after Initialize again")
}
