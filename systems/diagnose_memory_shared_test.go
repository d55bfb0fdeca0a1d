package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestDiagnoseReportsSharedBrainMemory (silent18's finding): one bt.Memory given
// to several agents (a template Brain copied) makes them tick one memory: each
// resumes where another left off, so some act too often and others never, and
// Diagnose said "no misconfiguration". Now every agent but the first of such a
// group counts as brain_memory_shared.
func TestDiagnoseReportsSharedBrainMemory(t *testing.T) {
	run := func(share bool) (systems.Report, []int) {
		world := arche.NewWorld()
		arche.AddResource(&world, grid.New(16, 16))
		acts := map[arche.Entity]int{}
		tree, err := bt.Compile("tick", bt.Sequence(bt.Wait(1), bt.Action("Act", func(c *bt.Context) bt.Status {
			acts[systems.AgentOf(c).Entity]++
			return bt.Success
		})))
		require.NoError(t, err)
		sp, err := systems.NewSpawner(&world, systems.Mover{}, systems.Thinker{Tree: tree})
		require.NoError(t, err)
		for i := range 4 {
			sp.Spawn(r2.Vec{X: 2.5 + float64(i), Y: 2.5}, nil)
		}
		if share { // the template's memory, given to every agent
			template := tree.NewMemory()
			q := generic.NewFilter1[components.Brain]().Query(&world)
			for q.Next() {
				q.Get().Memory = template
			}
		}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Decision{Workers: 1},
			&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
		s.Initialize(&world)
		defer s.Finalize(&world)
		s.Run(&world, 3*60+30) // 3.5 s: three acts each
		var counts []int
		q := generic.NewFilter1[components.Brain]().Query(&world)
		for q.Next() {
			counts = append(counts, acts[q.Entity()])
		}
		return systems.Diagnose(&world), counts
	}
	r, counts := run(false)
	assert.Equal(t, []int{3, 3, 3, 3}, counts)
	assert.Zero(t, r.Counts[systems.CauseMemoryShared])

	r, _ = run(true)
	assert.Equal(t, 3, r.Counts[systems.CauseMemoryShared], "every agent but the first of the group")
	assert.Contains(t, r.String(), "brain_memory_shared 3")
}
