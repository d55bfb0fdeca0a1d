package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGuardScript(t *testing.T) {
	var a, b bytes.Buffer
	require.NoError(t, Run(&a))
	require.NoError(t, Run(&b))
	assert.Equal(t, a.String(), b.String(), "deterministic")
	out := a.String()

	// Leaving Combat halts the running Chase before the machine reports the transition.
	assert.Contains(t, out, "  6.1s    bt: chase halted\n  6.1s  Combat → Idle\n")
	// Dying halts the running Fight, then Combat is exited and Dead entered.
	assert.Contains(t, out, " 13.6s    bt: fight halted\n 13.6s    the guard falls\n 13.6s  Combat → Dead\n")
	assert.Equal(t, 4, strings.Count(out, "bt: strike!"), "one strike per second of simulation time")
	assert.True(t, strings.HasSuffix(out, "final mode Dead (previous Combat), health -2\n"))
}
