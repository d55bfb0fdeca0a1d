package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestTinyWorldsWithMoreWorkersThanAgents: every system in frame order, with
// 3 workers, over a world of 0, 1 and 2 agents (whole-grid and sector flow
// fields), agents appearing and leaving between frames: no panic, and the
// same state as with 1 worker.
func TestTinyWorldsWithMoreWorkersThanAgents(t *testing.T) {
	run := func(workers, agents, sectors int) uint64 {
		w, _ := newWorld(24, 24)
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &LOD{}, &Spatial{Workers: workers}, &Perception{Workers: workers},
			&Decision{Workers: workers}, &PathQueue{}, &Combat{}, &FlowField{Workers: workers, Sectors: sectors},
			&PathFollow{Workers: workers}, &Steer{Workers: workers}, &Movement{Workers: workers})
		s.Initialize(w)
		defer s.Finalize(w)
		for frame := range 40 {
			if frame%10 == 0 && frame < 30 {
				for k := range agents {
					e := goodAgent(t, w)
					compOf[components.Position](w, e).Vec = r2.Vec{X: 3.5 + float64(k), Y: 3.5 + float64(frame/10)}
					compOf[components.Faction](w, e).Team = uint8(k)
				}
			}
			if frame == 35 { // everyone leaves
				var all []arche.Entity
				q := w.Query(arche.All(arche.ComponentID[components.Position](w)))
				for q.Next() {
					all = append(all, q.Entity())
				}
				for _, e := range all {
					w.RemoveEntity(e)
				}
			}
			require.NotPanics(t, func() { s.Update(w) }, "frame %d", frame)
		}
		return StateHash(w)
	}
	for _, sectors := range []int{0, 8} {
		for _, agents := range []int{0, 1, 2} {
			require.Equal(t, run(1, agents, sectors), run(3, agents, sectors), "%d agents, sectors %d", agents, sectors)
		}
	}
}
