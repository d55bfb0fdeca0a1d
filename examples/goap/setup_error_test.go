package main

import (
	"bytes"
	"testing"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The example with its registry of domains forgotten (the world has no *goap.Registry):
// playing it returns the fault of setup, which run prints as one line with exit status
// 1, rather than panicking.
func TestPlayWithoutTheRegistryIsASetupError(t *testing.T) {
	var out bytes.Buffer
	sc, err := build(&out, scenario.GenerateMap(32, 3), 3, 1, 10)
	require.NoError(t, err)
	sc.World.Resources().Remove(arche.ResourceID[goap.Registry](sc.World))
	out.Reset()
	require.NotPanics(t, func() { err = sc.Play(600) })
	assert.ErrorIs(t, err, ecs.ErrMissingResource)
	assert.EqualError(t, err, "systems: GOAP: the world has no *goap.Registry resource: add the registry of the agents' domains with arche.AddResource(w, registry) before Initialize")
	assert.Empty(t, out.String(), "no frame ran, nothing reported")
}
