package systems_test

import (
	"math"
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

// TestFSMCountsHooksReturningNoState: a hook that returns the StateID of
// another machine's state (a typo in a shared enum) transitions nowhere: the
// agents stay in their state and FSM.BadTargets counts every such return, on
// 1 and 2 workers (it used to leave no trace).
func TestFSMCountsHooksReturningNoState(t *testing.T) {
	other := fsm.NewBuilder("other")
	other.State("X", fsm.Hooks{})
	other.State("Y", fsm.Hooks{})
	otherY := other.State("Z", fsm.Hooks{}) // 3: no state of the villager's machine
	b := fsm.NewBuilder("villager")
	b.State("Idle", fsm.Hooks{Update: func(*fsm.Context) fsm.StateID { return otherY }})
	b.State("Work", fsm.Hooks{})
	m, err := b.Build()
	require.NoError(t, err)
	for _, workers := range []int{1, 2} {
		world := arche.NewWorld()
		w := &world
		sp, err := systems.NewSpawner(w, systems.Thinker{Machine: m, Interval: 0.1})
		require.NoError(t, err)
		for i := 0; i < 6; i++ {
			sp.Spawn(r2.Vec{X: float64(i), Y: 1}, nil)
		}
		f := &systems.FSM{Workers: workers}
		s := ecs.NewScheduler(ecs.NewClockSystem(0.1), f)
		s.Initialize(w)
		s.Run(w, 10)
		require.Equal(t, uint64(f.TotalThought), f.BadTargets, "every update of every agent returned no state")
		require.Equal(t, int64(60), f.TotalThought)
		s.Finalize(w)
		s.Initialize(w)
		require.Zero(t, f.BadTargets, "counted since Initialize")
		s.Finalize(w)
	}
}

// TestFSMCountsACorruptElapsed: an agent whose StateMachine.Memory.Elapsed is
// NaN (a save edited by hand) counts its time in state from 0 again, so its
// timed guard fires a second later, and FSM.ClockFaults counts it once.
func TestFSMCountsACorruptElapsed(t *testing.T) {
	b := fsm.NewBuilder("timer")
	a := b.State("Wait", fsm.Hooks{})
	done := b.State("Done", fsm.Hooks{})
	b.When(a, func(ctx *fsm.Context) bool { return ctx.Memory.Elapsed >= 1 }, done)
	m, err := b.Build()
	require.NoError(t, err)
	world := arche.NewWorld()
	w := &world
	sp, err := systems.NewSpawner(w, systems.Thinker{Machine: m, Interval: 0.1})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
	f := &systems.FSM{}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), f)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 3)
	sm := generic.NewMap1[components.StateMachine](w)
	sm.Get(e).Memory.Elapsed = math.NaN()
	s.Run(w, 12)
	require.Equal(t, "Done", m.Name(sm.Get(e).Memory.Active), "the guard fired a second after the NaN was replaced")
	require.Equal(t, uint64(1), f.ClockFaults)
}
