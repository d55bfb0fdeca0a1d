package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/archai-go/archai/systems/debugview"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDebugviewWithReportFiles: -debugview with -md or -plot on a single run was
// refused ("the files record the benchmark without the viewer"), but the files are
// written after the run from the run's own report, whose systems include the viewer,
// and -json lines of such a run could be merged into the same files. Now the flags are
// accepted, the run writes both files, the Markdown shows the command and the viewer's
// time under systems, and the plot's title says the viewer was in the run. With a
// sweep (whose runs leave the viewer out) it is still refused.
func TestDebugviewWithReportFiles(t *testing.T) {
	check := func(flags ...string) error {
		set := map[string]bool{}
		for _, f := range flags {
			set[f] = true
		}
		return checkViewConflicts(set)
	}
	assert.NoError(t, check("debugview", "md"))
	assert.NoError(t, check("debugview", "plot"))
	assert.NoError(t, check("debugview", "md", "plot"))
	assert.ErrorContains(t, check("debugview", "md", "sweep"), "-debugview and -sweep cannot be used together")
	assert.ErrorContains(t, check("debugview", "plot", "tutorial"), "-debugview and -tutorial cannot be used together")
	assert.ErrorContains(t, check("serve", "md"), "-serve and -md cannot be used together")
	dir := t.TempDir()
	md, img := filepath.Join(dir, "v.md"), filepath.Join(dir, "v.png")
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-agents", "100", "-frames", "12", "-quiet", "-debugview", "on", "-md", md, "-plot", img}, &out, &errs), errs.String())
	assert.Contains(t, out.String(), "debugview", "the printed report shows the viewer under systems")
	text, err := os.ReadFile(md)
	require.NoError(t, err)
	assert.Contains(t, string(text), "-debugview on")
	assert.Contains(t, string(text), "| debugview |", "the viewer's row in the systems table")
	f, err := os.Open(img)
	require.NoError(t, err)
	defer f.Close()
	_, err = png.Decode(f)
	assert.NoError(t, err)

	assert.Equal(t, debugview.New().Name(), debugviewSystem)
	rep := &report{Scenario: "guards", Workers: 1, Frames: 12, Seed: 1, Systems: map[string]float64{"debugview": 0.1}}
	assert.Equal(t, "guards, 1 worker, 12 frames, seed 1, with debugview", panelTitle([]*report{rep}))
	delete(rep.Systems, "debugview")
	assert.Equal(t, "guards, 1 worker, 12 frames, seed 1", panelTitle([]*report{rep}))
}
