package systems_test

import (
	"encoding/json"
	"testing"

	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An entity with an ID over 2³¹ (read from a file, or made up by a program) is no
// agent: Neighbours.ID says -1 and Arena.Release does nothing. On a 32-bit build the
// ID read as a negative int passed the bounds tests and indexed out of range (found
// by the qemu-i386 pass of .ci/run, in the save's intent_flips check).
func TestEntityIDsOverTwoToThe31AreNoAgents(t *testing.T) {
	var e arche.Entity
	require.NoError(t, json.Unmarshal([]byte(`[4000000000,0]`), &e))
	require.Equal(t, uint32(4000000000), e.ID())
	var nb systems.Neighbours
	assert.Equal(t, int32(-1), nb.ID(e))
	var a systems.Arena
	assert.NotPanics(t, func() { a.Release(e) })
}
