package debugview_test

import (
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// A tiny speed from the page (0.000001 times real time: 4.6 hours a frame at 60 Hz)
// must not make the simulation deaf: a later speed, a pause or Close takes effect
// while the viewer waits for the pace, not after the whole wait. A speed so small that
// the wait overflows a time.Duration (1e-300) still waits: it used to run unpaced.
func TestSlowPaceStillHearsCommands(t *testing.T) {
	for _, name := range []string{"speed", "close", "tiny"} {
		t.Run(name, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			arche.AddResource(w, grid.New(8, 8))
			v := debugview.New()
			defer v.Close()
			sched := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), v)
			sched.Initialize(w)
			srv := httptest.NewServer(v.Handler())
			defer srv.Close()
			sched.Update(w) // anchors the pace
			speed := "0.000001"
			if name == "tiny" {
				speed = "1e-300"
			}
			code, body := post(t, srv, url.Values{"op": {"speed"}, "value": {speed}})
			require.Equal(t, 202, code, body)
			sched.Update(w) // applies the speed (re-anchored: no wait yet)
			done := make(chan struct{})
			go func() {
				defer close(done)
				sched.Update(w) // the next frame is due in 16,667 s
			}()
			select {
			case <-done:
				t.Fatal("Update did not wait for the pace")
			case <-time.After(50 * time.Millisecond):
			}
			if name == "speed" {
				code, body = post(t, srv, url.Values{"op": {"speed"}, "value": {"0"}})
				require.Equal(t, 202, code, body)
			} else {
				v.Close()
			}
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("Update still waits for the pace of the old speed")
			}
		})
	}
}
