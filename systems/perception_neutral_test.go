package systems

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// An agent without a Faction (a bystander: a crowd member, a worker) is
// nobody's foe (newbie20 finding 5: a guard of team 1 saw a civilian 3 cells
// away as its foe, team 0 by default). A perceiver of team 1 with a bystander
// at 3 cells and an agent of team 0 at 5 cells sees the team-0 agent; without
// it, nothing; a perceiver of team 0 does not see the bystander either. Both
// for 1 and 2 workers and with the foe index mixed (more than four teams).
func TestPerceptionIgnoresAgentsWithoutFaction(t *testing.T) {
	idle, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	for _, workers := range []int{1, 2} {
		for _, mixed := range []bool{false, true} {
			w, _ := newWorld(32, 32)
			guards, err := NewSpawner(w, Combatant{Team: 1}, Thinker{Tree: idle})
			require.NoError(t, err)
			reds, err := NewSpawner(w, Combatant{Team: 0}, Thinker{Tree: idle})
			require.NoError(t, err)
			crowd, err := NewSpawner(w, Mover{})
			require.NoError(t, err)
			guard := guards.Spawn(r2.Vec{X: 10.5, Y: 10.5}, nil)
			civilian := crowd.Spawn(r2.Vec{X: 13.5, Y: 10.5}, nil)
			red := reds.Spawn(r2.Vec{X: 10.5, Y: 15.5}, nil)
			if mixed { // far away, teams 2..5: the index holds every team in one class
				for k := range uint8(4) {
					sp, err := NewSpawner(w, Combatant{Team: 2 + k}, Thinker{Tree: idle})
					require.NoError(t, err)
					sp.Spawn(r2.Vec{X: 30.5, Y: 1.5 + 2*float64(k)}, nil)
				}
			}
			require.False(t, w.Has(civilian, arche.ComponentID[components.Faction](w)))
			s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &Spatial{}, &Perception{Workers: workers}, &Decision{})
			s.Initialize(w)
			s.Run(w, 20)
			per := compOf[components.Perception](w, guard)
			assert.True(t, per.Visible, "workers %d mixed %v", workers, mixed)
			assert.Equal(t, red, per.Target, "the team-0 agent at 5 cells, not the bystander at 3")
			assert.InDelta(t, 5, per.Distance, 1e-9)
			per = compOf[components.Perception](w, red)
			assert.Equal(t, guard, per.Target, "the team-0 agent sees the guard, not the bystander")

			w.RemoveEntity(red)
			s.Run(w, 20)
			per = compOf[components.Perception](w, guard)
			assert.False(t, per.Visible, "a bystander alone is no foe: workers %d mixed %v, target %v", workers, mixed, per.Target)
			s.Finalize(w)
		}
	}
}
