package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A tree run inside a state machine's state (hybrid.TreeState) with <Cooldown
// seconds="5000"> (5 s meant) was not checked: Diagnose counted the timer of a Brain's
// tree only. It counts such agents under tree_timer_too_long now, naming the state and
// the node; a machine whose state trees keep to MaxTreeTimer is not counted.
func TestDiagnoseReportsATreeTimerInAState(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	machine := func(name, body string) *fsm.Machine {
		tree := timerTree(t, body)
		b := fsm.NewBuilder(name)
		calm := b.State("Calm", fsm.Hooks{})
		b.Substate(calm, "Watch", hybrid.TreeState(tree, func(*fsm.Context) *hybrid.TreeRun { return &hybrid.TreeRun{} }, nil))
		m, err := b.Build()
		require.NoError(t, err)
		return m
	}
	long := machine("guard", `<Sequence><Wait seconds="2"/><Cooldown name="shout" seconds="5000"><AlwaysSuccess/></Cooldown></Sequence>`)
	short := machine("scout", `<Sequence><Wait seconds="600"/><Timeout msec="1500"><AlwaysSuccess/></Timeout></Sequence>`)
	m := generic.NewMap1[components.StateMachine](w)
	var es []arche.Entity
	for _, mc := range []*fsm.Machine{long, short, long} {
		es = append(es, m.NewWith(&components.StateMachine{Machine: mc}))
	}
	r := systems.Diagnose(w)
	require.Equal(t, 2, r.Counts[systems.CauseTreeTimerLong], r.String())
	assert.Equal(t, es[0], r.Examples[systems.CauseTreeTimerLong])
	assert.Contains(t, r.String(), `tree_timer_too_long 2 (e.g. entity 1, the tree of state "Calm/Watch", node "shout" lasts 5000 s (83.3 min), over MaxTreeTimer (600 s)`)
}
