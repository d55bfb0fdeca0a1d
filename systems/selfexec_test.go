package systems_test

import (
	"os"
	"os/exec"
	"testing"
)

// emulatedEnv, when set (.ci/run sets it to qemu-i386 when it runs the 386
// tests under qemu on a kernel that runs no 32-bit binary), says this test
// binary runs under that emulator.
const emulatedEnv = "ARCHAI_EMULATED"

// selfCommand returns the command that runs this test binary again with args, in
// a process of its own. Under an emulator ($ARCHAI_EMULATED) it skips t: a fork
// from an emulated multi-threaded Go program crashed qemu-user's guest ("fatal
// error: exitsyscall: syscall frame is no longer valid"), and the binary cannot
// be run without the emulator; the native test run checks the same.
func selfCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	if emu := os.Getenv(emulatedEnv); emu != "" {
		t.Skipf("runs its test binary again in a child process, which does not work under %s (the native run checks it)", emu)
	}
	return exec.Command(os.Args[0], args...)
}
