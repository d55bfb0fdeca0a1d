package main

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/archai-go/archai/examples/internal/serve"
	"github.com/archai-go/archai/examples/internal/servetest"
	"github.com/archai-go/archai/systems/debugview"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A minute and a half of the hamlet: villagers fell trees and haul, go through a
// night, flee the wolves; the wolves change their minds and eat; no agent is
// misconfigured; the run is the same twice.
func TestHamlet(t *testing.T) {
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-seconds", "90"}, &out, &errs), errs.String())
	text := out.String()
	last := strings.Fields(text[strings.LastIndex(strings.TrimSpace(text), "\n")+1:])
	// "L logs, H loads, T state transitions, C changes of mind"
	require.Len(t, last, 11, text)
	for _, i := range []int{0, 2, 4, 7} {
		n, err := strconv.Atoi(last[i])
		require.NoError(t, err)
		assert.Positive(t, n, "%s in %q", last[i+1], text)
	}
	assert.Contains(t, text, "meals")
	var again bytes.Buffer
	require.Equal(t, 0, run([]string{"-seconds", "90"}, &again, io.Discard))
	assert.Equal(t, text, again.String(), "deterministic")
}

// -serve shows a villager's active states and the tree inside its state, and a
// wolf's considerations.
func TestServeShowsStatesTreesAndScores(t *testing.T) {
	h, err := Build(7)
	require.NoError(t, err)
	serveIt := func(ctx context.Context, addr string, stdout io.Writer) int {
		return serve.Run("hamlet", ctx, h.W, h.Sched, addr, 1, stdout, io.Discard)
	}
	s := servetest.Until(t, strconv.Itoa(int(h.Villagers[0].ID())), serveIt, func(s *debugview.Snapshot) bool {
		a := s.Selected
		return a != nil && a.FSM != nil && len(a.FSM.Trees) > 0 && a.FSM.Trees[0].Field != ""
	})
	a := s.Selected
	require.NotNil(t, a, s.SelectError)
	require.NotNil(t, a.FSM)
	assert.Equal(t, []string{"Day", "Work", "Chop"}, a.FSM.Active)
	tr := a.FSM.Trees[0]
	assert.Equal(t, "chop", tr.Tree.Name)
	assert.Equal(t, []string{"Day/Work/Chop"}, tr.States)
	assert.Equal(t, "Chores.Chop", tr.Field)
	assert.True(t, tr.Active)
	assert.Equal(t, 1, tr.Tree.Status[1], "go to the woods: Running")

	// the log of state changes since the selection: the pause the test posts
	// races the first frames, and on a loaded machine the villager's first
	// transitions can come before the selection, so wait for a later one
	h, err = Build(7)
	require.NoError(t, err)
	s = servetest.Until(t, strconv.Itoa(int(h.Villagers[0].ID())), serveIt, func(s *debugview.Snapshot) bool {
		return s.Selected != nil && len(s.Selected.FSMLog) > 0
	})
	require.NotNil(t, s.Selected, s.SelectError)
	require.NotEmpty(t, s.Selected.FSMLog)

	h, err = Build(7)
	require.NoError(t, err)
	s = servetest.Until(t, strconv.Itoa(int(h.Wolves[0].ID())), serveIt, func(s *debugview.Snapshot) bool {
		return s.Selected != nil && s.Selected.Utility != nil && s.Selected.Utility.Traced
	})
	u := s.Selected.Utility
	require.NotNil(t, u)
	require.True(t, u.Traced)
	assert.Equal(t, "wolf", u.Name)
	require.Len(t, u.Options, 3)
	require.Len(t, u.Options[0].Considerations, 3)
	assert.NotNil(t, u.Options[0].Considerations[0].Input)
}

// Every seed's hamlet hauls and has no misconfigured agent. Before, the store
// stood within FleeWithin of a wolf's den, so a resting wolf kept the
// villagers from it (no load hauled in 90 s for seeds 4, 5 and 6), and a
// wolf's round round a den near the map's edge set a goal off the map
// (seed 6: goal_unusable, exit status 1).
func TestHamletEverySeedHauls(t *testing.T) {
	for seed := 1; seed <= 10; seed++ {
		var out, errs bytes.Buffer
		require.Equal(t, 0, run([]string{"-seconds", "90", "-seed", strconv.Itoa(seed)}, &out, &errs), "seed %d: %s", seed, errs.String())
		text := strings.TrimSpace(out.String())
		last := strings.Fields(text[strings.LastIndex(text, "\n")+1:])
		require.Len(t, last, 11, text)
		loads, err := strconv.Atoi(last[2])
		require.NoError(t, err)
		assert.Positive(t, loads, "seed %d: %s", seed, text)
	}
}

func TestPluralCountsOneWithoutAnS(t *testing.T) {
	assert.Equal(t, "1 load", plural(1, "load"))
	assert.Equal(t, "0 logs", plural(0, "log"))
	assert.Equal(t, "2 logs", plural(2, "log"))
}
