package systems_test

import (
	"os"
	"os/exec"
)

// testExecEnv names a program that runs this test binary again in a child
// process (the tests that need a process of their own), as `go test -exec`
// runs it: .ci/run sets it to qemu-i386 when it runs the 386 tests under qemu
// on a kernel that runs no 32-bit binary.
const testExecEnv = "ARCHAI_TEST_EXEC"

// selfCommand returns the command that runs this test binary with args, through
// $ARCHAI_TEST_EXEC if set.
func selfCommand(args ...string) *exec.Cmd {
	if wrap := os.Getenv(testExecEnv); wrap != "" {
		return exec.Command(wrap, append([]string{os.Args[0]}, args...)...)
	}
	return exec.Command(os.Args[0], args...)
}
