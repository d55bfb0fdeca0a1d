package ecs_test

import (
	"testing"
	"time"

	"github.com/archai-go/archai/ecs"
	"github.com/mlange-42/arche-model/model"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sleeper is a system whose Update takes d of wall time.
type sleeper struct {
	d                      time.Duration
	inits, updates, finals int
}

func (s *sleeper) Initialize(*arche.World) { s.inits++ }
func (s *sleeper) Update(*arche.World)     { s.updates++; time.Sleep(s.d) }
func (s *sleeper) Finalize(*arche.World)   { s.finals++ }

type named struct{ sleeper }

func (*named) Name() string { return "named" }

// TestTimingsTimeSystemsUnderArcheModel: systems wrapped by Timings.Time and run
// by arche-model's Model are timed, each under its own name, in the order
// wrapped: the slow one's total is at least its sleeps, the fast one's below it;
// the wrapped systems' life cycle runs as unwrapped.
func TestTimingsTimeSystemsUnderArcheModel(t *testing.T) {
	tm := &ecs.Timings{}
	slow, fast := &named{sleeper{d: 2 * time.Millisecond}}, &sleeper{}
	m := model.New()
	m.AddSystem(tm.Time(ecs.NewClockSystem(1.0 / 60)))
	ts := tm.Time(slow)
	m.AddSystem(ts)
	m.AddSystem(tm.Time(fast))
	m.Initialize()
	for range 5 {
		m.Update()
	}
	m.Finalize()
	assert.Equal(t, [3]int{1, 5, 1}, [3]int{slow.inits, slow.updates, slow.finals})
	assert.Equal(t, [3]int{1, 5, 1}, [3]int{fast.inits, fast.updates, fast.finals})
	times := tm.AppendTimes(nil)
	require.Len(t, times, 3)
	assert.Equal(t, "clock", times[0].Name)
	assert.Equal(t, "named", times[1].Name)
	assert.Equal(t, "*ecs_test.sleeper", times[2].Name)
	assert.GreaterOrEqual(t, times[1].Total, 10*time.Millisecond, "five sleeps of 2 ms")
	assert.Less(t, times[2].Total, times[1].Total)
	assert.Equal(t, times, tm.Times())
	assert.Equal(t, "named", ts.Name())
	assert.Same(t, slow, ts.Unwrap())

	buf := make([]ecs.SystemTime, 0, 4)
	tf := tm.Time(fast)
	w := arche.NewWorld()
	assert.Zero(t, testing.AllocsPerRun(100, func() { tf.Update(&w); buf = tm.AppendTimes(buf[:0]) }),
		"a timed Update and a report allocate nothing")
}

// TestTimingsRefusesANilSystem: an optional system left unset is named, not a
// nil dereference at the first Update.
func TestTimingsRefusesANilSystem(t *testing.T) {
	tm := &ecs.Timings{}
	assert.PanicsWithValue(t, "ecs: Timings.Time: system 0 is nil (an optional system left unset? leave it out)", func() { tm.Time(nil) })
	var s *sleeper
	assert.PanicsWithValue(t, "ecs: Timings.Time: system 0 is a nil *ecs_test.sleeper (an optional system left unset? leave it out)", func() { tm.Time(s) })
}

// window is a system with a UI part too (arche-model's model.UISystem: a window
// drawn at its own frame rate).
type window struct{ sleeper }

func (*window) InitializeUI(*arche.World) {}
func (*window) UpdateUI(*arche.World)     {}
func (*window) PostUpdateUI(*arche.World) {}
func (*window) FinalizeUI(*arche.World)   {}

// TestTimingsRefusesAUISystem: a Timed has no UI methods, so a UI system wrapped
// and added with m.AddSystem would run its Updates and never draw, where
// arche-model refuses it unwrapped; Time refuses it, naming AddUISystem.
func TestTimingsRefusesAUISystem(t *testing.T) {
	assert.Panics(t, func() { model.New().AddSystem(&window{}) }, "arche-model refuses a UI system in AddSystem")
	tm := &ecs.Timings{}
	assert.PanicsWithValue(t, "ecs: Timings.Time: system 0 (*ecs_test.window) is a UI system (arche-model's model.UISystem), whose UI methods a Timed would hide: add it unwrapped with AddUISystem", func() { tm.Time(&window{}) })
	assert.Empty(t, tm.Times(), "nothing wrapped")
}
