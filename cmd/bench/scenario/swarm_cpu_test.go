package scenario

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/archai-go/archai/ecs"
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
	sys := sc.Systems()
	for _, s := range sys {
		s.Initialize(sc.World)
	}
	defer func() {
		for _, s := range sys {
			s.Finalize(sc.World)
		}
	}()
	for range warm {
		for _, s := range sys {
			s.Update(sc.World)
		}
	}
	cpu := make([]time.Duration, len(sys))
	wall := make([]time.Duration, len(sys))
	for range frames {
		for i, s := range sys {
			c0, w0 := processCPU(), time.Now()
			s.Update(sc.World)
			cpu[i] += processCPU() - c0
			wall[i] += time.Since(w0)
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / frames }
	var total time.Duration
	for i, s := range sys {
		name := "?"
		if nm, ok := s.(ecs.Namer); ok {
			name = nm.Name()
		}
		total += cpu[i]
		t.Logf("%-12s cpu %6.2f ms  wall %6.2f ms", name, ms(cpu[i]), ms(wall[i]))
	}
	t.Logf("total cpu %.2f ms/frame; goal moves %d, near goal %d", ms(total), sc.Director.Moves, sc.Director.Near)
}
