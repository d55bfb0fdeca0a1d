//go:build unix

package bt

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// An <include path="…"/> is written in the tree file, so it is user data: one naming a
// named pipe (or a device such as /dev/zero or /dev/stdin) must be an error wrapping
// ErrInclude, not a read that never ends (a pipe without a writer blocks for good; a
// device fills memory), and neither must a file larger than MaxIncludeSize.
func TestIncludeOfAPipeOrDeviceIsAnError(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.xml")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	big := filepath.Join(dir, "big.xml")
	f, err := os.Create(big)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(1<<40)) // 1 TiB, sparse: no disk used
	require.NoError(t, f.Close())
	for _, inc := range []string{fifo, "/dev/zero", big} {
		if _, err := os.Stat(inc); err != nil {
			continue // no /dev/zero here
		}
		main := filepath.Join(dir, "main.xml")
		require.NoError(t, os.WriteFile(main, []byte(`<root BTCPP_format="4"><include path="`+inc+`"/><BehaviorTree ID="A"><AlwaysSuccess/></BehaviorTree></root>`), 0o600))
		done := make(chan error, 1)
		go func() {
			_, err := NewRegistry(nil).LoadDocument(main)
			done <- err
		}()
		select {
		case err := <-done:
			require.Error(t, err, inc)
			require.True(t, errors.Is(err, ErrInclude), "%s: %v", inc, err)
			require.ErrorContains(t, err, "main.xml", inc)
		case <-time.After(20 * time.Second):
			t.Fatalf("LoadDocument still reading the include %s", inc)
		}
	}
}
