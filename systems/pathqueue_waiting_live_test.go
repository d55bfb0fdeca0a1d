package systems_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
)

// queueWorld is n agents on an open 256² grid, agent i at (i%200, i/200)
// asking for a path to the far corner's row, with a PathQueue of a small Budget
// (a search or two a frame) and a clock of 60 Hz. prio gives agent i's
// Path.Priority.
func queueWorld(t *testing.T, n int, prio func(i int) int8) (*arche.World, *ecs.Scheduler, *systems.PathQueue, []arche.Entity) {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	g := grid.New(256, 256)
	arche.AddResource(w, g)
	pm := generic.NewMap2[components.Position, components.Path](w)
	ents := make([]arche.Entity, n)
	for i := range ents {
		e := pm.New()
		pos, p := pm.Get(e)
		pos.Vec = g.Center(grid.Cell{X: int32(i % 200), Y: int32(i / 200)})
		p.Want, p.Goal, p.Priority = true, grid.Cell{X: 255 - int32(i%50), Y: 255}, prio(i)
		ents[i] = e
	}
	q := &systems.PathQueue{Budget: 50}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), q)
	require.NoError(t, s.InitializeChecked(w))
	return w, s, q, ents
}

func countPending(w *arche.World) int {
	n := 0
	q := generic.NewFilter1[components.Path]().Query(w)
	for q.Next() {
		if q.Get().State == components.PathPending {
			n++
		}
	}
	return n
}

// Newcomer finding: 1,000 agents asked at once and 300 were removed after the
// first frame; PathQueue.Waiting and Diagnose's "path requests waiting" counted
// the removed agents' requests (627 against 327 live pending agents) until the
// queue reached and dropped them. Both are the live pending count now.
func TestPathQueueWaitingCountsLiveRequesters(t *testing.T) {
	w, s, q, ents := queueWorld(t, 400, func(int) int8 { return 0 })
	s.Update(w)
	for _, e := range ents[len(ents)-150:] {
		w.RemoveEntity(e)
	}
	for f := 1; f < 200; f++ {
		s.Update(w)
		pending := countPending(w)
		require.Equal(t, pending, q.Waiting, "frame %d", f)
	}
	pending := countPending(w)
	require.Positive(t, pending)
	r := systems.Diagnose(w)
	require.Equal(t, pending, r.PathsWaitingLong, "every live pending agent has waited 3 s")
	require.Contains(t, r.String(), fmt.Sprintf("%d path requests waiting 2 s or more", pending))
	for f := 0; f < 10000 && q.Waiting > 0; f++ {
		s.Update(w)
	}
	require.Zero(t, q.Waiting)
	require.Zero(t, countPending(w))
	// the removed agents' requests, not counted, are dropped when reached
	for f := 0; f < 1000 && q.TotalDropped < 150; f++ {
		s.Update(w)
		require.Zero(t, q.Waiting)
	}
	require.Equal(t, int64(150), q.TotalDropped)
}

// Newcomer finding: one request of Path.Priority -1 among agents asking again
// at priority 1 whenever served is never served (strict priority); Diagnose
// reported the wait but advised a FlowField, JumpPoints or a larger Budget only.
// It names Path.Priority now.
func TestDiagnoseNamesPriorityForAStarvedRequest(t *testing.T) {
	w, s, q, ents := queueWorld(t, 40, func(i int) int8 {
		if i == 0 {
			return -1
		}
		return 1
	})
	paths := generic.NewMap1[components.Path](w)
	for range 300 {
		s.Update(w)
		for _, e := range ents[1:] {
			if p := paths.Get(e); p.State == components.PathReady {
				p.Want = true
			}
		}
	}
	require.Equal(t, components.PathPending, paths.Get(ents[0]).State, "starved")
	require.Positive(t, q.TotalServed)
	r := systems.Diagnose(w)
	require.Positive(t, r.PathsWaitingLong)
	require.True(t, r.PathWaitPriority)
	require.Equal(t, int8(-1), r.PathWaitOldestPriority)
	require.Contains(t, r.String(), "the oldest is of Path.Priority -1, below requests served while it waited")

	// all of one priority: a long wait says nothing of Priority
	w2, s2, _, _ := queueWorld(t, 40, func(int) int8 { return 0 })
	for range 200 {
		s2.Update(w2)
	}
	r2 := systems.Diagnose(w2)
	require.Positive(t, r2.PathsWaitingLong)
	require.False(t, r2.PathWaitPriority)
	require.False(t, strings.Contains(r2.String(), "Path.Priority"), r2.String())
}
