package scenario

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"testing"
	"time"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/stretchr/testify/require"
)

// TestGuardsFrameTail is a measuring harness, not a check: with
// ARCHAI_TAIL=FILE it runs the guard scenario (ARCHAI_TAIL_N agents, 100,000
// if unset; seed 3; ARCHAI_TAIL_WORKERS workers, 2 if unset) for
// ARCHAI_TAIL_FRAMES frames (300 if unset) and writes one CSV line a frame:
// each system's wall-clock and thread-CPU µs (threadsCPU), and the frame's
// thinks, perceptions, paths served, searches, strikes, casualties and GC
// cycles, so slow frames can be told apart by what they did.
func TestGuardsFrameTail(t *testing.T) {
	file := os.Getenv("ARCHAI_TAIL")
	if file == "" {
		t.Skip("set ARCHAI_TAIL to a CSV file to write")
	}
	atoi := func(key string, def int) int {
		if v, err := strconv.Atoi(os.Getenv(key)); err == nil {
			return v
		}
		return def
	}
	n, workers, frames := atoi("ARCHAI_TAIL_N", 100000), atoi("ARCHAI_TAIL_WORKERS", 2), atoi("ARCHAI_TAIL_FRAMES", 300)
	g, err := NewGuards(Config{Agents: n, Seed: 3, Workers: workers})
	require.NoError(t, err)
	sys := g.Systems()
	w := g.World
	for _, s := range sys {
		s.Initialize(w)
	}
	defer func() {
		for _, s := range sys {
			s.Finalize(w)
		}
	}()
	f, err := os.Create(file)
	require.NoError(t, err)
	defer f.Close()
	fmt.Fprint(f, "frame,wall")
	for _, s := range sys {
		name := "?"
		if nm, ok := s.(ecs.Namer); ok {
			name = nm.Name()
		}
		fmt.Fprintf(f, ",%s_w,%s_c", name, name)
	}
	fmt.Fprintln(f, ",thought,perceived,served,searches,expansions,strikes,gdown,idown,gc")
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(sample)
	gc0 := sample[0].Value.Uint64()
	var th threadsCPU
	wall := make([]time.Duration, len(sys))
	cpu := make([]time.Duration, len(sys))
	var thought, served, searches, exps, strikes int64
	var gd, id int
	for fr := range frames {
		t0 := time.Now()
		for i, s := range sys {
			c0 := th.begin()
			w0 := time.Now()
			s.Update(w)
			wall[i] = time.Since(w0)
			cpu[i] = th.end() - c0
		}
		total := time.Since(t0)
		metrics.Read(sample)
		gc := sample[0].Value.Uint64()
		fmt.Fprintf(f, "%d,%d", fr+1, total.Microseconds())
		for i := range sys {
			fmt.Fprintf(f, ",%d,%d", wall[i].Microseconds(), cpu[i].Microseconds())
		}
		fmt.Fprintf(f, ",%d,%d,%d,%d,%d,%d,%d,%d,%d\n",
			g.Decision.TotalThought-thought, g.Perception.Checked, g.PathQueue.TotalServed-served,
			g.PathQueue.TotalSearches-searches, g.PathQueue.TotalExpansions-exps, g.Combat.TotalStrikes-strikes,
			g.Casualties.GuardsDown-gd, g.Casualties.IntrudersDown-id, gc-gc0)
		thought, served, searches, exps, strikes = g.Decision.TotalThought, g.PathQueue.TotalServed, g.PathQueue.TotalSearches, g.PathQueue.TotalExpansions, g.Combat.TotalStrikes
		gd, id, gc0 = g.Casualties.GuardsDown, g.Casualties.IntrudersDown, gc
	}
}

// TestGuardsFrameInstr is a measuring harness for callgrind: with
// ARCHAI_TAIL_INSTR set it runs the guard scenario (ARCHAI_TAIL_N agents,
// seed 3, 1 worker) for ARCHAI_TAIL_FRAMES frames, each inside
// countedTailFrame, so that valgrind --tool=callgrind
// --toggle-collect='*countedTailFrame' --dump-after='*countedTailFrame'
// writes one profile a frame.
func TestGuardsFrameInstr(t *testing.T) {
	if os.Getenv("ARCHAI_TAIL_INSTR") == "" {
		t.Skip("set ARCHAI_TAIL_INSTR to measure")
	}
	atoi := func(key string, def int) int {
		if v, err := strconv.Atoi(os.Getenv(key)); err == nil {
			return v
		}
		return def
	}
	n, frames := atoi("ARCHAI_TAIL_N", 100000), atoi("ARCHAI_TAIL_FRAMES", 300)
	g, err := NewGuards(Config{Agents: n, Seed: 3, Workers: atoi("ARCHAI_TAIL_WORKERS", 1)})
	require.NoError(t, err)
	sch := ecs.NewScheduler(g.Systems()...)
	sch.Initialize(g.World)
	defer sch.Finalize(g.World)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for range frames {
		countedTailFrame(sch, g)
	}
	t.Logf("state hash %016x", systems.StateHash(g.World))
}

//go:noinline
func countedTailFrame(sch *ecs.Scheduler, g *Guards) { sch.Update(g.World) }
