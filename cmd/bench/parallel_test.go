package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMain lets the test binary stand in for the command: with
// ARCHAI_BENCH_MAIN=1 it runs bench with its arguments (the GNU parallel
// test starts it so), without building anything.
func TestMain(m *testing.M) {
	if os.Getenv("ARCHAI_BENCH_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// GNU parallel as the engine of a sharded sweep: 4 shards run as separate
// processes, their JSON lines merged, give the single-process sweep (same
// points, same state hashes). Skipped without `parallel`, except on CI
// (CI=true), where .ci/run installs it.
func TestShardsUnderGNUParallel(t *testing.T) {
	if emu := os.Getenv("ARCHAI_EMULATED"); emu != "" {
		// .ci/run's 386 tests under qemu: parallel would run this test binary natively
		t.Skipf("runs its test binary again under GNU parallel, which does not work under %s (the native run checks it)", emu)
	}
	par, err := exec.LookPath("parallel")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI: GNU parallel is missing (.ci/run installs it: apt-get install -y parallel)")
		}
		t.Skip("no GNU parallel (Debian: apt-get install parallel)")
	}
	self, err := os.Executable()
	require.NoError(t, err)
	sweep := "-sweep 100,150,200 -sweep-workers 1,2 -frames 10 -seed 5 -json"
	dir := t.TempDir()
	cmd := exec.Command(par, "--will-cite", "--halt", "now,fail=1", "-j", "2",
		fmt.Sprintf("%s %s -shard {}/4 > %s/shard-{}.jsonl", self, sweep, dir), ":::", "0", "1", "2", "3")
	cmd.Env = append(os.Environ(), "ARCHAI_BENCH_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Run(), stderr.String())

	var single, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-sweep", "100,150,200", "-sweep-workers", "1,2", "-frames", "10", "-seed", "5", "-json"}, &single, &errs), errs.String())
	files, err := filepath.Glob(filepath.Join(dir, "shard-*.jsonl"))
	require.NoError(t, err)
	require.Len(t, files, 4)
	assertMergedEqual(t, single.Bytes(), files)
}
