package main

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -sweep-workers 0 means GOMAXPROCS, as -workers 0 does, and the report gives the
// number it ran with; a bad worker count is refused with an example of worker
// counts, not of agent counts.
func TestSweepWorkersZeroIsGOMAXPROCS(t *testing.T) {
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-sweep", "10", "-sweep-workers", "0,1", "-frames", "1", "-json", "-quiet"}, &out, &errs), errs.String())
	var workers []float64
	for line := range strings.SplitSeq(strings.TrimSpace(out.String()), "\n") {
		var rep map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &rep))
		workers = append(workers, rep["workers"].(float64))
	}
	assert.ElementsMatch(t, []float64{float64(runtime.GOMAXPROCS(0)), 1}, workers)

	for _, list := range []string{"-1", "1,x", "1025", ""} {
		errs.Reset()
		args := []string{"-sweep", "10", "-sweep-workers", list, "-frames", "1"}
		if list == "" {
			args = []string{"-sweep", "10", "-sweep-workers", ",", "-frames", "1"}
		}
		assert.Equal(t, 2, run(args, &out, &errs), "%v", args)
		assert.Contains(t, errs.String(), "want comma-separated worker counts in goroutines, 0 (GOMAXPROCS) to 1024, e.g. 0,1,2", "%v", args)
		assert.NotContains(t, errs.String(), "1000,10000", "%v", args)
	}
	errs.Reset()
	assert.Equal(t, 2, run([]string{"-sweep", "10,0", "-frames", "1"}, &out, &errs))
	assert.Contains(t, errs.String(), `-sweep "10,0": want comma-separated positive agent counts, e.g. 1000,10000`)
}
