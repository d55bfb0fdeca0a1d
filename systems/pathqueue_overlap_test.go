package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// churnTag is a component the churn system adds to and removes from agents.
type churnTag struct{ N int }

// churn is a user's system that changes the world's structure every frame: it
// moves every fifth agent with a Path to another archetype (adding or removing
// churnTag, so its Path moves in memory) and creates and removes bare entities
// (recycling IDs). Placed between a PathQueue with Overlap and its PathJoin, it
// runs while the searches do.
type churn struct {
	frame  int
	filter *generic.Filter1[components.Path]
	tag    arche.ID
	pick   []arche.Entity
	made   []arche.Entity
}

func (c *churn) Initialize(w *arche.World) {
	c.filter = generic.NewFilter1[components.Path]()
	c.tag = arche.ComponentID[churnTag](w)
}

func (c *churn) Update(w *arche.World) {
	c.frame++
	for _, e := range c.made {
		w.RemoveEntity(e)
	}
	c.made = c.made[:0]
	c.pick = c.pick[:0]
	q := c.filter.Query(w)
	for q.Next() {
		if e := q.Entity(); int(e.ID())%5 == c.frame%5 {
			c.pick = append(c.pick, e)
		}
	}
	for _, e := range c.pick {
		if w.Has(e, c.tag) {
			w.Remove(e, c.tag)
		} else {
			w.Add(e, c.tag)
		}
	}
	for range 40 {
		c.made = append(c.made, w.NewEntity())
	}
}

func (c *churn) Finalize(w *arche.World) {}

// TestPathQueueOverlapBesideStructuralChanges (overlap17): the searches of a queue
// with Overlap touch no World on their helper (every World access is in the
// queue's Update or its PathJoin's), so a system between the two may change the
// world's structure: here one moves requesters' Paths between archetypes and
// creates and removes entities every frame. The crowd is the one of a queue
// without Overlap with that system at the same place, frame by frame; also when
// the queue takes no views before its searches start, or one, so that the
// helper stops at the first request it has none of and the join goes on with
// the serve. Under go test -race, a search that read a Path or checked liveness
// on the helper again would be reported here, where the entity index and the
// Path columns move under it.
func TestPathQueueOverlapBesideStructuralChanges(t *testing.T) {
	type result struct {
		hash  uint64
		stats [][4]int // per frame: Served, Expansions, Waiting, Dropped
	}
	run := func(workers int, overlap bool) result {
		c := newCrowd(t, 600, 9, workers, false)
		// a small budget: searches span frames and requests wait
		c.PathQueue.Workers, c.PathQueue.Overlap, c.PathQueue.Budget = workers, overlap, 12
		sys := []ecs.System{c.Clock, c.Spatial, c.Perception, c.Decision, c.PathQueue, &churn{}, c.Combat}
		if overlap {
			sys = append(sys, c.PathQueue.Join())
		}
		s := ecs.NewScheduler(append(sys, c.Respawn, c.PathFollow, c.Steer, c.Movement)...)
		s.Initialize(c.World)
		defer s.Finalize(c.World)
		var r result
		for range 80 {
			s.Run(c.World, 1)
			pq := c.PathQueue
			r.stats = append(r.stats, [4]int{pq.Served, pq.Expansions, pq.Waiting, pq.Dropped})
		}
		r.hash = systems.StateHash(c.World)
		return r
	}
	want := run(1, false)
	waited, served := 0, 0
	for _, st := range want.stats {
		served += st[0]
		waited += st[2]
	}
	require.Positive(t, served)
	require.Positive(t, waited, "no request waited past a frame: a weak test")
	assert.Equal(t, want, run(2, true), "2 workers, overlap")
	for _, views := range []int{0, 1} {
		old := systems.SetPathViewsFor(func(int) int { return views })
		assert.Equal(t, want, run(2, true), "2 workers, overlap, views of %d requests taken before the searches", views)
		systems.SetPathViewsFor(old)
	}
}

// TestPathJoinAfterMotionIsAlike (overlap17): Steer and Movement read and write no
// Path, so they may run between a queue with Overlap and its join (their
// Kinematics, Position and Velocity are no concern of the searches, which work
// on the cells Update filed); the crowd is that of a queue without Overlap in the
// same order.
func TestPathJoinAfterMotionIsAlike(t *testing.T) {
	run := func(workers int, overlap bool) (uint64, int64) {
		c := newCrowd(t, 400, 6, workers, false)
		c.PathQueue.Workers, c.PathQueue.Overlap, c.PathQueue.Budget = workers, overlap, 40
		sys := []ecs.System{c.Clock, c.Spatial, c.Perception, c.Decision, c.PathQueue, c.Combat, c.Steer, c.Movement}
		if overlap {
			sys = append(sys, c.PathQueue.Join())
		}
		s := ecs.NewScheduler(append(sys, c.Respawn, c.PathFollow)...)
		require.NotPanics(t, func() { s.Initialize(c.World) })
		defer s.Finalize(c.World)
		s.Run(c.World, 60)
		return systems.StateHash(c.World), c.PathQueue.TotalServed
	}
	want, served := run(1, false)
	require.Positive(t, served)
	got, gotServed := run(2, true)
	assert.Equal(t, want, got)
	assert.Equal(t, served, gotServed)
}
