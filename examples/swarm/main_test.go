package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/examples/internal/serve"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSwarmRunsAndWritesAGIF(t *testing.T) {
	gif := filepath.Join(t.TempDir(), "swarm.gif")
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-agents", "1500", "-seconds", "6", "-gif", gif}, &out, &errs), errs.String())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 3+6+1)
	arrivedBeforeMove := 0
	for i, l := range lines[3:9] {
		var tm, near, arrived, walls int
		var goal string
		_, err := fmt.Sscanf(l, "%ds %s %d %d %d", &tm, &goal, &near, &arrived, &walls)
		require.NoError(t, err, l)
		assert.Zero(t, walls, l)
		if i == 4 {
			arrivedBeforeMove = arrived
		}
	}
	assert.Positive(t, arrivedBeforeMove, "agents gathered at the first goal within 5 s")
	st, err := os.Stat(gif)
	require.NoError(t, err)
	assert.Greater(t, st.Size(), int64(1000))
	assert.Equal(t, 2, run([]string{"-agents", "-1"}, &out, &errs))
}

func TestSwarmServes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	sw, err := scenario.NewSwarm(scenario.SwarmConfig{Agents: 100, Seed: 1})
	require.NoError(t, err)
	sched := ecs.NewScheduler(sw.Systems()...)
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		defer pw.Close()
		done <- serve.Run("swarm", ctx, sw.World, sched, "127.0.0.1:0", 0, pw, io.Discard)
	}()
	lines := bufio.NewScanner(pr)
	require.True(t, lines.Scan())
	url := strings.Fields(lines.Text())[1]
	resp, err := http.Get(url)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	cancel()
	require.True(t, lines.Scan())
	assert.Contains(t, lines.Text(), "stopped after")
	assert.Equal(t, 0, <-done)

	var out, errs bytes.Buffer
	assert.Equal(t, 1, run([]string{"-agents", "10", "-serve", "256.1.1.1:x"}, &out, &errs))
	assert.Equal(t, 2, run([]string{"-agents", "10", "-serve", "127.0.0.1:0", "-speed", "-2"}, &out, &errs))
}
