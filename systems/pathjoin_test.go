package systems_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPathJoinMisplacedIsRefused (review16, overlap17): a PathJoin placed after
// a system that reads or writes a Path (PathFollow, a Decision whose leaves see
// the agent's Path, LOD, which sets Path.Priority) lets that system run before
// the frame's paths are written: it sees the requests unanswered, and a request
// it changes is answered otherwise than without Overlap (the join then refuses
// to write over it), without a word. It is refused at Initialize, as ORCA's
// wrong order is, naming the system. The searches touch no World now
// (overlap17), so Steer, Movement (and Combat, Spatial, Perception, ORCA,
// FlowField) between the queue and its join are fine: only PathFollow is named.
func TestPathJoinMisplacedIsRefused(t *testing.T) {
	const msg = ", between its PathQueue (Overlap) and it: these read or write a Path, and would see the frame's " +
		"requests unanswered (their paths are written at the join); put the PathJoin after the queue and before them " +
		"(Combat, Spatial, Perception, FlowField, Steer, ORCA and Movement may run between)"
	c := newCrowd(t, 200, 6, 2, false)
	c.PathQueue.Workers, c.PathQueue.Overlap = 2, true
	join := c.PathQueue.Join()
	// the join after PathFollow, Steer and Movement
	s := ecs.NewScheduler(append(c.systems(), join)...)
	assert.PanicsWithError(t, "systems: PathJoin is initialized after pathfollow"+msg, func() { s.Initialize(c.World) })
	s.Finalize(c.World)

	// a Decision or a LOD between the queue and its join
	for _, tc := range []struct {
		name string
		sys  func(c *crowd) ecs.System
	}{
		{"decision", func(c *crowd) ecs.System { return &systems.Decision{Workers: 2} }},
		{"lod", func(c *crowd) ecs.System { return c.LOD }},
	} {
		c := newCrowd(t, 200, 6, 2, true)
		c.PathQueue.Workers, c.PathQueue.Overlap = 2, true
		s := ecs.NewScheduler(c.Clock, c.Spatial, c.PathQueue, tc.sys(c), c.PathQueue.Join())
		assert.PanicsWithError(t, "systems: PathJoin is initialized after "+tc.name+msg, func() { s.Initialize(c.World) }, tc.name)
		s.Finalize(c.World)
	}

	// the join between the queue and Combat, or after Combat: fine
	c2 := newCrowd(t, 200, 6, 2, false)
	c2.PathQueue.Workers, c2.PathQueue.Overlap = 2, true
	c2.PathJoin = c2.PathQueue.Join()
	s2 := ecs.NewScheduler(c2.systems()...)
	require.NotPanics(t, func() { s2.Initialize(c2.World) })
	s2.Run(c2.World, 3)
	s2.Finalize(c2.World)

	// the join before the queue: the queue would never overlap
	c4 := newCrowd(t, 200, 6, 2, false)
	c4.PathQueue.Workers, c4.PathQueue.Overlap = 2, true
	s4 := ecs.NewScheduler(append([]ecs.System{c4.PathQueue.Join()}, c4.systems()...)...)
	assert.PanicsWithError(t, "systems: PathJoin is initialized before its PathQueue (Overlap), or on another world: the queue would "+
		"never overlap; put the PathJoin after the queue in the schedule", func() { s4.Initialize(c4.World) })

	// a queue without Overlap: its join does nothing, wherever it is
	c3 := newCrowd(t, 200, 6, 2, false)
	s3 := ecs.NewScheduler(append([]ecs.System{c3.PathQueue.Join()}, append(c3.systems(), c3.PathQueue.Join())...)...)
	require.NotPanics(t, func() { s3.Initialize(c3.World) })
	s3.Run(c3.World, 3)
	s3.Finalize(c3.World)
}

// TestPathQueueOverlapLeavesNoGoroutine (review16): a schedule with Overlap
// finalized right after a frame's searches started (the queue's Update, not
// its join: Finalize waits for them) leaves no helper running once every
// pool is closed, and a queue finalized mid-frame answers the same as one
// joined.
func TestPathQueueOverlapLeavesNoGoroutine(t *testing.T) {
	base := runtime.NumGoroutine()
	c := newCrowd(t, 600, 6, 2, false)
	c.PathQueue.Workers, c.PathQueue.Overlap, c.PathQueue.Budget = 2, true, 40
	c.PathJoin = c.PathQueue.Join()
	s := ecs.NewScheduler(c.systems()...)
	s.Initialize(c.World)
	s.Run(c.World, 5)
	c.PathQueue.Update(c.World) // searches started, nobody joins them
	s.Finalize(c.World)         // the queue's Finalize waits for them
	st := c.PathQueue.State()   // and State waits for nothing
	require.NotNil(t, st.Queued)
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), base, "helpers left running after Finalize")
}

// A queue with Overlap and no PathJoin after it serves in its Update (the same
// results, no overlap): Diagnose reports it, as one finding, so a join left
// out of the schedule does not go unseen; with the join, or with one worker
// (nothing to overlap with), there is nothing to report.
func TestPathQueueOverlapWithoutJoinIsReported(t *testing.T) {
	run := func(workers int, join bool) systems.Report {
		c := newCrowd(t, 200, 6, workers, false)
		c.PathQueue.Workers, c.PathQueue.Overlap = workers, true
		if join {
			c.PathJoin = c.PathQueue.Join()
		}
		s := ecs.NewScheduler(c.systems()...)
		s.Initialize(c.World)
		defer s.Finalize(c.World)
		s.Run(c.World, 3)
		return systems.Diagnose(c.World)
	}
	r := run(2, false)
	assert.True(t, r.Unjoined)
	assert.Equal(t, 1, r.Total())
	assert.Contains(t, r.String(), "path queue with Overlap and no PathJoin after it")
	for _, tc := range []struct {
		workers int
		join    bool
	}{{2, true}, {1, false}, {1, true}} {
		r := run(tc.workers, tc.join)
		assert.False(t, r.Unjoined, "%d workers, join %v", tc.workers, tc.join)
		assert.Zero(t, r.Total(), "%d workers, join %v: %s", tc.workers, tc.join, r)
	}
}
