package save_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// ratsMap is newbie18's flowsave map: 32×32 with a wall at x 16 from y 0 to 23.
func ratsMap() *grid.Grid {
	g := grid.New(32, 32)
	for y := int32(0); y < 24; y++ {
		g.SetCost(grid.Cell{X: 16, Y: y}, grid.Blocked)
	}
	return g
}

func ratsFrame(ff *systems.FlowField) *ecs.Scheduler {
	return ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, ff, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
}

// ratsWorld is newbie18's flowsave: 50 flow followers heading round the wall to
// (28, 4), run for 120 frames.
func ratsWorld(t *testing.T) (*arche.World, *systems.FlowField, *ecs.Scheduler) {
	return ratsWorldBudget(t, 0)
}

// ratsWorldBudget is ratsWorld with the FlowField's Budget.
func ratsWorldBudget(t *testing.T, budget int) (*arche.World, *systems.FlowField, *ecs.Scheduler) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, ratsMap())
	rats, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 28, Y: 4}})
	require.NoError(t, err)
	rats.SpawnBatch(50, func(i int, a *systems.Spawned) {
		a.Position.Vec = r2.Vec{X: 2.5 + float64(i%10), Y: 6.5 + float64(i/10)}
	})
	ff := &systems.FlowField{Budget: budget}
	s := ratsFrame(ff)
	s.Initialize(w)
	s.Run(w, 120)
	return w, ff, s
}

// loadRats loads data into a new world with the map and a new schedule, initialized.
func loadRats(t *testing.T, data []byte) (*save.Loaded, *systems.FlowField, *ecs.Scheduler) {
	return loadRatsBudget(t, data, 0)
}

// loadRatsBudget is loadRats with the FlowField's Budget.
func loadRatsBudget(t *testing.T, data []byte, budget int) (*save.Loaded, *systems.FlowField, *ecs.Scheduler) {
	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	arche.AddResource(l.World, ratsMap())
	ff := &systems.FlowField{Budget: budget}
	s := ratsFrame(ff)
	s.Initialize(l.World)
	return l, ff, s
}

// newbie18's finding 2: save.Save(w, meta) of a world running a FlowField, without
// its state, used to succeed, and so did Restore() without it: the loaded crowd ended
// up to 68 cells from the unbroken run's, and nothing said so. Save now refuses,
// naming the system.
func TestSaveRefusesARunningFlowFieldLeftOut(t *testing.T) {
	w, ff, _ := ratsWorld(t)
	assert.Equal(t, []string{"flowfield"}, systems.StatefulSystems(w))
	data, err := save.Save(w, nil)
	require.Error(t, err)
	assert.Nil(t, data)
	assert.ErrorIs(t, err, save.ErrStateLeftOut)
	assert.ErrorIs(t, err, save.ErrState, "a kind of ErrState: callers that branch on ErrState still see it")
	assert.Contains(t, err.Error(), "the world runs flowfield, whose state persists across frames, not given to Save")
	assert.Contains(t, err.Error(), "save.Without(sys)")

	_, err = save.Save(w, nil, ff)
	require.NoError(t, err)
}

// Every live stateful system is named, in a fixed order, and only live ones: a
// system finalized since does not count.
func TestSaveNamesEveryRunningStatefulSystem(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	b := fsm.NewBuilder("idle")
	b.State("Idle", fsm.Hooks{})
	m, err := b.Build()
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Thinker{Machine: m, Interval: 0.1})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 1.5, Y: 1.5}, nil)
	pq, f, d := &systems.PathQueue{}, &systems.FSM{}, &systems.Decision{}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.Spatial{}, d, &systems.Utility{}, f, pq,
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	s.Initialize(w)
	s.Run(w, 3)
	assert.Equal(t, []string{"decision", "utility", "fsm", "pathqueue"}, systems.StatefulSystems(w))

	_, err = save.Save(w, nil, pq, d)
	require.ErrorIs(t, err, save.ErrStateLeftOut)
	assert.Contains(t, err.Error(), "the world runs utility, fsm, whose state")

	// left out on purpose: saved, and the file records it
	data, err := save.Save(w, nil, pq, d, save.Without(&systems.Utility{}), save.Without(f))
	require.NoError(t, err)
	var doc struct {
		LeftOut []string                   `json:"left_out"`
		Systems map[string]json.RawMessage `json:"systems"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	assert.Equal(t, []string{"utility", "fsm"}, doc.LeftOut)
	assert.Len(t, doc.Systems, 2, "pathqueue and decision only")
	assert.Contains(t, doc.Systems, "pathqueue")
	assert.NotContains(t, doc.Systems, "fsm")

	s.Finalize(w)
	assert.Nil(t, systems.StatefulSystems(w), "finalized systems do not run the world any more")
	_, err = save.Save(w, nil)
	require.NoError(t, err)
}

// Without: saved without the FlowField on purpose, the file loads with Restore() or
// Restore(ff) alike, leaving the FlowField as Initialize made it (no field). With a
// Budget the fields build again over frames and the run continues another way, as
// Without's doc warns; with Budget 0 they are built in the first frame that asks for
// them, so the run continues as the unbroken one (since the session of 2026-12-04
// 12:43: before, every follower stood still for that frame and the hash differed).
// With the state, it continues exactly (newbie18's hashes, at frame 120+600).
func TestWithoutLeavesAFlowFieldOutOnPurpose(t *testing.T) {
	for _, budget := range []int{0, 40} {
		w, ff, s := ratsWorldBudget(t, budget)
		kept, err := save.Save(w, nil, ff)
		require.NoError(t, err)
		left, err := save.Save(w, nil, save.Without(ff))
		require.NoError(t, err)
		s.Run(w, 600)
		want := systems.StateHash(w)

		l, ff2, s2 := loadRatsBudget(t, kept, budget)
		require.NoError(t, l.Restore(ff2))
		s2.Run(l.World, 600)
		assert.Equal(t, want, systems.StateHash(l.World), "budget %d: with its state, the loaded run continues as the unbroken one", budget)

		for _, restore := range []func(l *save.Loaded, ff *systems.FlowField) error{
			func(l *save.Loaded, _ *systems.FlowField) error { return l.Restore() },
			func(l *save.Loaded, ff *systems.FlowField) error { return l.Restore(ff) },
			func(l *save.Loaded, ff *systems.FlowField) error { return l.Restore(save.Without(ff)) },
		} {
			l, ff3, s3 := loadRatsBudget(t, left, budget)
			require.NoError(t, restore(l, ff3))
			assert.Equal(t, 0, ff3.Cache.Len(), "left out: the FlowField starts with no field")
			s3.Run(l.World, 600)
			if budget == 0 {
				assert.Equal(t, want, systems.StateHash(l.World), "left out with Budget 0: the field is built in the first frame, the run continues")
			} else {
				assert.NotEqual(t, want, systems.StateHash(l.World), "left out with a Budget: the run continues another way (Without's Important)")
			}
		}
	}
	// Without(ff) at Restore also skips a state the file holds
	w, ff, _ := ratsWorld(t)
	kept, err := save.Save(w, nil, ff)
	require.NoError(t, err)
	l, ff4, _ := loadRats(t, kept)
	require.NoError(t, l.Restore(save.Without(ff4)))
	assert.Equal(t, 0, ff4.Cache.Len())
}

// Restore checks the loaded world too: a file without a FlowField's state (saved
// before the FlowField ran, or by a program without one) restored into a world
// running one is an error naming it, restoring nothing; Without starts it afresh.
func TestRestoreRefusesARunningSystemTheFileLacks(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, ratsMap())
	rats, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 28, Y: 4}})
	require.NoError(t, err)
	rats.SpawnBatch(5, nil)
	data, err := save.Save(w, nil) // no system ran: nothing to give
	require.NoError(t, err)

	l, ff, _ := loadRats(t, data)
	err = l.Restore()
	require.ErrorIs(t, err, save.ErrStateLeftOut)
	assert.Contains(t, err.Error(), "the world runs flowfield, whose state persists across frames, not given to Restore and not saved as left out")
	err = l.Restore(ff)
	require.ErrorIs(t, err, save.ErrState)
	assert.Contains(t, err.Error(), `the file has no state for "flowfield"`)
	require.NoError(t, l.Restore(save.Without(ff)))
}

// The file's states are all checked before any is restored: an error restores
// nothing (the PathQueue given first is not touched when the FlowField is missing).
func TestRestoreChecksBeforeRestoring(t *testing.T) {
	w, pq, _ := pendingWorld(t)
	data, err := save.Save(w, nil, pq)
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	arche.AddResource(l.World, ecs.Resource[grid.Grid](w))
	pq2, ff := &systems.PathQueue{Budget: 200}, &systems.FlowField{}
	pq2.Initialize(l.World)
	ff.Initialize(l.World)
	err = l.Restore(pq2)
	require.ErrorIs(t, err, save.ErrStateLeftOut)
	assert.Contains(t, err.Error(), "flowfield")
	assert.Empty(t, pq2.State().Queued, "nothing restored")
	assert.Nil(t, pq2.State().Active)
	require.NoError(t, l.Restore(pq2, save.Without(ff)))
	assert.Len(t, pq2.State().Queued, 3, "the 4 pending searches: 3 queued, 1 half done")
	assert.NotNil(t, pq2.State().Active)
}

// A nil state, or Without(nil), is an error, not a panic; so are two states of one name.
func TestSaveAndRestoreRefuseNilStates(t *testing.T) {
	w, pq, _ := pendingWorld(t)
	for _, states := range [][]save.State{{nil}, {pq, save.Without(nil)}, {pq, pq}, {pq, save.Without(pq)}} {
		_, err := save.Save(w, nil, states...)
		require.Error(t, err)
		assert.False(t, errors.Is(err, save.ErrStateLeftOut))
	}
	data, err := save.Save(w, nil, pq)
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	require.Error(t, l.Restore(nil))
	require.Error(t, l.Restore(save.Without(nil)))
}
