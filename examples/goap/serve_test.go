package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/systems/debugview"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -serve serves the live debugger: a selected agent's state holds its plan.
func TestServeShowsThePlan(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	sc, err := build(io.Discard, scenario.GenerateMap(32, 3), 3, 1)
	require.NoError(t, err)
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() { defer pw.Close(); done <- serve(ctx, sc.w, sc.sched, "127.0.0.1:0", 0, pw, io.Discard) }()
	lines := bufio.NewScanner(pr)
	require.True(t, lines.Scan())
	base := strings.Fields(lines.Text())[1]
	post := func(v url.Values) {
		resp, err := http.PostForm(base+"cmd", v)
		require.NoError(t, err)
		resp.Body.Close()
	}
	// Paused and stepped, so the plan's transitions are still in the log when read
	// (unpaced, the run races ahead and old transitions age out of the log).
	post(url.Values{"op": {"pause"}})
	post(url.Values{"op": {"select"}, "id": {"1"}})
	var s debugview.Snapshot
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		post(url.Values{"op": {"step"}})
		resp, err := http.Get(base + "state")
		require.NoError(t, err)
		s = debugview.Snapshot{}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&s))
		resp.Body.Close()
		if s.Selected != nil && s.Selected.Planner != nil && len(s.Selected.Planner.Steps) > 0 && len(s.Selected.PlanLog) > 1 {
			break
		}
	}
	require.NotNil(t, s.Selected, s.SelectError)
	p := s.Selected.Planner
	require.NotNil(t, p)
	assert.Equal(t, "goap", p.Kind)
	assert.True(t, p.Resolved)
	assert.NotEmpty(t, p.Steps)
	assert.NotEmpty(t, p.Facts)
	assert.Greater(t, len(s.Selected.PlanLog), 1)
	assert.NotEmpty(t, p.Goal)
	cancel()
	for lines.Scan() {
	}
	assert.Equal(t, 0, <-done)

	var out, errs bytes.Buffer
	assert.Equal(t, 2, run([]string{"-serve", "127.0.0.1:0", "-speed", "-2"}, &out, &errs))
}
