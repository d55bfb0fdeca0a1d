package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSwarmRunsAndWritesAGIF(t *testing.T) {
	gif := filepath.Join(t.TempDir(), "swarm.gif")
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-agents", "1500", "-seconds", "6", "-gif", gif}, &out, &errs), errs.String())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 3+6+1)
	arrivedBeforeMove := 0
	for i, l := range lines[3:9] {
		var tm, near, arrived, walls int
		var goal string
		_, err := fmt.Sscanf(l, "%ds %s %d %d %d", &tm, &goal, &near, &arrived, &walls)
		require.NoError(t, err, l)
		assert.Zero(t, walls, l)
		if i == 4 {
			arrivedBeforeMove = arrived
		}
	}
	assert.Positive(t, arrivedBeforeMove, "agents gathered at the first goal within 5 s")
	st, err := os.Stat(gif)
	require.NoError(t, err)
	assert.Greater(t, st.Size(), int64(1000))
	assert.Equal(t, 2, run([]string{"-agents", "-1"}, &out, &errs))
}
