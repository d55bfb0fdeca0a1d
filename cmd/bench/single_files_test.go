package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSingleRunAlsoWritesMdAndPlot: -md and -plot on a single run print the run's
// own report (combat, branches, diagnostics, tree faults; or its -json object) and
// also write the files, as the README says; they used to turn it into a one-point
// sweep whose table replaced the report.
func TestSingleRunAlsoWritesMdAndPlot(t *testing.T) {
	dir := t.TempDir()
	md, img := filepath.Join(dir, "single.md"), filepath.Join(dir, "single.png")
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-agents", "200", "-frames", "20", "-quiet", "-md", md, "-plot", img}, &out, &errs), errs.String())
	for _, want := range []string{"archai bench: guards scenario", "combat ", "branches run", "state hash ",
		"diagnostics      no misconfigured agent", "tree faults      0 script errors"} {
		assert.Contains(t, out.String(), want)
	}
	assert.NotContains(t, out.String(), "archai bench: 1 run", "not the sweep's table")
	text, err := os.ReadFile(md)
	require.NoError(t, err)
	assert.Contains(t, string(text), "| guards | 200 |")
	f, err := os.Open(img)
	require.NoError(t, err)
	defer f.Close()
	_, err = png.Decode(f)
	assert.NoError(t, err, "a PNG")

	// with -json, the run's one object (indented), and the files
	require.NoError(t, os.Remove(md))
	out.Reset()
	require.Equal(t, 0, run([]string{"-scenario", "swarm", "-agents", "200", "-frames", "20", "-json", "-md", md}, &out, &errs), errs.String())
	var rep map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep), "one JSON object: %s", out.String())
	assert.Equal(t, "swarm", rep["scenario"])
	assert.Contains(t, rep, "diagnostics")
	assert.FileExists(t, md)

	// a plot not named .png is a usage error before the run (it was found after it)
	out.Reset()
	errs.Reset()
	assert.Equal(t, 2, run([]string{"-agents", "50", "-frames", "2", "-quiet", "-plot", filepath.Join(dir, "p.gif")}, &out, &errs))
	assert.Empty(t, out.String(), "nothing ran")
	assert.Contains(t, errs.String(), "want a file name ending in .png")
}
