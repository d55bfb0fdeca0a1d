package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoadedGuardRunReportsTheUnbrokenRunsCounts: a guard run saved at frame 60 and
// loaded for 60 more reports the unbroken 120-frame run's totals (strikes, paths) and
// its thought per frame: Decision.TotalThought is saved, so it counts since the run's
// start, and was divided by the 60 frames run after the load (twice the unbroken
// run's figure). The text says the branch counts are since the load (not saved).
func TestLoadedGuardRunReportsTheUnbrokenRunsCounts(t *testing.T) {
	file := filepath.Join(t.TempDir(), "g.json")
	full := bench(t, "-agents", "300", "-frames", "120", "-workers", "1")
	bench(t, "-agents", "300", "-frames", "120", "-workers", "1", "-save", file, "-save-at", "60")
	loaded := bench(t, "-load", file, "-frames", "60", "-workers", "1")
	require.Equal(t, full["state_hash"], loaded["state_hash"])
	for _, k := range []string{"thought_per_frame", "paths_served", "strikes"} {
		assert.Equal(t, full[k], loaded[k], k)
	}
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-load", file, "-frames", "60", "-workers", "1"}, &out, &errs), errs.String())
	assert.Contains(t, out.String(), "leaf ticks per behavior-tree branch, since the load)")
}
