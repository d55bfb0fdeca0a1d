package scenario

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/archai-go/archai/ecs"
	"github.com/stretchr/testify/require"
)

// TestSwarmSchedWait is a measuring harness, not a check: with
// ARCHAI_SWARM_SCHED=N (agents) and optionally ARCHAI_SWARM_WORKERS=W, it
// runs the swarm (seed 3) for 30 frames unmeasured, then 120, and logs per
// frame the wall-clock time and, from Linux's /proc/self/task/*/schedstat,
// each busy thread's CPU time and the time it was runnable but waiting for
// a CPU, with the number of times it was put on one. On a shared machine it
// tells whether two workers could run at once at all: when the threads'
// CPU times add up to the wall-clock time and each waits about as long as
// it runs, they took turns. Skipped without the variable, or without
// /proc:
//
//	ARCHAI_SWARM_SCHED=10000 ARCHAI_SWARM_WORKERS=2 go test ./cmd/bench/scenario -run SwarmSchedWait -v
func TestSwarmSchedWait(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("ARCHAI_SWARM_SCHED"))
	if n <= 0 {
		t.Skip("set ARCHAI_SWARM_SCHED to the number of agents to measure")
	}
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("no /proc/self/task")
	}
	workers, _ := strconv.Atoi(os.Getenv("ARCHAI_SWARM_WORKERS"))
	const frames = 120
	s, err := NewSwarm(SwarmConfig{Agents: n, Seed: 3, Workers: max(workers, 1)})
	require.NoError(t, err)
	sch := ecs.NewScheduler(s.Systems()...)
	sch.Initialize(s.World)
	t.Cleanup(func() { sch.Finalize(s.World) })
	sch.Run(s.World, 30)
	before := threadSched()
	t0 := time.Now()
	sch.Run(s.World, frames)
	wall := time.Since(t0)
	after := threadSched()
	ms := func(ns int64) float64 { return float64(ns) / 1e6 / frames }
	var run, wait int64
	for tid, a := range after {
		b := before[tid]
		dr, dw, dn := a[0]-b[0], a[1]-b[1], a[2]-b[2]
		run, wait = run+dr, wait+dw
		if dr > frames*10_000 { // busy: over 10 µs a frame
			t.Logf("thread %s: cpu %.3f ms, waiting %.3f ms a frame; on a CPU %d times, %.0f µs waiting each",
				tid, ms(dr), ms(dw), dn, float64(dw)/1e3/float64(max(dn, 1)))
		}
	}
	t.Logf("per frame: wall %.3f ms, threads' cpu %.3f ms, runnable but waiting %.3f ms", ms(wall.Nanoseconds()), ms(run), ms(wait))
}

// threadSched returns, per thread of the process, its schedstat: ns on a
// CPU, ns runnable but waiting, times put on a CPU.
func threadSched() map[string][3]int64 {
	out := map[string][3]int64{}
	ents, _ := os.ReadDir("/proc/self/task")
	for _, e := range ents {
		b, err := os.ReadFile("/proc/self/task/" + e.Name() + "/schedstat")
		if err != nil {
			continue
		}
		var v [3]int64
		if _, err := fmt.Sscan(string(b), &v[0], &v[1], &v[2]); err == nil {
			out[e.Name()] = v
		}
	}
	return out
}
