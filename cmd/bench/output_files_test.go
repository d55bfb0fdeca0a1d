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
		{[]string{"-agents", "10", "-save", dir, "-save-at", "1"}, "bench: -save " + dir + " is a directory; give a file name\n"},
		{[]string{"-agents", "10", "-save", filepath.Join(missing, "s.json"), "-save-at", "1"},
			"bench: -save " + filepath.Join(missing, "s.json") + ": its directory cannot be used: stat " + missing + ": no such file or directory\n"},
	} {
		var out, errw bytes.Buffer
		assert.Equal(t, 2, run(append(tc.args, "-frames", "2", "-quiet"), &out, &errw), "%v", tc.args)
		assert.Equal(t, tc.want, errw.String(), "%v", tc.args)
		assert.Empty(t, out.String(), "%v: nothing ran", tc.args)
	}
	var out, errw bytes.Buffer // a file in an existing directory is fine
	assert.Equal(t, 0, run([]string{"-agents", "10", "-frames", "2", "-quiet", "-md", filepath.Join(dir, "ok.md")}, &out, &errw), errw.String())
}

// An output file's name must fit what is written to it, checked before anything runs:
// -plot draws a PNG (it was refused only after the whole sweep), -md writes Markdown,
// -save writes JSON. A name that exists and is not a regular file (a device such as
// /dev/null, a pipe) is written as it is. -merge checks them before it reads a file.
func TestOutputFileNamesAreCheckedBeforeTheRun(t *testing.T) {
	dir := t.TempDir()
	short := []string{"-agents", "10", "-frames", "2", "-quiet"}
	sweep := []string{"-frames", "2", "-quiet"} // -agents with -sweep is a usage error
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append([]string{"-sweep", "10,20", "-plot", filepath.Join(dir, "p.txt")}, sweep...),
			"bench: -plot " + filepath.Join(dir, "p.txt") + ": want a file name ending in .png (the plot is a PNG image)\n"},
		{append([]string{"-plot", filepath.Join(dir, "p")}, short...),
			"bench: -plot " + filepath.Join(dir, "p") + ": want a file name ending in .png (the plot is a PNG image)\n"},
		{append([]string{"-sweep", "10", "-md", filepath.Join(dir, "t.png")}, sweep...),
			"bench: -md " + filepath.Join(dir, "t.png") + ": want a file name ending in .md or .markdown (the table is Markdown)\n"},
		{append([]string{"-save", filepath.Join(dir, "s.map"), "-save-at", "1"}, short...),
			"bench: -save " + filepath.Join(dir, "s.map") + ": want a file name ending in .json (a save file is JSON)\n"},
		// before the files to merge are read (there are none: that would be exit 1)
		{[]string{"-merge", filepath.Join(dir, "none.jsonl"), "-plot", filepath.Join(dir, "p.jpg")},
			"bench: -plot " + filepath.Join(dir, "p.jpg") + ": want a file name ending in .png (the plot is a PNG image)\n"},
		{[]string{"-merge", filepath.Join(dir, "none.jsonl"), "-md", filepath.Join(dir, "no-such-dir", "t.md")},
			"bench: -md " + filepath.Join(dir, "no-such-dir", "t.md") + ": its directory cannot be used: stat " + filepath.Join(dir, "no-such-dir") + ": no such file or directory\n"},
	} {
		var out, errw bytes.Buffer
		assert.Equal(t, 2, run(tc.args, &out, &errw), "%v", tc.args)
		assert.Equal(t, tc.want, errw.String(), "%v", tc.args)
		assert.Empty(t, out.String(), "%v: nothing ran", tc.args)
	}
	// upper case and .markdown are fine; so is a device
	var out, errw bytes.Buffer
	args := append([]string{"-md", filepath.Join(dir, "T.MARKDOWN"), "-plot", filepath.Join(dir, "P.PNG")}, short...)
	require.Equal(t, 0, run(args, &out, &errw), errw.String())
	assert.FileExists(t, filepath.Join(dir, "T.MARKDOWN"))
	assert.FileExists(t, filepath.Join(dir, "P.PNG"))
	if _, err := os.Stat(os.DevNull); err == nil {
		out.Reset()
		errw.Reset()
		require.Equal(t, 0, run(append([]string{"-md", os.DevNull}, short...), &out, &errw), errw.String())
	}
}

// A directory or an existing file the process may not write is a usage error before
// the run, found without creating a file.
func TestOutputFilesNotWritableAreCheckedBeforeTheRun(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro")
	require.NoError(t, os.Mkdir(ro, 0o555))
	locked := filepath.Join(dir, "locked.md")
	require.NoError(t, os.WriteFile(locked, []byte("keep"), 0o444))
	if !canCheckWritable || os.Geteuid() == 0 {
		t.Skip("no write-permission check here, or running as root (who may write anywhere)")
	}
	short := []string{"-agents", "10", "-frames", "2", "-quiet"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append([]string{"-sweep", "10,20", "-md", filepath.Join(ro, "t.md")}, short...),
			"bench: -md " + filepath.Join(ro, "t.md") + ": its directory " + ro + " is not writable: permission denied\n"},
		{append([]string{"-save", filepath.Join(ro, "s.json"), "-save-at", "1"}, short...),
			"bench: -save " + filepath.Join(ro, "s.json") + ": its directory " + ro + " is not writable: permission denied\n"},
		{append([]string{"-md", locked}, short...),
			"bench: -md " + locked + ": the file exists and is not writable: permission denied\n"},
	} {
		var out, errw bytes.Buffer
		assert.Equal(t, 2, run(tc.args, &out, &errw), "%v", tc.args)
		assert.Equal(t, tc.want, errw.String(), "%v", tc.args)
		assert.Empty(t, out.String(), "%v: nothing ran", tc.args)
	}
	b, err := os.ReadFile(locked)
	require.NoError(t, err)
	assert.Equal(t, "keep", string(b))
}
