package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// skipIfProfiled skips a test that starts a CPU profile when go test itself
// profiles the CPU (-cpuprofile): a process has one CPU profile at a time; and
// under an emulator ($ARCHAI_EMULATED, .ci/run's 386 pass under qemu-user),
// whose signal handling the profiler's SIGPROF crashes ("morestack on g0"), as
// it does asynchronous preemption.
func skipIfProfiled(t *testing.T) {
	t.Helper()
	if f := flag.Lookup("test.cpuprofile"); f != nil && f.Value.String() != "" {
		t.Skip("go test -cpuprofile holds the process's CPU profile")
	}
	if emu := os.Getenv("ARCHAI_EMULATED"); emu != "" {
		t.Skipf("under %s: the CPU profiler's signals crash the emulated program", emu)
	}
}

// readProfile returns the decompressed protocol buffer of the pprof profile in
// file: runtime/pprof writes it gzipped, and a profile not flushed or not closed
// ends before the gzip trailer, which io.ReadAll reports.
func readProfile(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Greater(t, len(b), 2, "%s is empty", file)
	require.Equal(t, []byte{0x1f, 0x8b}, b[:2], "%s starts with gzip's magic bytes", file)
	zr, err := gzip.NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	raw, err := io.ReadAll(zr)
	require.NoError(t, err, "%s is a whole gzip stream (the profile was flushed and closed)", file)
	require.NotEmpty(t, raw)
	return raw
}

// stateHash runs the benchmark with args and -json, and returns its state hash.
func stateHash(t *testing.T, args ...string) string {
	t.Helper()
	var out, errs bytes.Buffer
	require.Equal(t, 0, run(append(args, "-json"), &out, &errs), errs.String())
	var rep map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	h, _ := rep["state_hash"].(string)
	require.Regexp(t, `^[0-9a-f]{16}$`, h)
	return h
}

// -cpuprofile writes a CPU profile of the frames and -memprofile a heap profile
// after the last one, both files pprof reads; profiling changes nothing simulated:
// the state hash is the one of the same run without it, for each scenario.
func TestProfilesOfARunAndItsHashUnchanged(t *testing.T) {
	skipIfProfiled(t)
	dir := t.TempDir()
	for _, scen := range []string{"guards", "swarm", "reference"} {
		t.Run(scen, func(t *testing.T) {
			args := []string{"-scenario", scen, "-agents", "1000", "-frames", "60", "-seed", "3", "-workers", "2"}
			cpu, mem := filepath.Join(dir, scen+"-cpu.out"), filepath.Join(dir, scen+"-mem.out")
			profiled := stateHash(t, append(args, "-cpuprofile", cpu, "-memprofile", mem)...)
			assert.Equal(t, stateHash(t, args...), profiled, "profiling changes nothing simulated")
			assert.Contains(t, string(readProfile(t, cpu)), "nanoseconds", "a CPU profile (sample type cpu/nanoseconds)")
			assert.Contains(t, string(readProfile(t, mem)), "inuse_space", "a heap profile")
		})
	}
	// with -ratio the profile is the scenario's; the reference loop after it runs unprofiled
	cpu := filepath.Join(dir, "ratio-cpu.out")
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-scenario", "swarm", "-agents", "500", "-frames", "30", "-ratio", "-quiet", "-cpuprofile", cpu}, &out, &errs), errs.String())
	assert.Contains(t, out.String(), "ratio to reference")
	readProfile(t, cpu)
}

// A profile file that cannot be created is a usage error (exit 2) before anything
// runs, naming the flag and the file, never a run without its profile.
func TestProfileFileThatCannotBeCreatedFailsBeforeTheRun(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-dir")
	short := []string{"-agents", "10", "-frames", "2", "-quiet"}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-cpuprofile", filepath.Join(missing, "cpu.out")},
			"bench: -cpuprofile " + filepath.Join(missing, "cpu.out") + ": its directory cannot be used: stat " + missing + ": no such file or directory\n"},
		{[]string{"-memprofile", filepath.Join(missing, "mem.out")},
			"bench: -memprofile " + filepath.Join(missing, "mem.out") + ": its directory cannot be used: stat " + missing + ": no such file or directory\n"},
		{[]string{"-cpuprofile", dir}, "bench: -cpuprofile " + dir + " is a directory; give a file name\n"},
	}
	if canCheckWritable && os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		require.NoError(t, os.Mkdir(ro, 0o555))
		cases = append(cases, struct {
			args []string
			want string
		}{[]string{"-cpuprofile", filepath.Join(ro, "cpu.out")},
			"bench: -cpuprofile " + filepath.Join(ro, "cpu.out") + ": its directory " + ro + " is not writable: permission denied\n"})
	}
	for _, tc := range cases {
		var out, errs bytes.Buffer
		assert.Equal(t, 2, run(append(tc.args, short...), &out, &errs), "%v", tc.args)
		assert.Equal(t, tc.want, errs.String(), "%v", tc.args)
		assert.Empty(t, out.String(), "%v: nothing ran", tc.args)
	}

	// a name the checks pass that still cannot be created: said as plainly, exit 2
	var out, errs bytes.Buffer
	pf := profileFlags{cpu: new(string), mem: new(string)}
	*pf.cpu = filepath.Join(missing, "cpu.out")
	p, err := openProfiles(pf)
	assert.Nil(t, p)
	require.Error(t, err)
	assert.Equal(t, "-cpuprofile "+*pf.cpu+": cannot create the file: no such file or directory", err.Error())
	assert.Empty(t, out.String()+errs.String())
}

// Every exit path of a profiled run ends its profiles: an error in the middle of
// the frames (here the -save after the last frame fails, its directory removed
// during the run) and an error of set-up before the frames (a -save-at the loaded run
// has passed) each leave whole profiles, and the CPU profile is stopped.
func TestProfilesAreClosedOnErrorExits(t *testing.T) {
	skipIfProfiled(t)
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	cpu, mem := filepath.Join(dir, "cpu.out"), filepath.Join(dir, "mem.out")
	steadyWatch = func(begin bool) {
		if begin {
			require.NoError(t, os.RemoveAll(sub)) // during the frames, after the checks
		}
	}
	t.Cleanup(func() { steadyWatch = nil })
	var out, errs bytes.Buffer
	code := run([]string{"-agents", "500", "-frames", "40", "-quiet", "-save", filepath.Join(sub, "s.json"), "-save-at", "40",
		"-cpuprofile", cpu, "-memprofile", mem}, &out, &errs)
	steadyWatch = nil
	assert.Equal(t, 1, code)
	assert.Contains(t, errs.String(), "bench: -save: open "+filepath.Join(sub, "s.json"))
	assert.Contains(t, string(readProfile(t, cpu)), "nanoseconds")
	assert.Contains(t, string(readProfile(t, mem)), "inuse_space")
	require.NoError(t, pprof.StartCPUProfile(io.Discard), "the run's CPU profile was stopped")
	pprof.StopCPUProfile()

	// before the frames: a usage error found by the run's set-up; the files hold
	// profiles of no frames
	save := filepath.Join(dir, "s.json")
	out.Reset()
	errs.Reset()
	require.Equal(t, 0, run([]string{"-agents", "100", "-frames", "4", "-quiet", "-save", save, "-save-at", "4"}, &out, &errs), errs.String())
	require.NoError(t, os.Remove(cpu))
	out.Reset()
	errs.Reset()
	code = run([]string{"-load", save, "-frames", "2", "-quiet", "-save", filepath.Join(dir, "t.json"), "-save-at", "2", "-cpuprofile", cpu}, &out, &errs)
	assert.Equal(t, 2, code)
	assert.Contains(t, errs.String(), "-save-at 2 is out of range")
	assert.Contains(t, string(readProfile(t, cpu)), "nanoseconds")
	require.NoError(t, pprof.StartCPUProfile(io.Discard), "no CPU profile left running")
	pprof.StopCPUProfile()
}

// A profile file is created (emptied) before the run, so a profile naming the file
// of another flag destroyed it: -map M -cpuprofile M left M a CPU profile (and exit
// 2: the run read the emptied map), -load S -memprofile S ran and overwrote the save,
// and -cpuprofile F -memprofile F or -md F.md -cpuprofile F.md exited 0 with one of
// the two outputs lost. Each is now a usage error before anything is written, the
// files untouched; /dev/null may still take both profiles.
func TestProfileNamingAnotherFlagsFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	mapFile := filepath.Join(dir, "m.map")
	mapText := "type octile\nheight 4\nwidth 4\nmap\n....\n....\n....\n....\n"
	require.NoError(t, os.WriteFile(mapFile, []byte(mapText), 0o644))
	saveFile := filepath.Join(dir, "s.json")
	require.NoError(t, os.WriteFile(saveFile, []byte("{}"), 0o644))
	short := []string{"-agents", "4", "-frames", "2", "-quiet"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-map", mapFile, "-cpuprofile", mapFile}, "-cpuprofile " + mapFile + " names the file of -map"},
		{[]string{"-map", mapFile, "-memprofile", filepath.Join(dir, ".", "m.map")}, "-memprofile " + filepath.Join(dir, ".", "m.map") + " names the file of -map"},
		{[]string{"-load", saveFile, "-memprofile", saveFile}, "-memprofile " + saveFile + " names the file of -load"},
		{[]string{"-cpuprofile", filepath.Join(dir, "p"), "-memprofile", filepath.Join(dir, "p")}, "-cpuprofile " + filepath.Join(dir, "p") + " names the file of -memprofile"},
		{[]string{"-md", filepath.Join(dir, "r.md"), "-cpuprofile", filepath.Join(dir, "r.md")}, "-cpuprofile " + filepath.Join(dir, "r.md") + " names the file of -md"},
	} {
		var out, errs bytes.Buffer
		assert.Equal(t, 2, run(append(tc.args, short...), &out, &errs), "%v", tc.args)
		assert.Equal(t, "bench: "+tc.want+": the profile would overwrite it; give the profile a file of its own\n", errs.String(), "%v", tc.args)
		assert.Empty(t, out.String(), "%v: nothing ran", tc.args)
	}
	got, err := os.ReadFile(mapFile)
	require.NoError(t, err)
	assert.Equal(t, mapText, string(got), "the map is untouched")
	got, err = os.ReadFile(saveFile)
	require.NoError(t, err)
	assert.Equal(t, "{}", string(got), "the save is untouched")
	_, err = os.Stat(filepath.Join(dir, "p"))
	assert.True(t, os.IsNotExist(err), "no profile was created")

	if _, err := os.Stat(os.DevNull); err == nil {
		assert.NoError(t, checkProfileFiles(profileFlagSet(t, "-cpuprofile", os.DevNull, "-memprofile", os.DevNull)), "a device may take both")
	}
}

// profileFlagSet parses args with the flags checkProfileFiles reads.
func profileFlagSet(t *testing.T, args ...string) *flag.FlagSet {
	t.Helper()
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	for _, name := range []string{"map", "load", "save", "md", "plot"} {
		fs.String(name, "", "")
	}
	addProfileFlags(fs)
	require.NoError(t, fs.Parse(args))
	return fs
}
