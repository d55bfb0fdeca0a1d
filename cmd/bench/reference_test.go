package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReferenceScenario(t *testing.T) {
	hash := map[string]bool{}
	for _, w := range []string{"1", "2"} {
		var out, errs bytes.Buffer
		require.Equal(t, 0, run([]string{"-scenario", "reference", "-agents", "800", "-frames", "40", "-seed", "3", "-workers", w, "-json"}, &out, &errs), errs.String())
		var rep map[string]any
		require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
		assert.Equal(t, "reference", rep["scenario"])
		assert.Positive(t, rep["ms_per_frame_median"])
		assert.Zero(t, rep["allocs_per_frame"])
		hash[rep["state_hash"].(string)] = true
	}
	assert.Len(t, hash, 1, "the same state for 1 and 2 workers")

	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-scenario", "reference", "-agents", "300", "-frames", "10"}, &out, &errs), errs.String())
	assert.Contains(t, out.String(), "reference loop")
	assert.Contains(t, out.String(), "frame time")
	out.Reset()
	assert.Equal(t, 2, run([]string{"-scenario", "reference", "-agents", "300", "-frames", "10", "-lod"}, &out, &errs))
	assert.Contains(t, errs.String(), "the reference loop does not think")
	errs.Reset()
	assert.Equal(t, 2, run([]string{"-scenario", "reference", "-agents", "300", "-frames", "10", "-avoid", "orca"}, &out, &errs))
	assert.Contains(t, errs.String(), "the reference loop always separates")
	errs.Reset()
	assert.Equal(t, 2, run([]string{"-scenario", "reference", "-agents", "300", "-frames", "10", "-ratio"}, &out, &errs))
	assert.Contains(t, errs.String(), "-scenario reference runs the loop alone")
}

func TestRatioToReference(t *testing.T) {
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-scenario", "swarm", "-agents", "500", "-frames", "20", "-ratio", "-json"}, &out, &errs), errs.String())
	var rep map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	ref, ratio := rep["reference_ms_per_frame_median"].(float64), rep["ratio_to_reference"].(float64)
	require.Positive(t, ref)
	assert.InEpsilon(t, rep["ms_per_frame_median"].(float64)/ref, ratio, 1e-9)

	out.Reset()
	require.Equal(t, 0, run([]string{"-agents", "300", "-frames", "10", "-ratio"}, &out, &errs), errs.String())
	assert.Regexp(t, `ratio to reference: [0-9.]+×`, out.String())

	// with ORCA the scenario avoids with ORCA, the reference loop as always
	out.Reset()
	require.Equal(t, 0, run([]string{"-scenario", "swarm", "-agents", "300", "-frames", "10", "-avoid", "orca", "-ratio"}, &out, &errs), errs.String())
	assert.Regexp(t, `ratio to reference: [0-9.]+×`, out.String())

	// without -ratio there is neither the line nor the keys
	out.Reset()
	require.Equal(t, 0, run([]string{"-scenario", "swarm", "-agents", "300", "-frames", "10", "-json"}, &out, &errs), errs.String())
	assert.NotContains(t, out.String(), "ratio_to_reference")
}
