package systems_test

import (
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// brawler is a program's own component keeping a utility choice, decided from a
// state machine's Update hook (the state-machine-plus-utility pattern).
type brawler struct {
	Rage   float64
	Choice utility.State
}

// A utility.State kept in a component of the program's own is checked as a
// UtilityBrain's is: a utility.KeyInput on agents without a Blackboard
// (State.NoBlackboard > 0) is counted under CauseBlackboardMissing, the note naming
// the component and field, and so are unread and clamped inputs. Before, Diagnose
// read only components.UtilityBrain and said nothing.
func TestDiagnoseReadsUtilityStatesInOwnComponents(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	schema := blackboard.NewSchema()
	threat := blackboard.MustDeclare[float64](schema, "threat")
	keys, err := utility.New("keys", utility.Policy{},
		utility.Action{Name: "flee", Considerations: []utility.Consideration{{Name: "threat", Input: utility.KeyInput(threat)}}})
	require.NoError(t, err)
	raw, err := utility.New("raw", utility.Policy{},
		utility.Action{Name: "rage", Considerations: []utility.Consideration{{Name: "rage", // no Range: 0–100 clamps
			Input: func(agent any) float64 { return systems.Get[brawler](systems.UtilityAgent(agent)).Rage }}}},
		utility.Action{Name: "wrong", Considerations: []utility.Consideration{{Name: "hp", // a Fact of another type
			Input: utility.Fact(func(p *components.Position) float64 { return p.X })}}})
	require.NoError(t, err)
	b := fsm.NewBuilder("brawl")
	b.State("Fight", fsm.Hooks{Update: func(c *fsm.Context) fsm.StateID {
		a := systems.StateAgent(c)
		br := systems.Get[brawler](a)
		r := keys
		if br.Rage > 0 {
			r = raw
		}
		r.DecideAt(a, &br.Choice, nil, c.Time)
		return fsm.None
	}})
	machine, err := b.Build()
	require.NoError(t, err)

	m := generic.NewMap5[components.StateMachine, components.Think, components.Position, components.Intent, brawler](w)
	var noBoard, clamped []arche.Entity
	for i := range 4 {
		e := m.New()
		sm, th, _, _, br := m.Get(e)
		sm.Machine = machine
		th.Interval = 0.1
		if i%2 == 1 {
			br.Rage = 50
			clamped = append(clamped, e)
		} else {
			noBoard = append(noBoard, e)
		}
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/10), &systems.FSM{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 3)
	brawlers := generic.NewMap[brawler](w)
	require.NotZero(t, brawlers.Get(noBoard[0]).Choice.NoBlackboard, "the setup: the key reads no store")
	require.NotZero(t, brawlers.Get(clamped[0]).Choice.Clamped)
	require.NotZero(t, brawlers.Get(clamped[0]).Choice.Unread)

	rep := systems.Diagnose(w)
	assert.Equal(t, 2, rep.Counts[systems.CauseBlackboardMissing], "%s", rep)
	assert.Equal(t, noBoard[0], rep.Examples[systems.CauseBlackboardMissing])
	assert.Equal(t, 2, rep.Counts[systems.CauseUtilityInputOutOfRange], "%s", rep)
	assert.Equal(t, clamped[0], rep.Examples[systems.CauseUtilityInputOutOfRange])
	assert.Equal(t, 2, rep.Counts[systems.CauseUtilityFactWrongType], "%s", rep)
	assert.Equal(t, clamped[0], rep.Examples[systems.CauseUtilityFactWrongType])
	text := rep.String()
	for _, c := range []systems.Cause{systems.CauseBlackboardMissing, systems.CauseUtilityInputOutOfRange, systems.CauseUtilityFactWrongType} {
		i := strings.Index(text, c.String()+" 2 (e.g. entity ")
		require.GreaterOrEqual(t, i, 0, "%s", text)
		example := text[i:min(len(text), i+len(c.String())+60)]
		assert.Contains(t, example, "its utility.State brawler.Choice: ", "the note names the component and field: %s", text)
	}

	// the Diagnostics system finds them too, and a check in steady state allocates nothing
	d := &systems.Diagnostics{}
	d.Initialize(w)
	assert.Equal(t, rep.Counts, d.Check(w).Counts)
	assert.Zero(t, testing.AllocsPerRun(20, func() { d.Check(w) }))
}
