package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// twoStates builds machine name with states a (initial) and b, an Update hook of a
// going to b, counting the Enter hooks in enters.
func twoStates(t *testing.T, name string, enters map[string]int) (*fsm.Machine, fsm.StateID, fsm.StateID) {
	b := fsm.NewBuilder(name)
	var sb fsm.StateID
	sa := b.State("a", fsm.Hooks{
		Enter:  func(*fsm.Context) { enters[name+".a"]++ },
		Update: func(*fsm.Context) fsm.StateID { return sb },
	})
	sb = b.State("b", fsm.Hooks{Enter: func(*fsm.Context) { enters[name+".b"]++ }})
	m, err := b.Build()
	require.NoError(t, err)
	return m, sa, sb
}

// A program swapped an agent's StateMachine.Machine for another without the old one's
// Stop: the Memory's Active (state "b" of the old machine) went on as the same-numbered
// state of the new machine, whose Enter hooks never ran (before fsm's StateIDs carried
// their machine's tag; since then fsm restarts it, in silence), and ID still named the
// old machine, which only save.Save caught. FSM sees the ID of another machine beside a
// started Memory, restarts the new machine from its initial state (its Enter runs),
// sets ID and counts it in FSM.Swapped; an empty ID is set to the machine's name at the
// first update, and a swap done right (Stop, ID set to the new name) is not counted.
func TestFSMMachineSwappedWithoutStopRestarts(t *testing.T) {
	enters := map[string]int{}
	m1, _, b1 := twoStates(t, "patrol", enters)
	m2, _, b2 := twoStates(t, "combat", enters)
	world := arche.NewWorld()
	w := &world
	mp := generic.NewMap4[components.StateMachine, components.Think, components.Position, components.Intent](w)
	e := mp.New()
	good := mp.New()
	for _, x := range []arche.Entity{e, good} {
		sm, th, _, _ := mp.Get(x)
		*sm, *th = components.StateMachine{Machine: m1}, components.Think{Interval: 0.05}
	}
	f := &systems.FSM{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/20), f)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 3)
	sms := generic.NewMap[components.StateMachine](w)
	sm := sms.Get(e)
	require.Equal(t, "patrol", sm.ID, "an empty ID becomes the machine's name")
	require.Equal(t, b1, sm.Memory.Active)

	sm.Machine = m2 // swapped without Stop, ID left
	gsm := sms.Get(good)
	gsm.Machine.Stop(&gsm.Memory, &fsm.Context{})
	gsm.Machine, gsm.ID = m2, "combat" // swapped right
	before := enters["combat.a"]
	s.Run(w, 1)
	sm, gsm = sms.Get(e), sms.Get(good)
	assert.Equal(t, uint64(1), f.Swapped)
	assert.Equal(t, "combat", sm.ID)
	assert.Equal(t, before+2, enters["combat.a"], "both entered the new machine's initial state")
	assert.Equal(t, b2, sm.Memory.Active, "entered a, then a's Update hook went to b (as the first update does)")
	assert.Equal(t, []any{gsm.Memory.Active, gsm.Memory.Elapsed}, []any{sm.Memory.Active, sm.Memory.Elapsed},
		"the swapped agent is where the one swapped right is")
	s.Run(w, 2)
	assert.Equal(t, uint64(1), f.Swapped, "counted once")
	sm, gsm = sms.Get(e), sms.Get(good)
	assert.Equal(t, []any{gsm.Memory.Active, gsm.Memory.Elapsed}, []any{sm.Memory.Active, sm.Memory.Elapsed})
}
