package systems

import (
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// hurtReasoner flees when health is low and holds otherwise; Act writes the Intent.
func hurtReasoner(t testing.TB) *utility.Reasoner {
	health := func(agent any) float64 {
		a := UtilityAgent(agent)
		return a.Health.Current / a.Health.Max
	}
	r, err := utility.New("hurt", utility.Policy{Hysteresis: 0.1},
		utility.Action{Name: "flee", Considerations: []utility.Consideration{
			{Name: "hurt", Input: health, Curve: utility.InverseQuadratic()}},
			Act: func(agent any) {
				a := UtilityAgent(agent)
				a.Intent.Move, a.Intent.Goal = true, r2.Vec{X: 0, Y: 0}
			}},
		utility.Action{Name: "hold", Weight: 0.5,
			Act: func(agent any) { UtilityAgent(agent).Intent.Move = false }},
	)
	require.NoError(t, err)
	return r
}

func TestUtilityDecidesOnCadenceAndActs(t *testing.T) {
	world := arche.NewWorld() // no grid resource: optional for Utility
	w := &world
	r := hurtReasoner(t)
	m := generic.NewMap6[components.UtilityBrain, components.Think, components.Position, components.Intent,
		components.Health, components.Rand](w)
	var es []arche.Entity
	for i := range 4 {
		e := m.New()
		b, th, _, _, hp, rnd := m.Get(e)
		*b = components.UtilityBrain{Reasoner: r, State: r.NewState()}
		*th = components.Think{Interval: 0.125, Next: float64(i) / 32} // staggered
		*hp = components.Health{Current: 100, Max: 100}
		rnd.Rand = steer.NewRand(uint64(i))
		es = append(es, e)
	}
	sys := &Utility{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/32), sys) // binary fractions: exact times
	s.Initialize(w)
	s.Run(w, 32) // one second at 8 Hz each, one agent per frame
	assert.Equal(t, int64(32), sys.TotalThought)
	assert.Equal(t, 1, sys.Thought, "staggered: one agent per frame")

	brains := generic.NewMap[components.UtilityBrain](w)
	intents := generic.NewMap[components.Intent](w)
	healths := generic.NewMap[components.Health](w)
	b := brains.Get(es[2])
	assert.Equal(t, "hold", r.ActionName(b.State.Choice))
	assert.Equal(t, []float64{0, 0.5}, b.State.Scores, "every score, per agent")
	assert.Equal(t, uint64(8), b.State.Decisions)

	healths.Get(es[2]).Current = 20 // flee scores 1 − 0.04 = 0.96
	s.Run(w, 4)
	assert.Equal(t, "flee", r.ActionName(b.State.Choice))
	assert.True(t, intents.Get(es[2]).Move)
	assert.False(t, intents.Get(es[1]).Move)

	allocs := testing.AllocsPerRun(100, func() { s.Run(w, 1) })
	assert.Equal(t, 0.0, allocs)
}

func TestFSMUpdatesOnCadenceWithItsOwnDT(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	b := fsm.NewBuilder("guard")
	var dts []float64
	idle := b.State("Idle", fsm.Hooks{Update: func(c *fsm.Context) fsm.StateID {
		dts = append(dts, c.DT)
		return fsm.None
	}})
	dead := b.State("Dead", fsm.Hooks{Enter: func(c *fsm.Context) {
		StateAgent(c).Intent.Move = false
	}})
	b.When(idle, func(c *fsm.Context) bool { return StateAgent(c).Health.Current <= 0 }, dead)
	machine, err := b.Build()
	require.NoError(t, err)

	m := generic.NewMap5[components.StateMachine, components.Think, components.Position, components.Intent,
		components.Health](w)
	e := m.New()
	sm, th, _, intent, hp := m.Get(e)
	sm.Machine = machine
	*th = components.Think{Interval: 0.25}
	*hp = components.Health{Current: 10, Max: 10}
	intent.Move = true

	sys := &FSM{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/16), sys) // binary fractions: exact times
	s.Initialize(w)
	s.Run(w, 16) // one second at 4 Hz
	assert.Equal(t, int64(4), sys.TotalThought)
	require.Len(t, dts, 4)
	assert.Equal(t, []float64{0, 0.25, 0.25, 0.25}, dts, "dt is the time since the agent last thought")

	machines := generic.NewMap[components.StateMachine](w)
	healths := generic.NewMap[components.Health](w)
	intents := generic.NewMap[components.Intent](w)
	assert.Equal(t, "Idle", machine.Name(machines.Get(e).Memory.Active))
	healths.Get(e).Current = 0
	s.Run(w, 5)
	got := machines.Get(e)
	assert.Equal(t, "Dead", machine.Name(got.Memory.Active))
	assert.Equal(t, idle, got.Memory.Previous)
	assert.False(t, intents.Get(e).Move)

	allocs := testing.AllocsPerRun(100, func() { s.Run(w, 1) })
	assert.Equal(t, 0.0, allocs)
}

// TestUtilityWorkersGiveTheSameChoices: each agent decides on its own state,
// so 1 and 3 workers make the same choices.
func TestUtilityWorkersGiveTheSameChoices(t *testing.T) {
	run := func(workers int) []uint64 {
		world := arche.NewWorld()
		w := &world
		r := hurtReasoner(t)
		m := generic.NewMap6[components.UtilityBrain, components.Think, components.Position, components.Intent,
			components.Health, components.Rand](w)
		for i := range 300 {
			e := m.New()
			b, th, _, _, hp, rnd := m.Get(e)
			*b = components.UtilityBrain{Reasoner: r, State: r.NewState()}
			*th = components.Think{Interval: 0.125, Next: float64(i%4) / 32}
			*hp = components.Health{Current: float64(1 + i%100), Max: 100}
			rnd.Rand = steer.NewRand(uint64(i))
		}
		sys := &Utility{Workers: workers}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/32), sys)
		s.Initialize(w)
		s.Run(w, 64)
		s.Finalize(w)
		var out []uint64
		q := generic.NewFilter2[components.UtilityBrain, components.Rand]().Query(w)
		for q.Next() {
			b, rnd := q.Get()
			out = append(out, uint64(b.State.Choice), b.State.Decisions, rnd.State)
		}
		return out
	}
	assert.Equal(t, run(1), run(3))
}
