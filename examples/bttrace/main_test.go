package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun runs the program with its standard output in a file and checks the story the
// transition log tells.
func TestRun(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out.txt"))
	require.NoError(t, err)
	stdout := os.Stdout
	os.Stdout = f
	err = run()
	os.Stdout = stdout
	require.NoError(t, err)
	require.NoError(t, f.Close())
	data, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	out := string(data)

	// the enemy is in range from t = 3 s: two shots 0.5 s apart, then the ammo is gone
	assert.Contains(t, out, "t=3.000   [12]   Shoot                          Idle → Success\n")
	assert.Contains(t, out, "t=3.500   [11]   Cooldown                       Failure → Success\n")
	assert.Contains(t, out, "t=3.750   [10]   CheckBlackboard                Failure → Success\n")
	// hit at t = 5.5 s: the flee subtree preempts the patrol, which is halted in the same tick
	assert.Contains(t, out, "t=5.500   [3]    SubTree \"Flee\"                 Idle → Running\n")
	assert.Contains(t, out, "t=5.500   [14]   MoveTo                         Running → Idle\n")
	// healed by t = 7 s: the flee is abandoned and the patrol resumes
	assert.Contains(t, out, "t=7.000   [6]    Rest                           Running → Idle\n")
	assert.Contains(t, out, "\ntree at t = 10\nReactiveFallback \"guard\"                     Running (child 2)\n")
}
