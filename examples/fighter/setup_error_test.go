package main

import (
	"bytes"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The script with a system added in an unusable setting (a level of detail at a
// negative distance): playing it returns the fault of setup, which main prints as one
// line with exit status 1, rather than panicking.
func TestPlayWithABadSettingIsASetupError(t *testing.T) {
	var out bytes.Buffer
	sc, err := build(&out)
	require.NoError(t, err)
	sc.Sched.Add(&systems.LOD{Levels: []systems.LODLevel{{Distance: -5, Interval: 0.1}}})
	require.NotPanics(t, func() { err = sc.Play(180) })
	var se *ecs.SetupError
	require.ErrorAs(t, err, &se)
	assert.ErrorIs(t, err, ecs.ErrSettings)
	assert.Equal(t, "LOD", se.System)
	assert.Contains(t, err.Error(), "systems: LOD.Levels[0] is {Distance: -5, Interval: 0.1}; want each Distance ≥ 0")
	assert.Empty(t, out.String(), "no frame ran, nothing logged")
}
