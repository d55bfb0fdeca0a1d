package debugview_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Many clients at once (snapshots, the map, the flow field, the event stream, good and
// malformed commands) while the simulation removes and spawns agents, the selected one
// among them: every request gets an answer from its documented set, the run goes on,
// and -race sees no data race.
func TestConcurrentClientsWhileSelectedAgentsDieAndSpawn(t *testing.T) {
	tw := newTestWorld(t, 12, 2, func(v *debugview.Viewer) { v.Every = 1 })
	srv := httptest.NewServer(tw.v.Handler())
	defer srv.Close()
	sp, err := systems.NewSpawner(tw.w, systems.Mover{}, systems.Thinker{Tree: tw.tree},
		systems.Combatant{Team: 0, SightRange: 6, FieldOfView: 2})
	require.NoError(t, err)
	alive := append([]arche.Entity(nil), tw.agents...)
	alive = append(alive, tw.flowers...)

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var bad atomic.Value
	check := func(what string, code int, ok ...int) {
		for _, c := range ok {
			if c == code {
				return
			}
		}
		bad.Store(what + ": status " + strconv.Itoa(code))
	}
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; ctx.Err() == nil; k++ {
				for _, path := range []string{"/state", "/map", "/flow"} {
					resp, err := http.Get(srv.URL + path)
					if err != nil {
						continue
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					check(path, resp.StatusCode, 200, 404)
				}
				for _, body := range []string{"op=select&id=" + strconv.Itoa(1+(k*7+i)%40), "op=deselect", "op=speed&value=0",
					"op=select&id=99999", "op=select&id=x", "op=" + strings.Repeat("z", 3000), "op=step&op=step"} {
					resp, err := http.Post(srv.URL+"/cmd", "application/x-www-form-urlencoded", strings.NewReader(body))
					if err != nil {
						continue
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					check(body[:min(len(body), 20)], resp.StatusCode, 202, 400, 503)
				}
			}
		}()
	}
	wg.Add(1)
	go func() { // an event stream, read until the end
		defer wg.Done()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/events", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}()
	for f := range 300 {
		if f%3 == 0 && len(alive) > 0 { // remove one, the selected one often enough
			k := (f * 5) % len(alive)
			tw.w.RemoveEntity(alive[k])
			alive = append(alive[:k], alive[k+1:]...)
		}
		if f%4 == 0 {
			alive = append(alive, sp.Spawn(r2.Vec{X: 2.5 + float64(f%10), Y: 2.5}, nil))
		}
		tw.run(1)
	}
	cancel()
	wg.Wait()
	if b := bad.Load(); b != nil {
		t.Fatal(b)
	}
	// the last frame's snapshot is skipped if a client was reading the one before
	// (the simulation never waits for a reader): with the clients gone, one more frame
	// publishes the world as it is
	tw.run(1)
	s := getState(t, srv)
	assert.Equal(t, len(alive), s.Count)
}
