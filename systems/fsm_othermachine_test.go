package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// newbie18, finding 3: a villager hook that returned the wolf machine's Hunt (its
// state 2, copied from the wolf's hooks) moved every villager to the villager's own
// state 2, Eat, with FSM.BadTargets 0 and a clean Diagnose. StateIDs carry their
// machine's tag now: the villagers stay in Work, on 1 and 2 workers, and every such
// return is counted and reported.
func TestFSMCountsHooksReturningAnotherMachinesStateInRange(t *testing.T) {
	wolf := fsm.NewBuilder("wolf")
	wolf.State("Prowl", fsm.Hooks{})
	hunt := wolf.State("Hunt", fsm.Hooks{})
	b := fsm.NewBuilder("villager")
	work := b.State("Work", fsm.Hooks{Update: func(*fsm.Context) fsm.StateID { return hunt }})
	eat := b.State("Eat", fsm.Hooks{})
	b.State("Sleep", fsm.Hooks{})
	m, err := b.Build()
	require.NoError(t, err)
	require.Equal(t, eat.Index(), hunt.Index(), "the case: an index in range of the villager's machine")
	for _, workers := range []int{1, 2} {
		world := arche.NewWorld()
		w := &world
		sp, err := systems.NewSpawner(w, systems.Thinker{Machine: m, Interval: 0.1})
		require.NoError(t, err)
		var es []arche.Entity
		for i := 0; i < 6; i++ {
			es = append(es, sp.Spawn(r2.Vec{X: float64(i), Y: 1}, nil))
		}
		f := &systems.FSM{Workers: workers}
		s := ecs.NewScheduler(ecs.NewClockSystem(0.1), f)
		s.Initialize(w)
		s.Run(w, 10)
		sm := generic.NewMap1[components.StateMachine](w)
		for _, e := range es {
			require.Equal(t, work, sm.Get(e).Memory.Active, "workers %d: the villager stayed in Work, not Eat", workers)
			require.Equal(t, uint32(1), sm.Get(e).Memory.Transitions)
		}
		require.Equal(t, int64(60), f.TotalThought)
		require.Equal(t, uint64(60), f.BadTargets, "workers %d: every return counted", workers)
		r := systems.Diagnose(w)
		require.Equal(t, uint64(60), r.BadTargets)
		require.Contains(t, r.String(), "state machine hooks returned a state not of their own machine 60 times")
		s.Finalize(w)
	}
}
