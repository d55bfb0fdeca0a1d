package systems_test

import (
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// tagged moves an agent to another archetype, so that the query order of
// the agents after it changes from one frame to the next.
type tagged struct{}

// Each decision tick's Agent.Entity is the entity whose components the view
// holds, with the due agents' entities read on the workers (2 and 3 of
// them) or after the find pass (17, beyond maxSharedWorkers), while agents
// change archetype between frames: an entity left from an earlier frame at
// the agent's query index would be another agent's.
func TestDecisionAgentEntityIsTheTickedAgent(t *testing.T) {
	old := systems.SetLightParallelMin(1)
	defer systems.SetLightParallelMin(old)
	for _, workers := range []int{1, 2, 3, 17} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(32, 32))
		posID := arche.ComponentID[components.Position](w)
		var ticks, wrong atomic.Int64
		tree, err := bt.Compile("self", bt.Action("self", func(ctx *bt.Context) bt.Status {
			a := systems.AgentOf(ctx)
			ticks.Add(1)
			if !a.World.Alive(a.Entity) || a.World.Get(a.Entity, posID) != unsafe.Pointer(a.Position) {
				wrong.Add(1)
			}
			return bt.Running
		}))
		require.NoError(t, err)
		sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree})
		require.NoError(t, err)
		var agents []arche.Entity
		for i := range 600 {
			agents = append(agents, sp.Spawn(r2.Vec{X: float64(i%30) + 1.5, Y: float64(i/30%30) + 1.5}, nil))
		}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Decision{Workers: workers})
		s.Initialize(w)
		tagID := arche.ComponentID[tagged](w)
		for f := range 40 {
			s.Run(w, 1)
			for i := f % 7; i < len(agents); i += 7 { // a seventh of the agents change archetype
				if w.Has(agents[i], tagID) {
					w.Remove(agents[i], tagID)
				} else {
					w.Add(agents[i], tagID)
				}
			}
		}
		s.Finalize(w)
		require.Positive(t, ticks.Load(), "workers %d", workers)
		require.Zero(t, wrong.Load(), "workers %d: ticks whose Agent.Entity is not the agent", workers)
	}
}
