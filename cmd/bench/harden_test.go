package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Crowds whose generated map exceeds grid.MaxCells and negative think budgets are
// errors (exit code 2) before anything is built: they used to panic in grid.New.
func TestCrowdSettingsOutOfRange(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-agents", "20000000", "-frames", "1"}, "-agents: 20000000 agents: their generated map would be about 11449×11449 cells"},
		{[]string{"-scenario", "swarm", "-agents", "10240001", "-frames", "1"}, "at most 10240000 agents"},
		{[]string{"-scenario", "reference", "-agents", "20000000", "-frames", "1"}, "-agents: 20000000 agents"},
		{[]string{"-agents", "10", "-sweep", "100,20000000", "-frames", "1"}, "-sweep: 20000000 agents"},
		{[]string{"-agents", "100", "-frames", "1", "-think-budget", "-5"}, "-think-budget -5: want 0"},
	} {
		var out, errs bytes.Buffer
		assert.Equal(t, 2, run(tc.args, &out, &errs), "%v", tc.args)
		assert.Contains(t, errs.String(), tc.msg, "%v", tc.args)
		assert.NotContains(t, errs.String(), "panic")
	}
}
