package main

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/examples/internal/serve"
	"github.com/archai-go/archai/examples/internal/servetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -serve serves the live debugger: a selected agent's state holds its plan.
func TestServeShowsThePlan(t *testing.T) {
	sc, err := build(io.Discard, scenario.GenerateMap(32, 3), 3, 1, 0)
	require.NoError(t, err)
	s := servetest.Plan(t, "1", func(ctx context.Context, addr string, stdout io.Writer) int {
		return serve.Run("goap", ctx, sc.World, sc.Sched, addr, 1, stdout, io.Discard)
	})
	require.NotNil(t, s.Selected, s.SelectError)
	p := s.Selected.Planner
	require.NotNil(t, p)
	assert.Equal(t, "goap", p.Kind)
	assert.True(t, p.Resolved)
	assert.NotEmpty(t, p.Steps)
	assert.NotEmpty(t, p.Facts)
	assert.Greater(t, len(s.Selected.PlanLog), 1)
	assert.NotEmpty(t, p.Goal)

	var out, errs bytes.Buffer
	assert.Equal(t, 2, run([]string{"-serve", "127.0.0.1:0", "-speed", "-2"}, &out, &errs))
}
