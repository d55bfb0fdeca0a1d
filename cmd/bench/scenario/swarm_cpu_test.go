package scenario

import (
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSwarmCPUPerSystem is a measuring harness, not a check, for the swarm's
// steady state: with ARCHAI_SWARM_CPU=N (agents) and optionally
// ARCHAI_SWARM_WORKERS=W, it runs the swarm scenario (seed 3) for
// ARCHAI_SWARM_WARM frames unmeasured (30 if unset: the first frame builds
// the field and samples every agent), then 120 frames, and logs each
// system's process CPU time per frame (getrusage around its Update: with
// several workers, the sum of them) beside its wall-clock time. Skipped
// without ARCHAI_SWARM_CPU:
//
//	ARCHAI_SWARM_CPU=100000 ARCHAI_SWARM_WORKERS=2 go test ./cmd/bench/scenario -run SwarmCPUPerSystem -v
//
// ARCHAI_DRAW_ORDER=1 creates the agents in draw order instead of tile order
// (SwarmConfig.DrawOrder), to measure what the tile order saves.
func TestSwarmCPUPerSystem(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("ARCHAI_SWARM_CPU"))
	if n <= 0 {
		t.Skip("set ARCHAI_SWARM_CPU to the number of agents to measure")
	}
	workers, _ := strconv.Atoi(os.Getenv("ARCHAI_SWARM_WORKERS"))
	warm, err := strconv.Atoi(os.Getenv("ARCHAI_SWARM_WARM"))
	if err != nil {
		warm = 30
	}
	const frames = 120
	sc, err2 := NewSwarm(SwarmConfig{Agents: n, Seed: 3, Workers: max(workers, 1), DrawOrder: os.Getenv("ARCHAI_DRAW_ORDER") != ""})
	require.NoError(t, err2)
	total := cpuPerSystem(t, sc.World, sc.Systems(), warm, frames)
	t.Logf("total cpu %.2f ms/frame; goal moves %d, near goal %d", total, sc.Director.Moves, sc.Director.Near)
}
