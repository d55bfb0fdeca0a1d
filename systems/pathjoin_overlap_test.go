package systems_test

import (
	"os"

	"github.com/archai-go/archai/nav/grid"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestPathJoinAfterSteerWithWideAgents (review17): Steer may run between a
// queue with Overlap and its join, and it builds the grid's clearance field on
// its first Update (grid.Clearance); a wide agent's first search builds it too,
// on the helper (grid.NewSearchOptions with Clearance > 1). The queue must build
// it before the helper starts, or the two write it at once (go test -race: DATA
// RACE on the first frame; fails without startServe's Clearance call). Also the
// crowd is that of a queue without Overlap.
func TestPathJoinAfterSteerWithWideAgents(t *testing.T) {
	run := func(workers int, overlap bool) (uint64, int64) {
		c := newCrowd(t, 300, 4, workers, false)
		kin := generic.NewFilter3[components.Kinematics, components.Path, components.Position]()
		q := kin.Query(c.World)
		i := 0
		for q.Next() {
			k, p, pos := q.Get()
			if i%3 != 2 {
				k.Radius = 0.9 // clearance 2
				// a request at the first frame, before Steer ever ran
				p.Want, p.Goal = true, c.Grid.CellAt(r2.Vec{X: float64(c.Grid.Width()) - pos.X, Y: float64(c.Grid.Height()) - pos.Y})
			}
			i++
		}
		c.PathQueue.Workers, c.PathQueue.Overlap, c.PathQueue.Budget = workers, overlap, 400
		sys := []ecs.System{c.Clock, c.Spatial, c.Perception, c.Decision, c.PathQueue, c.Steer}
		if overlap {
			sys = append(sys, c.PathQueue.Join())
		}
		s := ecs.NewScheduler(append(sys, c.Movement, c.Combat, c.Respawn, c.PathFollow)...)
		require.NotPanics(t, func() { s.Initialize(c.World) })
		defer s.Finalize(c.World)
		s.Run(c.World, 20)
		return systems.StateHash(c.World), c.PathQueue.TotalServed
	}
	want, served := run(1, false)
	require.Positive(t, served)
	got, gotServed := run(2, true)
	assert.Equal(t, want, got)
	assert.Equal(t, served, gotServed)
}

// diagnoseEvery is a user's system that calls Diagnose every frame (a debug
// overlay), here placed between a queue with Overlap and its join: Diagnose
// joins the searches, so the join that follows finds nothing to do.
type diagnoseEvery struct{ findings int }

func (d *diagnoseEvery) Initialize(w *arche.World) {}
func (d *diagnoseEvery) Update(w *arche.World) {
	r := systems.Diagnose(w)
	d.findings += r.Total()
}
func (d *diagnoseEvery) Finalize(w *arche.World) {}

// TestDiagnoseBetweenQueueAndJoin (review17): Diagnose between a queue with
// Overlap and its join (joining early), then a Finalize of the schedule right
// after a queue's Update (the join never runs that frame): the crowd, the
// totals and Diagnose's findings are those of a queue without Overlap.
func TestDiagnoseBetweenQueueAndJoin(t *testing.T) {
	type result struct {
		hash                 uint64
		served, dropped      int64
		finds                int
		pendingAfterFinalize int
	}
	run := func(workers int, overlap bool) result {
		c := newCrowd(t, 300, 7, workers, false)
		c.PathQueue.Workers, c.PathQueue.Overlap, c.PathQueue.Budget = workers, overlap, 30
		d := &diagnoseEvery{}
		sys := []ecs.System{c.Clock, c.Spatial, c.Perception, c.Decision, c.PathQueue, d, c.Combat}
		if overlap {
			sys = append(sys, c.PathQueue.Join())
		}
		s := ecs.NewScheduler(append(sys, c.Respawn, c.PathFollow, c.Steer, c.Movement)...)
		s.Initialize(c.World)
		s.Run(c.World, 40)
		for _, sy := range sys[:5] { // a last frame that stops after the queue
			sy.Update(c.World)
		}
		s.Finalize(c.World) // joins (PathQueue.Finalize and PathJoin.Finalize)
		r := result{hash: systems.StateHash(c.World), served: c.PathQueue.TotalServed,
			dropped: c.PathQueue.TotalDropped, finds: d.findings}
		q := generic.NewFilter1[components.Path]().Query(c.World)
		for q.Next() {
			if q.Get().State == components.PathPending {
				r.pendingAfterFinalize++
			}
		}
		return r
	}
	want := run(1, false)
	require.Positive(t, want.served)
	assert.Equal(t, want, run(2, true))
}

// doorToggler is a user's system that opens and closes a door cell every frame
// (grid.SetCost), misplaced between a queue with Overlap and its join.
type doorToggler struct {
	g    *grid.Grid
	door grid.Cell
	n    int
}

func (d *doorToggler) Initialize(w *arche.World) {}
func (d *doorToggler) Update(w *arche.World) {
	d.n++
	if d.n%2 == 0 {
		d.g.SetCost(d.door, grid.Blocked)
	} else {
		d.g.SetCost(d.door, 1)
	}
}
func (d *doorToggler) Finalize(w *arche.World) {}

// TestPathQueueOverlapGridEditBetween (review17): the doc says a system between
// the queue and its join must not edit the grid (the searches read it on their
// helper), but nothing checked or reported it. Now the join compares the grid's
// version with the one the searches started on, and Diagnose reports the frames
// (Report.GridEditedBeside). Here the queue takes no views before the searches
// start, so its helper stops before reading the grid and the misplaced edit races
// nothing; with ARCHAI_REVIEW17_GRIDEDIT=1 it takes them, and go test -race shows
// the race (grid.SetCost against the search's Start/sync).
func TestPathQueueOverlapGridEditBetween(t *testing.T) {
	if os.Getenv("ARCHAI_REVIEW17_GRIDEDIT") == "" {
		old := systems.SetPathViewsFor(func(int) int { return 0 })
		defer systems.SetPathViewsFor(old)
	}
	c := newCrowd(t, 300, 7, 2, false)
	c.PathQueue.Workers, c.PathQueue.Overlap, c.PathQueue.Budget = 2, true, 2000
	var door grid.Cell
	for y := range c.Grid.Height() { // an open cell in the middle of the map
		if cell := (grid.Cell{X: int32(c.Grid.Width() / 2), Y: int32(y)}); c.Grid.Passable(cell) {
			door = cell
			break
		}
	}
	s := ecs.NewScheduler(c.Clock, c.Spatial, c.Perception, c.Decision, c.PathQueue, &doorToggler{g: c.Grid, door: door},
		c.PathQueue.Join(), c.Combat, c.Respawn, c.PathFollow, c.Steer, c.Movement)
	s.Initialize(c.World)
	defer s.Finalize(c.World)
	r := systems.Diagnose(c.World)
	require.Zero(t, r.GridEditedBeside)
	s.Run(c.World, 40)
	r = systems.Diagnose(c.World)
	assert.Equal(t, 39, r.GridEditedBeside, "every frame but the first (which sets the open door open: no edit) edited the grid between the queue and its join")
	assert.Contains(t, r.String(), "grid edited between a path queue with Overlap and its PathJoin in 39 frames")

	// the same edit after the join is no finding
	c2 := newCrowd(t, 300, 7, 2, false)
	c2.PathQueue.Workers, c2.PathQueue.Overlap, c2.PathQueue.Budget = 2, true, 2000
	s2 := ecs.NewScheduler(c2.Clock, c2.Spatial, c2.Perception, c2.Decision, c2.PathQueue, c2.PathQueue.Join(),
		&doorToggler{g: c2.Grid, door: door}, c2.Combat, c2.Respawn, c2.PathFollow, c2.Steer, c2.Movement)
	s2.Initialize(c2.World)
	defer s2.Finalize(c2.World)
	s2.Run(c2.World, 40)
	r = systems.Diagnose(c2.World)
	assert.Zero(t, r.GridEditedBeside)
}

// TestPathQueueOverlapTurnedOffServesInUpdate (review17): Overlap cleared after
// Initialize (a debug frame, a settings menu) kept overlapping: Update tested the
// pool made at Initialize, not the field, so the frame's paths were still
// pending after Update. Now Update serves in place when Overlap is off.
func TestPathQueueOverlapTurnedOffServesInUpdate(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(30, 30)
	arche.AddResource(w, g)
	pq := &systems.PathQueue{Overlap: true, Workers: 2}
	s := ecs.NewScheduler(pq, pq.Join())
	s.Initialize(w)
	defer s.Finalize(w)
	m := generic.NewMap2[components.Position, components.Path](w)
	e := m.NewWith(&components.Position{Vec: r2.Vec{X: 1.5, Y: 1.5}}, &components.Path{Want: true, Goal: grid.Cell{X: 25, Y: 20}})
	pq.Overlap = false
	pq.Update(w)
	_, p := m.Get(e)
	assert.Equal(t, components.PathReady, p.State, "served in Update, as without Overlap")
	assert.Equal(t, 1, pq.Served)
}

// pathCanceller cancels every pending path request (State back to PathNone)
// each frame: run between a queue with Overlap and its join, it changes
// requests the searches answer.
type pathCanceller struct {
	filter *generic.Filter1[components.Path]
}

func (c *pathCanceller) Initialize(w *arche.World) {
	c.filter = generic.NewFilter1[components.Path]()
}
func (c *pathCanceller) Update(w *arche.World) {
	q := c.filter.Query(w)
	for q.Next() {
		if p := q.Get(); p.State == components.PathPending {
			p.State = components.PathNone
		}
	}
}
func (c *pathCanceller) Finalize(w *arche.World) {}

// TestPathQueueOverlapRequestsChangedBeside: a system between a queue with
// Overlap and its join that removes requesters or changes their requests is
// forbidden by the doc; the join drops those answers (Dropped) but nothing
// reported the misuse. Diagnose now counts them (Report.RequestsChangedBeside),
// and the same system after the join is no finding.
func TestPathQueueOverlapRequestsChangedBeside(t *testing.T) {
	run := func(between bool) (systems.Report, int64) {
		c := newCrowd(t, 300, 7, 2, false)
		c.PathQueue.Workers, c.PathQueue.Overlap, c.PathQueue.Budget = 2, true, 2000
		list := []ecs.System{c.Clock, c.Spatial, c.Perception, c.Decision, c.PathQueue}
		if between {
			list = append(list, &pathCanceller{}, c.PathQueue.Join())
		} else {
			list = append(list, c.PathQueue.Join(), &pathCanceller{})
		}
		s := ecs.NewScheduler(append(list, c.Combat, c.Respawn, c.PathFollow, c.Steer, c.Movement)...)
		s.Initialize(c.World)
		defer s.Finalize(c.World)
		s.Run(c.World, 30)
		if between {
			// the answers the join dropped were for cancelled requests (Path no longer pending)
			require.Equal(t, c.PathQueue.TotalDropped, c.PathQueue.TotalCancelled+c.PathQueue.TotalOrphaned+c.PathQueue.TotalReplaced)
			require.Positive(t, c.PathQueue.TotalCancelled)
		}
		return systems.Diagnose(c.World), c.PathQueue.TotalDropped
	}
	r, dropped := run(true)
	require.Positive(t, dropped)
	assert.Equal(t, dropped, int64(r.RequestsChangedBeside), "every answer dropped was dropped at the join for a cancelled request")
	assert.Contains(t, r.String(), "path answers dropped at a PathJoin: their requesters were removed or their requests changed between")
	assert.Positive(t, r.Total())

	r, _ = run(false)
	assert.Zero(t, r.RequestsChangedBeside)
	assert.NotContains(t, r.String(), "dropped at a PathJoin")
}
