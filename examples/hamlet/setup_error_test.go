package main

import (
	"bytes"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The hamlet with its map forgotten: Play returns the fault of setup (the first system
// that needs the map names itself), which run prints as one line with exit status 1.
func TestPlayWithoutTheMapIsASetupError(t *testing.T) {
	h, err := Build(7)
	require.NoError(t, err)
	h.W.Resources().Remove(arche.ResourceID[grid.Grid](h.W))
	var out bytes.Buffer
	require.NotPanics(t, func() { err = h.Play(60, &out) })
	var se *ecs.SetupError
	require.ErrorAs(t, err, &se)
	assert.ErrorIs(t, err, ecs.ErrMissingResource)
	assert.Equal(t, "Spatial", se.System)
	assert.Contains(t, err.Error(), "systems: Spatial needs the map: the world has no *grid.Grid resource")
	assert.Empty(t, out.String())
	assert.Zero(t, h.Sched.Frames())
}
