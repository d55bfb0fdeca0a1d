package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWorkerReplansWhenTheAxeBreaks(t *testing.T) {
	var a, b bytes.Buffer
	require.Equal(t, 0, run(nil, &a, os.Stderr))
	require.Equal(t, 0, run(nil, &b, os.Stderr))
	assert.Equal(t, a.String(), b.String(), "deterministic")
	out := a.String()
	assert.Contains(t, out, "plan 1 for DeliverPlanks, cost 14: GoToForge TakeAxe GoToForest Chop Chop GoToBench CraftPlank CraftPlank GoToDepot Deliver\n")
	// with an axe in hand the second order skips the forge
	assert.Contains(t, out, "plan 2 for DeliverPlanks, cost 11: GoToForest Chop Chop GoToBench CraftPlank CraftPlank GoToDepot Deliver\n")
	// the third chop breaks the axe: the chop fails and the worker replans at once,
	// from the forest, with no wood: back to the forge
	assert.Regexp(t, `(\d+\.\d+)s  the axe breaks \(chop 3\)\n +(\d+\.\d+)s  plan 3 for DeliverPlanks, cost 14: GoToForge TakeAxe GoToForest`, out)
	assert.True(t, strings.HasSuffix(out, "1 worker(s) in 60 s: 2 deliveries, 1 axes broken, 4 plans made\n"), out)
	// a step that starts and completes within one think is logged too: TakeAxe as the
	// worker reaches the forge, Deliver as it reaches the depot
	assert.Regexp(t, `plan 3 for DeliverPlanks[^\n]*\n +\d+\.\d+s    GoToForge [^\n]*\n +(\d+\.\d+)s    TakeAxe [^\n]*\n +\d+\.\d+s    GoToForest `, out)
	assert.Regexp(t, `GoToDepot \(wood 0, planks 2, deliveries 0\)\n +\d+\.\d+s    Deliver \(wood 0, planks 0, deliveries 1\)\n +\d+\.\d+s  plan 2 `, out)
	assert.Equal(t, 2, strings.Count(out, "    TakeAxe "), "plans 1 and 3")
}

func TestManyWorkersAndAMovingAIMap(t *testing.T) {
	var out bytes.Buffer
	require.Equal(t, 0, run([]string{"-gatherers", "20", "-seconds", "30"}, &out, os.Stderr))
	assert.Contains(t, out.String(), "20 worker(s) in 30 s: ")

	_, file, _, _ := runtime.Caller(0)
	maps := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "maps", "arena.map")
	if _, err := os.Stat(maps); err != nil {
		t.Skip("no shared maps here:", err)
	}
	out.Reset()
	var errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-map", maps, "-seconds", "20"}, &out, &errs), errs.String())
	assert.Contains(t, out.String(), "plan 1 for DeliverPlanks")
}

func TestBadFlags(t *testing.T) {
	var out, errs bytes.Buffer
	assert.Equal(t, 2, run([]string{"-gatherers", "0"}, &out, &errs))
	assert.Equal(t, 1, run([]string{"-map", "nope.map"}, &out, &errs))
	assert.Contains(t, errs.String(), "goap: ")
}

// BenchmarkPlan10000 plans the domain for 10,000 agents in varied states (wherever they
// stand, with or without an axe, some wood and planks already) and reports the planning
// cost per agent.
func BenchmarkPlan10000(b *testing.B) {
	var places Places
	d, f, err := Domain(&places, func(*systems.Agent) *Worker { return nil })
	require.NoError(b, err)
	const agents = 10000
	states := make([]goap.State, agents)
	for i := range states {
		states[i][f.At] = int16(i % NumPlaces)
		states[i][f.Axe] = int16(i / NumPlaces % 2)
		states[i][f.Wood] = int16(i / (2 * NumPlaces) % 4)
		states[i][f.Planks] = int16(i / (8 * NumPlaces) % 2)
	}
	var p goap.Planner
	var plan goap.Plan
	for i := range states {
		require.NoError(b, p.PlanBest(d, &states[i], &plan))
	}
	nodes := 0
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for i := range states {
			_ = p.PlanBest(d, &states[i], &plan)
			nodes += p.Generated
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*agents), "ns/agent")
	b.ReportMetric(float64(nodes)/float64(b.N*agents), "nodes/agent")
}

// BenchmarkSystem10000 runs systems.GOAP for 10,000 workers standing where every place
// is (so walks end at once and they cycle through plans) and reports the cost per think,
// with 1 and 2 workers.
func BenchmarkSystem10000(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			world := arche.NewWorld()
			w := &world
			var places Places
			ws := generic.NewMap[Worker](w)
			d, _, err := Domain(&places, func(a *systems.Agent) *Worker { return ws.Get(a.Entity) })
			require.NoError(b, err)
			reg := &goap.Registry{}
			id, err := reg.Add(d)
			require.NoError(b, err)
			arche.AddResource(w, reg)
			sp, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: reg, Domain: id}, systems.With(Worker{}))
			require.NoError(b, err)
			sp.SpawnBatch(10000, nil)
			gs := &systems.GOAP{Workers: workers}
			s := ecs.NewScheduler(ecs.NewClockSystem(0.1), gs)
			s.Initialize(w)
			defer s.Finalize(w)
			s.Run(w, 20)
			thought, plans := gs.TotalThought, 0
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				s.Run(w, 1)
				plans += gs.Plans
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(gs.TotalThought-thought), "ns/think")
			b.ReportMetric(float64(plans)/float64(b.N), "plans/frame")
		})
	}
}
