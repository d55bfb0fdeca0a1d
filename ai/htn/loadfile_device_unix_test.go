//go:build unix

package htn

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// LoadFile reads at most MaxFileSize bytes: a device that never ends (/dev/zero) or a
// huge file is an error, not a read that fills memory (it ran out of memory).
func TestLoadFileOfADeviceOrAHugeFileIsAnError(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.json")
	f, err := os.Create(big)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(1<<40)) // 1 TiB, sparse: no disk used
	require.NoError(t, f.Close())
	for _, path := range []string{"/dev/zero", big} {
		if _, err := os.Stat(path); err != nil {
			continue // no /dev/zero here
		}
		done := make(chan error, 1)
		go func() {
			_, err := (&Registry{}).LoadFile(path)
			done <- err
		}()
		select {
		case err := <-done:
			require.EqualError(t, err, "htn: "+path+" holds more than MaxFileSize (67108864) bytes")
		case <-time.After(60 * time.Second):
			t.Fatalf("LoadFile still reading %s", path)
		}
	}
}
