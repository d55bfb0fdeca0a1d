// Package servetest drives an example's -serve live debugger in its tests.
package servetest

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/archai-go/archai/systems/debugview"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Plan runs serve (an example's -serve, listening on addr and printing its URL as the
// second word of its first line to stdout) until the agent of entity id, selected with the run
// paused, has a plan with steps and more than one logged transition, stepping the run
// one frame at a time; it gives up after 2 minutes (the plan shows within a second on an
// idle machine). It then stops serve, asserts that serve returned 0, and returns the last
// snapshot read.
//
// serve must pace its run (speed 1, real time, not 0): the pause is a request the run
// sees between frames, and an unpaced run on a loaded machine can race through the whole
// mission before it, leaving no plan transition to log.
func Plan(t *testing.T, id string, serve func(ctx context.Context, addr string, stdout io.Writer) int) debugview.Snapshot {
	t.Helper()
	return Until(t, id, serve, func(s *debugview.Snapshot) bool {
		return s.Selected != nil && s.Selected.Planner != nil && len(s.Selected.Planner.Steps) > 0 && len(s.Selected.PlanLog) > 1
	})
}

// Until runs serve as [Plan] does, with the agent of entity id selected and the run
// paused, stepping one frame at a time until until holds for the snapshot (or 2
// minutes pass), then stops serve, asserts that it returned 0, and returns the last
// snapshot read.
func Until(t *testing.T, id string, serve func(ctx context.Context, addr string, stdout io.Writer) int, until func(*debugview.Snapshot) bool) debugview.Snapshot {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() { defer pw.Close(); done <- serve(ctx, "127.0.0.1:0", pw) }()
	lines := bufio.NewScanner(pr)
	require.True(t, lines.Scan())
	base := strings.Fields(lines.Text())[1]
	post := func(v url.Values) {
		resp, err := http.PostForm(base+"cmd", v)
		require.NoError(t, err)
		resp.Body.Close()
	}
	post(url.Values{"op": {"pause"}})
	post(url.Values{"op": {"select"}, "id": {id}})
	var s debugview.Snapshot
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		post(url.Values{"op": {"step"}})
		resp, err := http.Get(base + "state")
		require.NoError(t, err)
		s = debugview.Snapshot{}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&s))
		resp.Body.Close()
		if until(&s) {
			break
		}
	}
	cancel()
	for lines.Scan() {
	}
	assert.Equal(t, 0, <-done)
	return s
}
