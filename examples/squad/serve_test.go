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

// -serve serves the live debugger: a selected member's state holds its plan and squad.
func TestServeShowsThePlan(t *testing.T) {
	sc, err := build(io.Discard, scenario.GenerateMap(40, 5), 5, 0)
	require.NoError(t, err)
	s := servetest.Plan(t, "2", func(ctx context.Context, addr string, stdout io.Writer) int {
		return serve.Run("squad", ctx, sc.World, sc.Sched, addr, 1, stdout, io.Discard)
	})
	require.NotNil(t, s.Selected, s.SelectError)
	p := s.Selected.Planner
	require.NotNil(t, p)
	assert.Equal(t, "htn", p.Kind)
	assert.True(t, p.Resolved)
	assert.NotEmpty(t, p.Steps)
	assert.NotEmpty(t, p.Facts)
	assert.Greater(t, len(s.Selected.PlanLog), 1)
	assert.Equal(t, "squad-member", p.Domain)
	require.NotNil(t, p.Squad)
	assert.Len(t, p.Squad.Members, Members)

	var out, errs bytes.Buffer
	assert.Equal(t, 2, run([]string{"-serve", "127.0.0.1:0", "-speed", "-2"}, &out, &errs))
}
