package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bench runs the command in-process and returns its JSON report.
func bench(t *testing.T, args ...string) map[string]any {
	t.Helper()
	var out, errs bytes.Buffer
	require.Equal(t, 0, run(append(args, "-json"), &out, &errs), errs.String())
	var rep map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	return rep
}

// A run of 2N frames gives hash H; a run saved after frame N, loaded and run N more
// frames ends at frame 2N with hash H, with 1 and 2 workers, for both scenarios.
// The figures (2,000 agents, 600 frames) run with ARCHAI_LONG=1.
func TestSaveAtThenLoadEndsWithTheSameHash(t *testing.T) {
	agents, frames := 400, 120
	if os.Getenv("ARCHAI_LONG") != "" {
		agents, frames = 2000, 600
	}
	half := strconv.Itoa(frames / 2)
	for _, scen := range []string{"guards", "swarm"} {
		t.Run(scen, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), scen+".json")
			full := bench(t, "-scenario", scen, "-agents", strconv.Itoa(agents), "-frames", strconv.Itoa(frames), "-workers", "2")
			saved := bench(t, "-scenario", scen, "-agents", strconv.Itoa(agents), "-frames", strconv.Itoa(frames), "-workers", "1",
				"-save", file, "-save-at", half)
			assert.Equal(t, full["state_hash"], saved["state_hash"], "saving does not change the run")
			assert.Equal(t, float64(frames/2), saved["saved"].(map[string]any)["frame"])
			for _, workers := range []string{"1", "2"} {
				loaded := bench(t, "-load", file, "-frames", half, "-workers", workers)
				assert.Equal(t, full["state_hash"], loaded["state_hash"], "%s workers", workers)
				assert.Equal(t, float64(frames), loaded["frame"], "the frame count of the whole run")
				assert.Equal(t, float64(frames/2), loaded["frames"], "frames run after loading")
				assert.Equal(t, scen, loaded["scenario"], "from the file")
				assert.Equal(t, float64(agents), loaded["agents"], "from the file")
			}
		})
	}
}

func TestSaveLoadFlagErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "g.json")
	bench(t, "-agents", "100", "-frames", "10", "-save", file, "-save-at", "5")
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"-save-at", "5"}, "-save-at needs -save"},
		{[]string{"-save", file}, "-save needs -save-at"},
		{[]string{"-agents", "100", "-frames", "10", "-save", filepath.Join(dir, "x.json"), "-save-at", "11"}, "bench: -save-at 11 is out of range: it counts frames since the start of the run, 1 to -frames (10)\n"},
		{[]string{"-load", file, "-agents", "50"}, "[-agents] come from it"},
		{[]string{"-load", filepath.Join(dir, "missing.json")}, "bench: -load " + filepath.Join(dir, "missing.json") + ": no such file or directory\n"},
		{[]string{"-load", file, "-frames", "5", "-save", filepath.Join(dir, "y.json"), "-save-at", "5"}, "bench: -save-at 5 is out of range: it counts frames since the start of the saved run, which resumes after frame 5 for -frames 5 more: 6 to 10\n"},
		{[]string{"-load", file, "-frames", "5", "-save", filepath.Join(dir, "y.json"), "-save-at", "11"}, "6 to 10\n"},
	} {
		var out, errs bytes.Buffer
		assert.Equal(t, 2, run(c.args, &out, &errs), "%v: a usage error", c.args)
		assert.Contains(t, errs.String(), c.says, c.args)
		assert.Empty(t, out.String(), c.args)
	}
	assert.NoFileExists(t, filepath.Join(dir, "x.json"))
	assert.NoFileExists(t, filepath.Join(dir, "y.json"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cut.json"), []byte(`{"format":"archai-world","vers`), 0o644))
	var out, errs bytes.Buffer
	assert.Equal(t, 2, run([]string{"-load", filepath.Join(dir, "cut.json")}, &out, &errs))
	assert.Contains(t, errs.String(), "not a whole archai save file")
}

// The generated map's size and the sector setting are part of the run: a file saved
// with -map-size and -sectors continues on the same map, with the same fields.
func TestSaveLoadKeepsMapSizeAndSectors(t *testing.T) {
	for _, sectors := range []string{"0", "32"} {
		t.Run("sectors"+sectors, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "sized.json")
			args := []string{"-scenario", "swarm", "-agents", "600", "-map-size", "192", "-sectors", sectors}
			full := bench(t, append(args, "-frames", "40")...)
			bench(t, append(args, "-frames", "20", "-save", file, "-save-at", "20")...)
			loaded := bench(t, "-load", file, "-frames", "20")
			assert.Equal(t, full["map"], loaded["map"])
			assert.Equal(t, full["state_hash"], loaded["state_hash"])
		})
	}
}

// A save file's settings are checked as the flags are: a sector side the flag would
// refuse is refused from the file too (it used to panic in FlowField.Initialize).
func TestLoadChecksTheFilesSettings(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.json")
	bench(t, "-scenario", "swarm", "-agents", "200", "-map-size", "64", "-frames", "10", "-save", file, "-save-at", "5")
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(data, &doc))
	doc["meta"].(map[string]any)["sectors"] = 1
	bad, err := json.Marshal(doc)
	require.NoError(t, err)
	badFile := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(badFile, bad, 0o644))
	var out, errs bytes.Buffer
	assert.Equal(t, 2, run([]string{"-load", badFile, "-frames", "5"}, &out, &errs))
	assert.Contains(t, errs.String(), "bad.json: -sectors 1: want -1")
}
