//go:build unix

package main

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// -load and -merge of a device that never ends (/dev/zero) are errors after a bounded
// read: both used to read until the process ran out of memory (fatal error: out of
// memory, at 2.3 GB in use under a 4 GB limit).
func TestLoadAndMergeOfADeviceAreErrors(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-load", "/dev/zero", "-frames", "2"}, 2, "bench: -load /dev/zero: not a regular file and holds more than 256 MiB: not a save file (write a large save to a file)\n"},
		{[]string{"-merge", "/dev/zero"}, 2, "bench: /dev/zero: more than 64 MiB, more than any -json or -sweep -json output (a report is about a kilobyte)\n"},
	} {
		var out, errw bytes.Buffer
		done := make(chan int, 1)
		go func() { done <- run(tc.args, &out, &errw) }()
		select {
		case code := <-done:
			assert.Equal(t, tc.code, code, "%v", tc.args)
			assert.Equal(t, tc.want, errw.String(), "%v", tc.args)
		case <-time.After(2 * time.Minute):
			t.Fatalf("%v still reading", tc.args)
		}
	}
}
