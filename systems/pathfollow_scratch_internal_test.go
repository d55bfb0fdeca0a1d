package systems

import (
	"testing"
	"unsafe"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/internal/alloctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Regression: each worker's list of the agents that take PathFollow's slow way
// (followScratch.slow) grew by append the first time that worker claimed a block
// with many of them. Which worker claims which block depends on timing, so a
// worker could stay small through any warm-up and allocate in a later frame: seen
// as "pathfollow allocates in a warm frame" (7 allocations, 4 to 256 entries) in
// TestGuardsWarmFrameAllocatesNothing on a loaded machine. A block is at most
// blockSize agents, so each worker's list now holds one from Initialize. Here one
// block of agents is served by one worker (whichever claims it); then every
// worker serves that block once more, and none may allocate (alloctest counts
// archai's objects, not the runtime's parking records for the pool's
// hand-offs) nor replace its list.
func TestPathFollowEveryWorkerServesABlockWithoutAllocating(t *testing.T) {
	w, _ := newWorld(64, 64)
	sp, err := NewSpawner(w, Mover{})
	require.NoError(t, err)
	sp.SpawnBatch(blockSize, func(i int, a *Spawned) { // no move intent: every agent takes the slow way
		a.Position.Vec = r2.Vec{X: 1.5 + float64(i%60), Y: 1.5 + float64(i/60)}
	})
	pf := &PathFollow{Workers: 2}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Spatial{}, &PathQueue{}, pf, &Steer{}, &Movement{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 3) // one block a phase: one worker serves it, the other need not run at all
	require.Equal(t, 2, len(pf.scratch))
	pf.pathPhase = true // the block of agents with a Path, as the last Update left it
	m := alloctest.Start(t)
	for k := range pf.scratch {
		slow := pf.scratch[k].slow[:0]
		assert.GreaterOrEqual(t, cap(slow), blockSize, "worker %d's list holds a block from Initialize", k)
		w := m.Count(func() { pf.Work(k, 0, blockSize) })
		if w.Mallocs > 0 {
			t.Logf("worker %d: the process allocated %d objects in the window, archai %d", k, w.Mallocs, w.Objects)
		}
		assert.Zero(t, w.Objects, "worker %d allocates for a block: %s", k, w)
		assert.Equal(t, blockSize, len(pf.scratch[k].slow), "worker %d: every agent took the slow way", k)
		assert.Equal(t, unsafe.SliceData(slow), unsafe.SliceData(pf.scratch[k].slow), "worker %d's list is the one from Initialize", k)
	}
}
