package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFighterScript(t *testing.T) {
	var a, b bytes.Buffer
	require.NoError(t, Run(&a))
	require.NoError(t, Run(&b))
	assert.Equal(t, a.String(), b.String(), "deterministic")
	out := a.String()

	assert.Contains(t, out, "  0.0s  attack: None → ranged   melee 0.00 ranged 0.83 reload 0.00\n")
	// An empty magazine: the running Shoot is halted and Reload starts in the same tick.
	assert.Contains(t, out, "  1.1s    bt: shoot halted\n  1.1s    bt: reloading\n  1.1s  attack: ranged → reload")
	// The enemy closes in mid-reload: the utility choice flips and the reload is abandoned.
	assert.Contains(t, out, "  6.8s    bt: reload halted\n  6.8s    bt: swing (ammo 0)\n  6.8s  attack: reload → melee")
	// Out of sight: the combat branch's guard fails and halts the running attack.
	assert.Contains(t, out, " 16.6s    bt: reload halted\n")
	assert.Contains(t, out, "attacks 20, ammo 2, last choice reload\n")
}
