package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// An FSM agent whose clock goes back (a replay, a level restarted on the same world) is
// now updated at once, with Think.Last after the clock: its ctx.DT, now − Last, was −9.9 s,
// and Update adds DT to Memory.Elapsed, so a state's timer went 9.9 s back and a 1 s
// timeout waited 11 s. Decision counts such a DT as 0 (bt: ClockFaults); so must FSM.
func TestFSMAfterTheClockGoesBackSeesNoNegativeDT(t *testing.T) {
	w := arche.NewWorld()
	arche.AddResource(&w, grid.New(16, 16))
	b := fsm.NewBuilder("blink")
	var dts []float64
	record := func(c *fsm.Context) fsm.StateID { dts = append(dts, c.DT); return fsm.None }
	on := b.State("On", fsm.Hooks{Update: record})
	off := b.State("Off", fsm.Hooks{Update: record})
	after1s := func(c *fsm.Context) bool { return c.Memory.Elapsed >= 1-1e-9 }
	b.When(on, after1s, off)
	b.When(off, after1s, on)
	m, err := b.Build()
	require.NoError(t, err)
	sp, err := systems.NewSpawner(&w, systems.Thinker{Machine: m})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
	sys := &systems.FSM{}
	s := ecs.NewScheduler(sys)
	clock := ecs.ClockOf(&w)
	clock.DT = 1.0 / 64
	s.Initialize(&w)
	defer s.Finalize(&w)
	run := func(frames int) int {
		dts = dts[:0]
		transitions := 0
		for f := range frames {
			clock.Time, clock.Frame = float64(f)/64, int64(f)
			s.Update(&w)
			transitions += sys.Transitions
		}
		return transitions
	}
	first := run(640) // 10 s
	assert.GreaterOrEqual(t, first, 9, "a blink a second")
	second := run(640) // the clock set back to 0: the next 10 s
	for i, dt := range dts {
		if dt < 0 {
			t.Errorf("update %d after the clock went back: ctx.DT %v", i, dt)
			break
		}
	}
	assert.GreaterOrEqual(t, second, 9, "a blink a second after the clock went back too")
	sm := (*components.StateMachine)(w.Get(e, arche.ComponentID[components.StateMachine](&w)))
	assert.GreaterOrEqual(t, sm.Memory.Elapsed, 0.0)
}

// With a think budget that the frame's due agents fill (20 agents at 10 Hz, 2 thinks a
// frame at 60 Hz: 200 due a second, 120 served), those due longest go first, by
// Think.Next. An agent whose Think.Last is after the clock (the clock went back from
// 10 s) is due at once, but its Next (10 s) sorts it behind every other due agent, so it
// waits until the clock is back at 10 s: the starvation 024412b fixed without a budget.
func TestClockGoesBackUnderABudgetThinksSoon(t *testing.T) {
	w := arche.NewWorld()
	arche.AddResource(&w, grid.New(16, 16))
	oldTicks := 0
	counting, err := bt.Compile("count", bt.Action("Count", func(*bt.Context) bt.Status { oldTicks++; return bt.Success }))
	require.NoError(t, err)
	idle, err := bt.Compile("idle", bt.Action("Idle", func(*bt.Context) bt.Status { return bt.Success }))
	require.NoError(t, err)
	others, err := systems.NewSpawner(&w, systems.Thinker{Tree: idle})
	require.NoError(t, err)
	for i := range 20 {
		others.Spawn(r2.Vec{X: 1, Y: 1}, func(a *systems.Spawned) { a.Think.Next = float64(i) / 200 })
	}
	old, err := systems.NewSpawner(&w, systems.Thinker{Tree: counting})
	require.NoError(t, err)
	old.Spawn(r2.Vec{X: 2, Y: 2}, func(a *systems.Spawned) {
		a.Think.Last, a.Think.Next = 9.9, 10 // thought at 9.9 s; the clock is now at 0
	})
	s := ecs.NewScheduler(&systems.Decision{Budget: 2})
	clock := ecs.ClockOf(&w)
	clock.DT = 1.0 / 60
	s.Initialize(&w)
	defer s.Finalize(&w)
	for f := range 60 { // 1 s
		clock.Time, clock.Frame = float64(f)/60, int64(f)
		s.Update(&w)
	}
	assert.Positive(t, oldTicks, "the agent whose clock went back thought in the first second")
}
