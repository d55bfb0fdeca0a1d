package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A flag given twice is a usage error naming the flag and both values, for every
// flag (Go's flag package takes the last one silently: -scen a -scen b checked b);
// found before anything runs or any file is read, also among -merge's files.
func TestRepeatedFlagIsAUsageError(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.md")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-scen", "a.map.scen", "-scen", "b.map.scen"}, `bench: -scen is given 2 times ("a.map.scen", "b.map.scen"): give each flag once` + "\n"},
		{[]string{"-agents", "10", "-frames", "1", "-agents", "20"}, `bench: -agents is given 2 times ("10", "20"): give each flag once` + "\n"},
		{[]string{"-quiet", "-agents", "10", "-quiet"}, `bench: -quiet is given 2 times ("true", "true"): give each flag once` + "\n"},
		{[]string{"-seed=1", "-seed", "2", "-seed", "3"}, `bench: -seed is given 3 times ("1", "2", "3"): give each flag once` + "\n"},
		{[]string{"-merge", "a.jsonl", "-md", out, "b.jsonl", "-md", out}, `bench: -md is given 2 times ("` + out + `", "` + out + `"): give each flag once` + "\n"},
	} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, run(tc.args, &stdout, &stderr), "%v", tc.args)
		assert.Equal(t, tc.msg, stderr.String(), "%v", tc.args)
		assert.Empty(t, stdout.String(), "%v", tc.args)
		assert.NoFileExists(t, out)
	}
	// what follows -- is not a flag
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run([]string{"-agents", "10", "--", "-agents", "20"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "unexpected arguments")
}
