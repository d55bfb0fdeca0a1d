package save_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A clock no run can have (NaN or infinite Time, a negative or NaN DT, a started clock
// stepping 0) is ErrDomain naming the field, at Save and at Load, not a run whose
// timers never fire.
func TestClockOutOfDomainIsAnError(t *testing.T) {
	f := newFixture(t) // Clock{Time: 1.5, DT: 1/60, Frame: 90, Started: true}
	data, err := save.Save(f.w, nil)
	require.NoError(t, err)
	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &doc))
	for clock, want := range map[string]string{
		`{"Time":"NaN","DT":0.016666666666666666,"Frame":90,"Started":true}`:  "Clock.Time: NaN, not a finite number of seconds ≥ 0",
		`{"Time":"+Inf","DT":0.016666666666666666,"Frame":90,"Started":true}`: "Clock.Time: +Inf",
		`{"Time":-1,"DT":0.016666666666666666,"Frame":90,"Started":true}`:     "Clock.Time: -1",
		`{"Time":1.5,"DT":"NaN","Frame":90,"Started":true}`:                   "Clock.DT: NaN",
		`{"Time":1.5,"DT":-0.016666666666666666,"Frame":90,"Started":true}`:   "Clock.DT: -0.016666666666666666",
		`{"Time":1.5,"DT":0,"Frame":90,"Started":true}`:                       "Clock.DT: 0 in a started clock (frame 90)",
		`{"Time":1.5,"DT":0.016666666666666666,"Frame":-1,"Started":true}`:    "Clock.Frame: -1 outside 0..",
	} {
		doc["clock"] = json.RawMessage(clock)
		b, err := json.Marshal(doc)
		require.NoError(t, err)
		_, err = save.Load(b, f.reg)
		assert.ErrorIs(t, err, save.ErrDomain, clock)
		assert.ErrorContains(t, err, "load: "+want, clock)
	}
	doc["clock"] = json.RawMessage(`{"Time":0,"DT":0,"Frame":0,"Started":false}`) // a clock added, never run
	b, err := json.Marshal(doc)
	require.NoError(t, err)
	_, err = save.Load(b, f.reg)
	assert.NoError(t, err)

	ecs.Resource[ecs.Clock](f.w).Time = math.NaN()
	_, err = save.Save(f.w, nil)
	assert.ErrorIs(t, err, save.ErrDomain)
	assert.ErrorContains(t, err, "save: Clock.Time: NaN")
}

// A game with a variable step saves the step of its last frame; its ClockSystem, made
// anew at load, steps another. Restore used to refuse it ("Time = Frame·DT would jump")
// so such a game could not load its saves; the clock now goes on from where the saved
// frame ended, then steps the new DT, and Restore accepts any step.
func TestRestoreWithAnotherClockStepContinuesTheClock(t *testing.T) {
	f := newFixture(t) // stepping 1/60 s, frame 90 at 1.5 s
	data, err := save.Save(f.w, nil)
	require.NoError(t, err)
	for _, dt := range []float64{1.0 / 60, 1.0 / 30, 0.25} {
		l, err := save.LoadInto(data, f.reg, worldWith(grid.New(16, 16)))
		require.NoError(t, err)
		cs := ecs.NewClockSystem(dt)
		cs.Initialize(l.World)
		require.NoError(t, l.Restore(), "dt %v", dt)
		c := ecs.Resource[ecs.Clock](l.World)
		cs.Update(l.World)
		assert.Equal(t, int64(91), c.Frame)
		assert.Equal(t, 1.5+1.0/60, c.Time, "dt %v: frame 91 starts where frame 90 ended", dt)
		cs.Update(l.World)
		assert.Equal(t, int64(92), c.Frame)
		assert.Equal(t, 1.5+1.0/60+dt, c.Time, "dt %v", dt)
	}
}

// A program that initialized its ClockSystem before loading (the world is made, the
// schedule initialized, then the save loaded into it): the load writes the saved clock
// into the world's Clock, and the next frame is the saved run's next (frame 91 at
// 1.5 s + 1/60). Before, the ClockSystem went on with its own count: frame 0 at time 0,
// in silence.
func TestClockSystemInitializedBeforeTheLoadGoesOnFromTheSave(t *testing.T) {
	f := newFixture(t) // stepping 1/60 s, frame 90 at 1.5 s
	data, err := save.Save(f.w, nil)
	require.NoError(t, err)
	w := worldWith(grid.New(16, 16))
	cs := ecs.NewClockSystem(1.0 / 60)
	cs.Initialize(w)
	l, err := save.LoadInto(data, f.reg, w)
	require.NoError(t, err)
	require.NoError(t, l.Restore())
	cs.Update(w)
	c := ecs.Resource[ecs.Clock](w)
	assert.Equal(t, int64(91), c.Frame)
	assert.Equal(t, 1.5+1.0/60, c.Time)
}

// A path queue's state saved after a grid edit its Update has not seen would lose the
// repaths it owes (a loaded queue starts from the loaded grid): Save refuses it until the
// queue's next Update. A state of a system initialized on another world, or not at all,
// is refused too (the file would hold another world's queue, or one no load accepts).
func TestSaveRefusesAQueueBehindItsGridOrOfAnotherWorld(t *testing.T) {
	w, pq, _ := pendingWorld(t)
	g := ecs.Resource[grid.Grid](w)
	g.SetCost(grid.Cell{X: 20, Y: 37}, grid.Blocked) // a door closes between frames
	_, err := save.Save(w, nil, pq)
	require.Error(t, err)
	assert.ErrorContains(t, err, "save: state of pathqueue: pathqueue state: the grid was edited since the queue's last Update (1 cell edit, the last at x = 20, y = 37)")
	assert.ErrorContains(t, err, "save after the queue's next Update")
	pq.Update(w)
	_, err = save.Save(w, nil, pq)
	require.NoError(t, err)

	other, _, _ := pendingWorld(t)
	_, err = save.Save(other, nil, pq)
	assert.ErrorIs(t, err, save.ErrState)
	assert.ErrorContains(t, err, "save: state of pathqueue: system state does not match: the system is initialized on another world")
	_, err = save.Save(w, nil, &systems.PathQueue{})
	assert.ErrorIs(t, err, save.ErrState)
	assert.ErrorContains(t, err, "the system is not initialized")
}

// Save inside a query (a system's Update, a leaf) would write a frame half done: it
// is ErrState, and works once the query is closed.
func TestSaveInsideAQueryIsAnError(t *testing.T) {
	f := newFixture(t)
	q := f.w.Query(arche.All())
	_, err := save.Save(f.w, nil)
	q.Close()
	assert.ErrorIs(t, err, save.ErrState)
	assert.ErrorContains(t, err, "save: system state does not match: the world is locked (a query is open")
	_, err = save.Save(f.w, nil)
	assert.NoError(t, err)
}

// A registry listing two different trees under one name (which one the saved agents
// ran cannot be told; the last used to win in silence) is ErrDuplicateID naming the
// entry; the same tree listed twice is fine, a nil one an error.
func TestRegistryWithTwoDefinitionsOfOneNameIsAnError(t *testing.T) {
	f := newFixture(t)
	data, err := save.Save(f.w, nil)
	require.NoError(t, err)
	reg := f.reg
	reg.Trees = []*bt.Tree{f.tree, f.tree}
	_, err = save.Load(data, reg)
	require.NoError(t, err)
	other, err := bt.Compile("patrol", bt.Wait(1))
	require.NoError(t, err)
	reg.Trees = []*bt.Tree{f.tree, other}
	_, err = save.Load(data, reg)
	assert.ErrorIs(t, err, save.ErrDuplicateID)
	assert.ErrorContains(t, err, `load: Registry.Trees[1]: two different trees, machines, reasoners or planner domains under one ID: a second tree named "patrol"`)
	reg.Trees = []*bt.Tree{f.tree, nil}
	_, err = save.Load(data, reg)
	assert.EqualError(t, err, "load: Registry.Trees[1] is nil")
}

// review5: a save made before the first frame (the ClockSystem initialized, its clock not
// Started) has no Time to jump from: Restore with another step is no error (it said "Time
// would jump from 0 s to 0.0333 s at the next frame", but the next frame is frame 0, at
// Time 0), and the run then steps the new DT from Time 0.
func TestRestoreBeforeTheFirstFrameTakesAnotherStep(t *testing.T) {
	w := worldWith(grid.New(16, 16))
	ecs.NewClockSystem(1.0 / 60).Initialize(w)
	data, err := save.Save(w, nil)
	require.NoError(t, err)
	l, err := save.LoadInto(data, save.Registry{}, worldWith(grid.New(16, 16)))
	require.NoError(t, err)
	cs := ecs.NewClockSystem(1.0 / 30)
	cs.Initialize(l.World)
	require.NoError(t, l.Restore())
	c := ecs.Resource[ecs.Clock](l.World)
	cs.Update(l.World)
	assert.Equal(t, int64(0), c.Frame)
	assert.Equal(t, 0.0, c.Time)
	cs.Update(l.World)
	assert.Equal(t, int64(1), c.Frame)
	assert.Equal(t, 1.0/30, c.Time)
}
