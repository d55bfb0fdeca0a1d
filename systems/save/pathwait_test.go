package save_test

import (
	"regexp"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// waitingQueue is a 128² open map where 30 agents in a column at x = 1 each ask, in
// the first frame, for a path to the cell across the map in their row, served at 10
// node expansions a frame (about 12 frames a search): the last wait several seconds.
func waitingQueue(w *arche.World) (*systems.PathQueue, *ecs.Scheduler) {
	arche.AddResource(w, grid.New(128, 128))
	pq := &systems.PathQueue{Budget: 10}
	return pq, ecs.NewScheduler(ecs.NewClockSystem(1.0/60), pq)
}

func spawnWaiters(w *arche.World) {
	m := generic.NewMap2[components.Position, components.Path](w)
	for i := range 30 {
		m.NewWith(&components.Position{Vec: r2.Vec{X: 1.5, Y: 1.5 + float64(i)}},
			&components.Path{Want: true, Goal: grid.Cell{X: 120, Y: 1 + int32(i)}})
	}
}

// TestLoadedPathRequestsKeepTheirWait (polish20): the requests a PathQueue holds are
// saved with how long they have waited (PathRequestState.Waited), so after loading
// Diagnose reports the waits the saved run would at the same frame: the same count of
// long waits and the same oldest wait, then and 60 frames on. They used to be restored
// as filed in frame 0 of the queue, so a queue that had served frames before (here
// the saved run's own queue, initialized on the loaded world: a rewind) reported
// every restored request as waiting since then, and a new queue as just filed.
// A file without the field restarts each wait at the load.
func TestLoadedPathRequestsKeepTheirWait(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	pq, s := waitingQueue(w)
	spawnWaiters(w)
	s.Initialize(w)
	for range 200 {
		s.Update(w)
	}
	want := systems.Diagnose(w)
	require.Positive(t, pq.Waiting)
	require.Equal(t, pq.Waiting, want.PathsWaitingLong, "all were asked for in the first frame")
	require.InDelta(t, 199.0/60, want.PathWaitOldest, 1e-9)
	data, err := save.Save(w, nil, pq)
	require.NoError(t, err)
	require.Contains(t, string(data), `"waited":199`)
	for range 1000 { // the queue's frame count goes on past the save
		s.Update(w)
	}
	s.Finalize(w)

	// a new queue, and the saved run's own (its frame count at 1200)
	for _, own := range []bool{false, true} {
		l, err := save.Load(data, save.Registry{})
		require.NoError(t, err)
		var pq2 *systems.PathQueue
		var s2 *ecs.Scheduler
		if own {
			arche.AddResource(l.World, grid.New(128, 128))
			pq2, s2 = pq, ecs.NewScheduler(ecs.NewClockSystem(1.0/60), pq)
		} else {
			pq2, s2 = waitingQueue(l.World)
		}
		s2.Initialize(l.World)
		require.NoError(t, l.Restore(pq2))
		got := systems.Diagnose(l.World)
		assert.Equal(t, want.PathsWaitingLong, got.PathsWaitingLong, "own queue %v", own)
		assert.InDelta(t, want.PathWaitOldest, got.PathWaitOldest, 1e-9, "own queue %v", own)
		s2.Finalize(l.World)
	}

	// 60 frames on, the saved run and the loaded one agree
	world = arche.NewWorld()
	w = &world
	pq, s = waitingQueue(w)
	spawnWaiters(w)
	s.Initialize(w)
	for range 260 {
		s.Update(w)
	}
	want = systems.Diagnose(w)
	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	pq2, s2 := waitingQueue(l.World)
	s2.Initialize(l.World)
	require.NoError(t, l.Restore(pq2))
	for range 60 {
		s2.Update(l.World)
	}
	got := systems.Diagnose(l.World)
	require.Positive(t, got.PathsWaitingLong)
	assert.Equal(t, want.PathsWaitingLong, got.PathsWaitingLong)
	assert.InDelta(t, 259.0/60, got.PathWaitOldest, 1e-9)
	assert.Equal(t, systems.StateHash(w), systems.StateHash(l.World))

	// a file from before the field: each wait restarts at the load, nothing waits long
	old := regexp.MustCompile(`,"waited":\d+`).ReplaceAllString(string(data), "")
	require.NotEqual(t, string(data), old)
	l, err = save.Load([]byte(old), save.Registry{})
	require.NoError(t, err)
	pq2, s2 = waitingQueue(l.World)
	s2.Initialize(l.World)
	require.NoError(t, l.Restore(pq2))
	got = systems.Diagnose(l.World)
	assert.Zero(t, got.PathsWaitingLong)
	assert.Zero(t, got.PathWaitOldest)
}

// A negative wait is refused with ErrDomain, naming the field.
func TestPathQueueStateWaitedOutOfDomain(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	w.NewEntity()
	pq := &systems.PathQueue{}
	pq.Initialize(w)
	err := pq.LoadState([]byte(`{"next_seq":2,"queued":[{"start":{"X":0,"Y":0},"goal":{"X":3,"Y":3},"priority":0,"seq":1,"requests":[{"entity":[1,0],"request":1,"waited":-1}]}],"expanded":0}`))
	require.Error(t, err)
	assert.ErrorIs(t, err, save.ErrDomain)
	assert.ErrorContains(t, err, "queued[0].requests[0].waited: -1")
	// a wait so long the queue's frame minus it would overflow (review20)
	err = pq.LoadState([]byte(`{"next_seq":2,"queued":[{"start":{"X":0,"Y":0},"goal":{"X":3,"Y":3},"priority":0,"seq":1,"requests":[{"entity":[1,0],"request":1,"waited":9223372036854775807}]}],"expanded":0}`))
	assert.ErrorIs(t, err, save.ErrDomain)
	assert.ErrorContains(t, err, "queued[0].requests[0].waited: 9223372036854775807 is not in [0, 1099511627776] frames")
	assert.Empty(t, pq.State().Queued, "the queue is left empty")
	require.NoError(t, pq.LoadState([]byte(`{"next_seq":2,"queued":[{"start":{"X":0,"Y":0},"goal":{"X":3,"Y":3},"priority":0,"seq":1,"requests":[{"entity":[1,0],"request":1,"waited":7}]}],"expanded":0}`)))
	assert.Equal(t, int64(7), pq.State().Queued[0].Requests[0].Waited)
}
