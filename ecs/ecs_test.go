package ecs

import (
	"math"
	"slices"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type hp struct{ v int }

func TestClockSystemAdvancesWithoutDrift(t *testing.T) {
	w := arche.NewWorld()
	cs := NewClockSystem(0.1)
	cs.Initialize(&w)
	c := ClockOf(&w)
	var times []float64
	for range 3 {
		cs.Update(&w)
		times = append(times, c.Time)
	}
	assert.Equal(t, []float64{0, 0.1, 0.2}, times)
	assert.Equal(t, int64(2), c.Frame)
	for range 9997 {
		cs.Update(&w)
	}
	assert.Equal(t, float64(9999)*0.1, c.Time, "time is Frame·DT, not a running sum")
	assert.InDelta(t, 999.9, c.Time, 1e-9)
	assert.Same(t, c, ClockOf(&w), "ClockOf returns the existing resource")
}

// removeDead removes, through Commands, every entity whose hp is 0, while its
// query is open.
type removeDead struct {
	cmds   Commands
	filter *generic.Filter1[hp]
}

func (s *removeDead) Initialize(w *arche.World) { s.filter = generic.NewFilter1[hp]() }
func (s *removeDead) Update(w *arche.World) {
	q := s.filter.Query(w)
	for q.Next() {
		if q.Get().v == 0 {
			s.cmds.RemoveEntity(q.Entity())
			s.cmds.RemoveEntity(q.Entity()) // twice: the second is skipped
		}
	}
	s.cmds.Apply(w)
}
func (s *removeDead) Finalize(w *arche.World) {}

func TestCommandsDeferStructuralChanges(t *testing.T) {
	w := arche.NewWorld()
	m := generic.NewMap1[hp](&w)
	alive := m.NewWith(&hp{v: 3})
	dead := m.NewWith(&hp{v: 0})
	sys := &removeDead{}
	spawned := 0
	sys.Initialize(&w)
	sys.cmds.Run(func(w *arche.World) { spawned++ })
	require.Equal(t, 1, sys.cmds.Len())
	sys.Update(&w)
	assert.True(t, w.Alive(alive))
	assert.False(t, w.Alive(dead))
	assert.Equal(t, 1, spawned)
	assert.Equal(t, 0, sys.cmds.Len())

	// Apply with an open query is a programming error and says so.
	q := generic.NewFilter1[hp]().Query(&w)
	sys.cmds.RemoveEntity(alive)
	assert.Panics(t, func() { sys.cmds.Apply(&w) })
	q.Close()
	sys.cmds.Apply(&w)
	assert.False(t, w.Alive(alive))
}

type counter struct {
	name      string
	log       *[]string
	updates   int
	finalized bool
}

func (c *counter) Name() string              { return c.name }
func (c *counter) Initialize(w *arche.World) { *c.log = append(*c.log, "init "+c.name) }
func (c *counter) Update(w *arche.World)     { c.updates++; *c.log = append(*c.log, c.name) }
func (c *counter) Finalize(w *arche.World)   { c.finalized = true }

func TestSchedulerRunsInOrderAndTimes(t *testing.T) {
	w := arche.NewWorld()
	var log []string
	a, b := &counter{name: "a", log: &log}, &counter{name: "b", log: &log}
	s := NewScheduler(NewClockSystem(0.5), a, b)
	s.Initialize(&w)
	s.Run(&w, 2)
	s.Finalize(&w)
	assert.Equal(t, []string{"init a", "init b", "a", "b", "a", "b"}, log)
	assert.Equal(t, 2, s.Frames())
	assert.True(t, a.finalized && b.finalized)
	times := s.Times()
	require.Len(t, times, 3)
	assert.Equal(t, "clock", times[0].Name)
	assert.Equal(t, "b", times[2].Name)
	assert.Equal(t, 0.5, ClockOf(&w).Time)
}

type sumJob struct {
	in   []int
	out  []int
	seen [][3]int // worker, lo, hi of each call
	mu   chan struct{}
}

func (j *sumJob) Work(worker, lo, hi int) {
	for i := lo; i < hi; i++ {
		j.out[i] = j.in[i] * 2
	}
	<-j.mu
	j.seen = append(j.seen, [3]int{worker, lo, hi})
	j.mu <- struct{}{}
}

func TestWorkersSplitContiguouslyAndCoverEverything(t *testing.T) {
	for _, n := range []int{1, 2, 3, 8} {
		w := NewWorkers(n)
		require.Equal(t, n, w.N())
		j := &sumJob{in: make([]int, 1001), out: make([]int, 1001), mu: make(chan struct{}, 1)}
		j.mu <- struct{}{}
		for i := range j.in {
			j.in[i] = i
		}
		w.Run(j, len(j.in))
		for i, v := range j.out {
			require.Equal(t, 2*i, v)
		}
		// one call per worker; worker k gets [k·1001/n, (k+1)·1001/n), so the chunks
		// follow each other in worker order with no gap or overlap
		require.Len(t, j.seen, n)
		slices.SortFunc(j.seen, func(a, b [3]int) int { return a[0] - b[0] })
		next := 0
		for k, r := range j.seen {
			assert.Equal(t, k, r[0], "worker ids 0..%d, once each", n-1)
			assert.Equal(t, next, r[1], "worker %d starts where worker %d stopped", k, k-1)
			assert.Equal(t, (k+1)*1001/n, r[2], "worker %d's end", k)
			assert.Less(t, r[1], r[2], "worker %d gets a non-empty chunk", k)
			next = r[2]
		}
		assert.Equal(t, 1001, next)
		w.Run(j, 0) // nothing to do
		assert.Len(t, j.seen, n, "Run with n = 0 calls no worker")
		allocs := testing.AllocsPerRun(50, func() { w.Run(j, 10); j.seen = j.seen[:0] })
		assert.Zero(t, allocs)
		w.Close()
	}
}

func TestCommandsQueuedWhileApplyingAreApplied(t *testing.T) {
	w := arche.NewWorld()
	m := generic.NewMap1[hp](&w)
	var c Commands
	var spawned arche.Entity
	c.Run(func(w *arche.World) {
		spawned = m.NewWith(&hp{v: 1})
		c.Run(func(w *arche.World) { m.Get(spawned).v = 7 }) // configure after spawning
	})
	c.Apply(&w)
	require.True(t, w.Alive(spawned))
	assert.Equal(t, 7, m.Get(spawned).v)
	assert.Zero(t, c.Len())
}

func TestClockResumesAndRejectsBadDT(t *testing.T) {
	w := arche.NewWorld()
	a := NewClockSystem(0.1)
	a.Initialize(&w)
	a.Update(&w)
	a.Update(&w) // frames 0 and 1 ran
	b := NewClockSystem(0.1)
	b.Initialize(&w) // a resumed run continues with frame 2
	b.Update(&w)
	c := ClockOf(&w)
	assert.Equal(t, int64(2), c.Frame)
	assert.InDelta(t, 0.2, c.Time, 1e-12)

	for _, bad := range []float64{math.NaN(), math.Inf(1), -1, 0} {
		w2 := arche.NewWorld()
		err := NewScheduler(NewClockSystem(bad)).InitializeChecked(&w2)
		assert.ErrorIs(t, err, ErrDT, "dt %v is refused at Initialize (see TestAClockStepCheckDTRejectsIsASetupError)", bad)
		s := NewClockSystem(0.5)
		s.Initialize(&w2)
		s.DT = bad // set between frames: that frame steps 1/60
		s.Update(&w2)
		s.Update(&w2)
		assert.InDelta(t, 1.0/60, ClockOf(&w2).Time, 1e-12, "dt %v falls back to 1/60", bad)
	}
	assert.Nil(t, Resource[hp](&w), "a missing resource is nil, not a panic")
}
