package scenario

import (
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// TestGuardsCPUPerSystem is a measuring harness, not a check: with
// ARCHAI_GUARDS_CPU=N (agents) and optionally ARCHAI_GUARDS_WORKERS=W, it runs
// the guard scenario (seed 3) for 120 frames and logs each system's process
// CPU time per frame (the sum of the process's threads' CPU clocks around its
// Update, threadsCPU: with several workers, the sum of them) beside its
// wall-clock time, and the getrusage figure the harness used to log (which
// charges other threads' time late, see threadsCPU). CPU time holds up better
// than wall-clock time on a shared machine. Skipped without the variable:
//
//	ARCHAI_GUARDS_CPU=100000 ARCHAI_GUARDS_WORKERS=2 go test ./cmd/bench/scenario -run CPUPerSystem -v
//
// ARCHAI_DRAW_ORDER=1 creates the agents in draw order instead of tile order
// (Config.DrawOrder), to measure what the tile order saves.
func TestGuardsCPUPerSystem(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("ARCHAI_GUARDS_CPU"))
	if n <= 0 {
		t.Skip("set ARCHAI_GUARDS_CPU to the number of agents to measure")
	}
	workers, _ := strconv.Atoi(os.Getenv("ARCHAI_GUARDS_WORKERS"))
	const frames = 120
	sc, err := NewGuards(Config{Agents: n, Seed: 3, Workers: max(workers, 1), DrawOrder: os.Getenv("ARCHAI_DRAW_ORDER") != ""})
	require.NoError(t, err)
	total := cpuPerSystem(t, sc.World, sc.Systems(), 0, frames)
	t.Logf("total cpu %.2f ms/frame; strikes %d, paths served %d, %.2f decisions a frame",
		total, sc.Combat.TotalStrikes, sc.PathQueue.TotalServed, float64(sc.Decision.TotalThought)/frames)
}

// cpuPerSystem initializes sys on w, runs warm frames unmeasured, then frames
// frames timing each system's Update in process CPU time (threadsCPU; and
// getrusage's, processCPU) and wall-clock time, logs them per system (ms per
// frame) and returns the systems' total CPU ms per frame (threadsCPU's). It finalizes the systems when the test ends.
func cpuPerSystem(t *testing.T, w *arche.World, sys []ecs.System, warm, frames int) float64 {
	t.Helper()
	for _, s := range sys {
		s.Initialize(w)
	}
	t.Cleanup(func() {
		for _, s := range sys {
			s.Finalize(w)
		}
	})
	for range warm {
		for _, s := range sys {
			s.Update(w)
		}
	}
	cpu := make([]time.Duration, len(sys))
	rus := make([]time.Duration, len(sys))
	wall := make([]time.Duration, len(sys))
	var th threadsCPU
	for range frames {
		for i, s := range sys {
			c0 := th.begin()
			r0, w0 := processCPU(), time.Now()
			s.Update(w)
			wall[i] += time.Since(w0)
			rus[i] += processCPU() - r0
			cpu[i] += th.end() - c0
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(frames) }
	var total time.Duration
	for i, s := range sys {
		name := "?"
		if nm, ok := s.(ecs.Namer); ok {
			name = nm.Name()
		}
		total += cpu[i]
		t.Logf("%-12s cpu %6.2f ms  wall %6.2f ms  (getrusage %6.2f ms)", name, ms(cpu[i]), ms(wall[i]), ms(rus[i]))
	}
	return ms(total)
}

// processCPU returns the process's user and system CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
