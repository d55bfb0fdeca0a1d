package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFlockForms(t *testing.T) {
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-boids", "600", "-frames", "600"}, &out, &errs), errs.String())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 2+4)
	var first, last float64
	for i, l := range lines[2:] {
		var tm, pol, near float64
		var walls int
		_, err := fmt.Sscanf(l, "%fs %f %f %d", &tm, &pol, &near, &walls)
		require.NoError(t, err, l)
		assert.Zero(t, walls, "no boid inside a wall: %s", l)
		assert.Greater(t, near, 0.3, "separation keeps boids apart: %s", l)
		if i == 0 {
			first = pol
		}
		last = pol
	}
	assert.Greater(t, last, first, "alignment orders the flock over time")
	assert.Equal(t, 2, run([]string{"-boids", "0"}, &out, &errs))
}
