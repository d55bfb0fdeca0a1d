package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An output file that cannot be written where it is put is a usage error before the
// run: -md and -plot were written only after the last point of the sweep, -save after
// frame -save-at, so the run was lost (a sweep of hours, then "open ...: no such file or
// directory").
func TestOutputFilesAreCheckedBeforeTheRun(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	missing := filepath.Join(dir, "no-such-dir")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-sweep", "10,20", "-md", filepath.Join(missing, "x.md")},
			"bench: -md " + filepath.Join(missing, "x.md") + ": its directory cannot be used: stat " + missing + ": no such file or directory\n"},
		{[]string{"-sweep", "10,20", "-plot", filepath.Join(file, "x.png")},
			"bench: -plot " + filepath.Join(file, "x.png") + ": " + file + " is not a directory\n"},
		{[]string{"-save", dir, "-save-at", "1"}, "bench: -save " + dir + " is a directory; give a file name\n"},
		{[]string{"-save", filepath.Join(missing, "s.json"), "-save-at", "1"},
			"bench: -save " + filepath.Join(missing, "s.json") + ": its directory cannot be used: stat " + missing + ": no such file or directory\n"},
	} {
		var out, errw bytes.Buffer
		assert.Equal(t, 2, run(append(tc.args, "-agents", "10", "-frames", "2", "-quiet"), &out, &errw), "%v", tc.args)
		assert.Equal(t, tc.want, errw.String(), "%v", tc.args)
		assert.Empty(t, out.String(), "%v: nothing ran", tc.args)
	}
	var out, errw bytes.Buffer // a file in an existing directory is fine
	assert.Equal(t, 0, run([]string{"-agents", "10", "-frames", "2", "-quiet", "-md", filepath.Join(dir, "ok.md")}, &out, &errw), errw.String())
}
