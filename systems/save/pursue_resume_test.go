package save_test

import (
	"strings"
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

// pursuit is a pursuer behind a wall on a 128² map chasing a target that walks a new
// cell every 20 frames on the far side, with a path budget (100) too small for a search
// to end before the target's cell changes (see the systems test
// TestPursuerBehindAWallGetsAPathFromATargetThatKeepsMoving).
type pursuit struct {
	w      *arche.World
	pq     *systems.PathQueue
	sys    []ecs.System
	target arche.Entity
	frame  int
}

func newPursuit(w *arche.World) *pursuit {
	g := grid.New(128, 128)
	for y := 0; y < 120; y++ {
		g.SetCost(grid.Cell{X: 64, Y: int32(y)}, grid.Blocked)
	}
	arche.AddResource(w, g)
	pq := &systems.PathQueue{Budget: 100}
	return &pursuit{w: w, pq: pq, sys: []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{}, pq, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}}}
}

func (p *pursuit) spawn() {
	sp, _ := systems.NewSpawner(p.w, systems.Mover{})
	tsp, _ := systems.NewSpawner(p.w, systems.Mover{Motion: systems.Motion{MaxSpeed: 3}})
	p.target = tsp.Spawn(r2.Vec{X: 100.5, Y: 10.5}, nil)
	u := sp.Spawn(r2.Vec{X: 20.5, Y: 10.5}, func(a *systems.Spawned) { a.Intent.Mode = components.IntentPursue })
	m := generic.NewMap[components.Intent](p.w)
	m.Get(u).Target = p.target
}

func (p *pursuit) step(s *ecs.Scheduler) {
	m := generic.NewMap[components.Intent](p.w)
	in := m.Get(p.target)
	in.Move, in.Goal = true, r2.Vec{X: 100.5, Y: 10.5 + float64(p.frame)*0.05}
	s.Update(p.w)
	p.frame++
}

// A run saved while the search in progress serves a request that already lost one
// search to a goal move (kept on it: PathRequestState.Lost 1) and resumed in a new world
// ends in the state of the run that went on, for 1 and 2 workers. A file without the
// count (saved before it existed) still loads, and the pursuer still gets its path.
func TestPursuitResumesWithALostSearchCounted(t *testing.T) {
	const after = 400
	w := arche.NewWorld()
	full := newPursuit(&w)
	full.spawn()
	sched := ecs.NewScheduler(full.sys...)
	sched.Initialize(full.w)
	kept := func() bool {
		st := full.pq.State()
		return st.Active != nil && st.Expanded > 0 && len(st.Active.Requests) == 1 && st.Active.Requests[0].Lost == 1
	}
	for !kept() {
		require.Less(t, full.frame, 600, "no frame ended with a search in progress for a request that lost one")
		full.step(sched)
	}
	data, err := save.Save(full.w, nil, full.pq)
	require.NoError(t, err)
	require.Contains(t, string(data), `"lost":1`)
	savedAt := full.frame
	for full.frame < savedAt+after {
		full.step(sched)
	}
	sched.Finalize(full.w)
	want := systems.StateHash(full.w)

	resume := func(raw []byte, workers int, frames int) *pursuit {
		w2 := arche.NewWorld()
		res := newPursuit(&w2)
		for _, s := range res.sys {
			if pf, ok := s.(*systems.PathFollow); ok {
				pf.Workers = workers
			}
		}
		l, err := save.LoadInto(raw, save.Registry{}, res.w)
		require.NoError(t, err)
		res.target, res.frame = full.target, savedAt
		s2 := ecs.NewScheduler(res.sys...)
		s2.Initialize(res.w)
		require.NoError(t, l.Restore(res.pq))
		for range frames {
			res.step(s2)
		}
		s2.Finalize(res.w)
		return res
	}
	for _, workers := range []int{1, 2} {
		res := resume(data, workers, after)
		assert.Equal(t, want, systems.StateHash(res.w), "%d workers", workers)
	}

	old := []byte(strings.ReplaceAll(string(data), `,"lost":1`, ""))
	require.NotEqual(t, string(data), string(old))
	res := resume(old, 1, 150)
	assert.Positive(t, res.pq.TotalServed, "a path within 150 frames of loading a file without the count")
}

// A request's lost count is 0 or 1: another value is refused with ErrDomain, naming the field.
func TestPathQueueStateLostOutOfDomain(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	w.NewEntity()
	pq := &systems.PathQueue{}
	pq.Initialize(w)
	err := pq.LoadState([]byte(`{"next_seq":2,"queued":[{"start":{"X":0,"Y":0},"goal":{"X":3,"Y":3},"priority":0,"seq":1,"requests":[{"entity":[1,0],"request":1,"lost":2}]}],"expanded":0}`))
	require.Error(t, err)
	assert.ErrorIs(t, err, save.ErrDomain)
	assert.ErrorContains(t, err, "queued[0].requests[0].lost: 2")
	assert.Empty(t, pq.State().Queued, "the queue is left empty")
	require.NoError(t, pq.LoadState([]byte(`{"next_seq":2,"queued":[{"start":{"X":0,"Y":0},"goal":{"X":3,"Y":3},"priority":0,"seq":1,"requests":[{"entity":[1,0],"request":1,"lost":1}]}],"expanded":0}`)))
	assert.Equal(t, uint8(1), pq.State().Queued[0].Requests[0].Lost)
}
