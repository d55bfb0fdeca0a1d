package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FSM.Transitions of the frame in which FSM restarts a machine swapped without Stop
// counts the transitions of that update. Before, it took the Memory's Transitions after
// the update less the count before the swap zeroed it: 2 − 6 as a uint32, so the frame
// reported 4,294,967,292 transitions.
func TestFSMTransitionsOfASwapFrame(t *testing.T) {
	enters := map[string]int{}
	m1, _, _ := twoStates(t, "patrol", enters)
	m2, _, _ := twoStates(t, "combat", enters)
	world := arche.NewWorld()
	w := &world
	mp := generic.NewMap4[components.StateMachine, components.Think, components.Position, components.Intent](w)
	e := mp.New()
	sm, th, _, _ := mp.Get(e)
	*sm, *th = components.StateMachine{Machine: m1}, components.Think{Interval: 0.05}
	f := &systems.FSM{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/20), f)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 1)
	sms := generic.NewMap[components.StateMachine](w)
	sm = sms.Get(e)
	sm.Memory.Transitions = 6 // a long-lived agent
	sm.Machine = m2           // swapped without Stop
	s.Run(w, 1)
	require.Equal(t, uint64(1), f.Swapped)
	assert.Equal(t, 2, f.Transitions, "the new machine started, then a went to b")
	assert.Equal(t, uint32(2), sms.Get(e).Memory.Transitions)
}
