package scenario

import (
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// TestBigMapCosts is a measuring harness, not a check, for the costs that
// grow with the map rather than the crowd: with ARCHAI_BIGMAP=SIDE it builds
// the scenario ARCHAI_BIGMAP_SCENARIO (swarm or guards; swarm if unset) with
// ARCHAI_BIGMAP_AGENTS agents (3,000 if unset) on a generated SIDE² map (seed 3),
// and logs the time and live heap of the map's generation, the spawning, each
// system's Initialize and the first frame, then the median frame of
// ARCHAI_BIGMAP_FRAMES more (60 if unset). With ARCHAI_BIGMAP_HEAP=FILE it
// writes a heap profile (live bytes after the frames) to FILE. Skipped without
// ARCHAI_BIGMAP:
//
//	ARCHAI_BIGMAP=4096 go test -count=1 ./cmd/bench/scenario -run BigMapCosts -v
func TestBigMapCosts(t *testing.T) {
	side, _ := strconv.Atoi(os.Getenv("ARCHAI_BIGMAP"))
	if side <= 0 {
		t.Skip("set ARCHAI_BIGMAP to the map's side to measure")
	}
	agents, _ := strconv.Atoi(os.Getenv("ARCHAI_BIGMAP_AGENTS"))
	if agents <= 0 {
		agents = 3000
	}
	frames, _ := strconv.Atoi(os.Getenv("ARCHAI_BIGMAP_FRAMES"))
	if frames <= 0 {
		frames = 60
	}
	live := func() float64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapAlloc) / (1 << 20)
	}
	var th threadsCPU
	msOf := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }
	step := func(name string, f func()) {
		before := live()
		c0 := th.begin()
		t0 := time.Now()
		f()
		d := time.Since(t0)
		c := th.end() - c0
		t.Logf("%-22s %9.1f ms wall %9.1f ms cpu  live heap %+8.1f MB", name, msOf(d), msOf(c), live()-before)
	}
	base := live()
	g := GenerateMap(side, 3)
	t.Logf("map %d² (live heap %.1f MB)", side, live()-base)
	var sys []ecs.System
	var w *arche.World
	switch sc := os.Getenv("ARCHAI_BIGMAP_SCENARIO"); sc {
	case "", "swarm":
		var s *Swarm
		step("NewSwarm", func() {
			var err error
			s, err = NewSwarm(SwarmConfig{Agents: agents, Seed: 3, Grid: g, Workers: 2})
			require.NoError(t, err)
			if side > 1024 {
				s.Flow.Sectors = 64 // as cmd/bench's -sectors -1
			}
		})
		sys = s.Systems()
		w = s.World
	case "guards":
		var s *Guards
		step("NewGuards", func() {
			var err error
			s, err = NewGuards(Config{Agents: agents, Seed: 3, Grid: g, Workers: 2})
			require.NoError(t, err)
		})
		sys = s.Systems()
		w = s.World
	default:
		t.Fatalf("ARCHAI_BIGMAP_SCENARIO=%s: want swarm or guards", sc)
	}
	for _, s := range sys {
		step("Initialize "+ecs.SystemName(s), func() { s.Initialize(w) })
	}
	step("first frame", func() {
		for _, s := range sys {
			s.Update(w)
		}
	})
	ms := make([]float64, frames)
	cpu := make([]time.Duration, len(sys))
	for i := range ms {
		t0 := time.Now()
		for k, s := range sys {
			c0 := th.begin()
			s.Update(w)
			cpu[k] += th.end() - c0
		}
		ms[i] = float64(time.Since(t0).Nanoseconds()) / 1e6
	}
	sorted := slices.Clone(ms)
	slices.Sort(sorted)
	var total time.Duration
	for k, s := range sys {
		t.Logf("  %-12s %8.3f ms cpu/frame", ecs.SystemName(s), msOf(cpu[k])/float64(frames))
		total += cpu[k]
	}
	t.Logf("frames: cpu %.3f ms/frame; wall median %.3f ms, min %.3f ms (%d frames)", msOf(total)/float64(frames), sorted[len(sorted)/2], sorted[0], frames)
	t.Logf("live heap in all %.1f MB; state hash %016x", live()-base, systems.StateHash(w))
	if f := os.Getenv("ARCHAI_BIGMAP_HEAP"); f != "" {
		out, err := os.Create(f)
		require.NoError(t, err)
		require.NoError(t, pprof.Lookup("heap").WriteTo(out, 0))
		require.NoError(t, out.Close())
	}
	runtime.KeepAlive(g)
}
