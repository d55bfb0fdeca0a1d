package ecs

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// squareJob writes i² to out[i]; with inner set, each chunk also runs inner
// over its own range (a Run from inside a Work).
type squareJob struct {
	out   []int
	inner []*Workers // per worker: a pool of its own (a pool serves one goroutine at a time)
	calls []int      // per worker: chunks run
}

func (j *squareJob) Work(worker, lo, hi int) {
	j.calls[worker]++
	if j.inner != nil {
		in := j.inner[worker]
		sub := &squareJob{out: j.out[lo:hi], calls: make([]int, in.N())}
		in.Run(sub, hi-lo)
		for i := lo; i < hi; i++ {
			j.out[i] += lo*lo + 2*lo*(i-lo) // (lo+d)² = d² + 2·lo·d + lo²
		}
		return
	}
	for i := lo; i < hi; i++ {
		j.out[i] = i * i
	}
}

// Pools used at once from several goroutines, and a Run inside a Work, share
// the crew of helpers: every chunk runs exactly once and every item is right.
func TestWorkersSharedByConcurrentAndNestedRuns(t *testing.T) {
	var wg sync.WaitGroup
	errs := make([]int, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outer := NewWorkers(3)
			defer outer.Close()
			inner := []*Workers{NewWorkers(2), NewWorkers(2), NewWorkers(2)}
			for _, w := range inner {
				defer w.Close()
			}
			for round := range 200 {
				n := 1 + (round*37+g)%500
				j := &squareJob{out: make([]int, n), calls: make([]int, 3)}
				if round%2 == 1 {
					j.inner = inner
				}
				outer.Run(j, n)
				for i, v := range j.out {
					if v != i*i {
						errs[g]++
					}
				}
				for _, c := range j.calls {
					if c != 1 {
						errs[g]++
					}
				}
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, []int{0, 0, 0, 0}, errs, "wrong items or chunks not run exactly once")
}

// The crew grows to the largest pool's n−1 helpers and stops when the last
// pool is closed.
func TestWorkersCrewStopsWhenEveryPoolIsClosed(t *testing.T) {
	a, b := NewWorkers(2), NewWorkers(4)
	crew.mu.Lock()
	want := crew.want
	crew.mu.Unlock()
	assert.GreaterOrEqual(t, want, 3)
	j := &squareJob{out: make([]int, 100), calls: make([]int, 4)}
	b.Run(j, 100)
	a.Close()
	b.Close()
	require.Eventually(t, func() bool {
		crew.mu.Lock()
		defer crew.mu.Unlock()
		return crew.running == 0 || crew.pools > 0 // another test's pool keeps them
	}, 5e9, 1e6)
	assert.Panics(t, func() { b.Run(j, 1) }, "Run after Close")
}

// A second Close of a pool is not counted again: the crew still knows the other open
// pools (a double count would stop their helpers, or a missing one keep them for good).
func TestWorkersCloseTwiceCountsOnce(t *testing.T) {
	pools := func() int {
		crew.mu.Lock()
		defer crew.mu.Unlock()
		return crew.pools
	}
	before := pools()
	keep := NewWorkers(2)
	a := NewWorkers(3)
	assert.Equal(t, before+2, pools())
	a.Close()
	a.Close()
	assert.Equal(t, before+1, pools(), "keep is still open")
	j := &squareJob{out: make([]int, 10), calls: make([]int, 2)}
	keep.Run(j, 10)
	assert.Equal(t, 81, j.out[9])
	keep.Close()
	assert.Equal(t, before, pools())
}

// A pool asked for more than MaxWorkers workers has MaxWorkers (ten million used to
// start as many goroutines and run out of memory), and still runs every chunk.
func TestWorkersAtMostMaxWorkers(t *testing.T) {
	p := NewWorkers(10_000_000)
	defer p.Close()
	assert.Equal(t, MaxWorkers, p.N())
	assert.Less(t, runtime.NumGoroutine(), 2*MaxWorkers+100, "at most MaxWorkers−1 helpers")
	j := &squareJob{out: make([]int, 3000), calls: make([]int, MaxWorkers)}
	p.Run(j, 3000)
	assert.Equal(t, 2999*2999, j.out[2999])
	assert.Equal(t, 1, j.calls[MaxWorkers-1], "the last chunk ran once")
}

// panicJob panics in the chunks listed in bad, and counts the chunks run.
type panicJob struct {
	bad     map[int]bool
	ran     [8]atomic.Int32
	started atomic.Int32 // chunks started in this run
}

func (j *panicJob) Work(worker, lo, hi int) {
	j.ran[worker].Add(1)
	j.started.Add(1)
	// until the 4 chunks have started (or a second): on 4 goroutines, so that a
	// helper's chunk panics too
	for t0 := time.Now(); j.started.Load() < 4 && time.Since(t0) < time.Second; {
		runtime.Gosched()
	}
	if j.bad[worker] {
		panic(fmt.Sprintf("chunk %d", worker))
	}
}

// A chunk's panic reaches Run's caller, on whichever goroutine it ran, and the pool
// stays usable: the next Run runs every chunk once.
func TestWorkersRaiseAChunksPanicOnTheCaller(t *testing.T) {
	p := NewWorkers(4)
	defer p.Close()
	for _, bad := range []int{0, 1, 3} {
		j := &panicJob{bad: map[int]bool{bad: true}}
		func() {
			defer func() {
				assert.Equal(t, fmt.Sprintf("chunk %d", bad), recover())
			}()
			p.Run(j, 400)
			t.Error("no panic")
		}()
		ok := &panicJob{}
		for range 50 {
			ok.started.Store(0)
			p.Run(ok, 400)
		}
		for k := range 4 {
			assert.Equal(t, int32(50), ok.ran[k].Load(), "chunk %d after a panic in chunk %d", k, bad)
		}
	}
}

// The crew spins long (spinLong) only while its spinning threads keep their
// CPUs: calmAfter spins in a row without a gap make it calm, one spin that
// sees its thread off its CPU for preemptGap ends the calm at once, and the
// count starts again from there.
func TestHelpersSpinLongOnlyWhileCalm(t *testing.T) {
	h := newHelpers()
	h.roomy.Store(true) // as open makes it for a pool of at most GOMAXPROCS workers
	clean := func(k int) {
		for range k {
			sp := h.startSpin()
			sp.last = sp.last.Add(time.Hour) // no preemption of the test's own thread counts
			h.endSpin(&sp)
		}
	}
	clean(calmAfter - 1)
	sp := h.startSpin()
	assert.Equal(t, spinFor, sp.limit, "not calm before calmAfter clean spins")
	sp.last = sp.last.Add(time.Hour)
	h.endSpin(&sp)
	sp = h.startSpin()
	assert.Equal(t, spinLong, sp.limit, "calm after calmAfter clean spins")

	// time up: the spin is over, the crew still calm (last is moved ahead
	// before each look, so that a preemption of the test's own thread
	// between two statements cannot count as the spin's)
	sp.t0 = sp.t0.Add(-spinLong - time.Millisecond)
	sp.last = sp.last.Add(time.Hour)
	assert.True(t, h.spinOver(&sp))
	sp.last = sp.last.Add(time.Hour)
	h.endSpin(&sp)
	assert.True(t, h.calm.Load())

	// the thread was away longer than preemptGap between two looks
	sp = h.startSpin()
	sp.last = sp.last.Add(-2 * preemptGap)
	assert.True(t, h.spinOver(&sp), "a spin whose thread lost its CPU ends")
	h.endSpin(&sp)
	assert.Equal(t, spinFor, h.startSpin().limit, "no longer calm")
	clean(calmAfter - 1)
	assert.Equal(t, spinFor, h.startSpin().limit, "the count started again")
	clean(1)
	assert.Equal(t, spinLong, h.startSpin().limit)
}

// A spin whose thread was off its CPU after its last look at the clock, and
// that found its run published (or its chunks done) when it got the CPU
// back, ends without another look in spinOver: endSpin must still see the
// gap and end the calm, else on a loaded machine, where that is how most
// preempted spins end, the crew stayed calm and spun spinLong.
func TestHelpersSpinEndingAfterALostCPUEndsTheCalm(t *testing.T) {
	h := newHelpers()
	h.roomy.Store(true)
	for range calmAfter {
		sp := h.startSpin()
		sp.last = sp.last.Add(time.Hour) // no preemption of the test's own thread counts
		h.endSpin(&sp)
	}
	require.True(t, h.calm.Load())
	sp := h.startSpin()
	sp.last = sp.last.Add(-2 * preemptGap) // off its CPU since its last look
	h.endSpin(&sp)                         // the loop ended on its condition
	assert.False(t, h.calm.Load(), "a spin that lost its CPU ends the calm")
	assert.Equal(t, spinFor, h.startSpin().limit)
	assert.Equal(t, int32(0), h.clean.Load(), "the count starts again")
}

// Several pools run at once from their own goroutines, the crew spinning
// between runs (calm or not); once the last is closed every helper
// goroutine ends, whatever it was doing (spinning, blocked, between the
// two), and a pool opened afterwards gets a working crew again.
func TestWorkersHelpersEndAfterTheLastClose(t *testing.T) {
	running := func() int {
		crew.mu.Lock()
		defer crew.mu.Unlock()
		return crew.running
	}
	settle := func() {
		for i := 0; running() > 0 && i < 5000; i++ {
			time.Sleep(time.Millisecond)
		}
	}
	settle() // the helpers of other tests' pools
	require.Equal(t, 0, running(), "no pool of another test left open")
	for round := range 3 {
		if round == 1 {
			crew.calm.Store(true) // helpers spin spinLong between runs
		}
		var wg sync.WaitGroup
		for _, n := range []int{2, 4, 3} {
			p := NewWorkers(n)
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer p.Close()
				j := &squareJob{out: make([]int, 64), calls: make([]int, n)}
				for range 200 {
					p.Run(j, 64)
				}
				assert.Equal(t, 63*63, j.out[63])
			}()
		}
		wg.Wait()
		settle()
		require.Equal(t, 0, running(), "round %d: every helper ended", round)
	}
}

// Helpers as many as GOMAXPROCS or more (a pool of more workers than Ps)
// could, all spinning, hold every P while a caller's goroutine waits to run,
// and no thread loses its CPU, so calm cannot see it: such a crew spins only
// spinFor, calm or not. A crew that leaves a P free spins spinLong when calm.
func TestHelpersSpinShortWhenTheyCouldHoldEveryP(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	for _, tc := range []struct {
		extra int
		long  bool
	}{{procs - 1, true}, {procs, false}, {procs + 3, false}} {
		h := newHelpers()
		h.open(tc.extra)
		h.calm.Store(true)
		want := spinFor
		if tc.long {
			want = spinLong
		}
		assert.Equal(t, want, h.startSpin().limit, "%d helpers, GOMAXPROCS %d", tc.extra, procs)
		h.close()
	}
}

// gateJob is a job whose chunk 0 closes ran0 as it starts, then waits for
// release; each chunk counts its runs.
type gateJob struct {
	ran0, release chan struct{}
	ran           [4]atomic.Int32
	items         [4][2]int
}

func (j *gateJob) Work(worker, lo, hi int) {
	j.ran[worker].Add(1)
	j.items[worker] = [2]int{lo, hi}
	if worker == 0 && j.ran0 != nil {
		close(j.ran0)
		<-j.release
	}
}

// Start returns before any chunk has run on the calling goroutine: a helper
// runs chunk 0 while the caller is away (here blocked until chunk 0 has
// started), and Wait runs the rest; every chunk runs once over Run's ranges.
// With one worker, Wait runs the job.
func TestWorkersStartRunsBesideTheCaller(t *testing.T) {
	p := NewWorkers(3)
	defer p.Close()
	for range 20 {
		j := &gateJob{ran0: make(chan struct{}), release: make(chan struct{})}
		p.Start(j, 10)
		select {
		case <-j.ran0: // a helper took chunk 0 while this goroutine waited here
		case <-time.After(20 * time.Second):
			t.Fatal("no helper ran chunk 0 of a started run")
		}
		close(j.release)
		p.Wait()
		for k := range 3 {
			assert.Equal(t, int32(1), j.ran[k].Load(), "chunk %d", k)
		}
		assert.Equal(t, [4][2]int{{0, 3}, {3, 6}, {6, 10}}, j.items)
	}
	one := NewWorkers(1)
	defer one.Close()
	j := &gateJob{}
	one.Start(j, 5)
	assert.Equal(t, int32(0), j.ran[0].Load(), "a 1-worker Start runs nothing yet")
	one.Wait()
	assert.Equal(t, int32(1), j.ran[0].Load())
	assert.Equal(t, [2]int{0, 5}, j.items[0])
	one.Wait() // nothing started: nothing to do
	assert.Equal(t, int32(1), j.ran[0].Load())
}

// Wait raises a started run's panic on its caller, and a Run or a Start while
// a started run is not waited for panics; Close waits for a started run.
func TestWorkersStartMisuse(t *testing.T) {
	p := NewWorkers(2)
	defer p.Close()
	p.Start(&failJob{bad: 1}, 100)
	assert.PanicsWithValue(t, "chunk 1", p.Wait)
	ok := &failJob{bad: -1}
	p.Start(ok, 100)
	assert.Panics(t, func() { p.Run(ok, 100) }, "Run before Wait")
	assert.Panics(t, func() { p.Start(ok, 100) }, "Start before Wait")
	p.Wait()
	assert.Equal(t, int32(1), ok.ran[0].Load())
	assert.Equal(t, int32(1), ok.ran[1].Load())
	q := NewWorkers(2)
	j := &gateJob{}
	q.Start(j, 8)
	q.Close()
	assert.Equal(t, int32(1), j.ran[0].Load(), "Close waited for the started run")
	assert.Equal(t, int32(1), j.ran[1].Load(), "Close waited for the started run")
}

// failJob panics in chunk bad.
type failJob struct {
	bad int
	ran [4]atomic.Int32
}

func (j *failJob) Work(worker, lo, hi int) {
	j.ran[worker].Add(1)
	if worker == j.bad {
		panic(fmt.Sprintf("chunk %d", worker))
	}
}

// A helper that ran a chunk of a started run watches for the caller's Wait
// (helpers.stay) and claims a run published meanwhile, by this pool after
// Wait or by another pool before it: every chunk of every run still runs
// exactly once over the right items.
func TestWorkersStartedRunsThenRuns(t *testing.T) {
	a, b := NewWorkers(2), NewWorkers(3)
	defer a.Close()
	defer b.Close()
	errs := 0
	for round := range 300 {
		n := 1 + round%97
		started := &squareJob{out: make([]int, n), calls: make([]int, 2)}
		a.Start(started, n)
		if round%3 == 0 { // another pool's run while the started one is away
			j := &squareJob{out: make([]int, n), calls: make([]int, 3)}
			b.Run(j, n)
			errs += badSquares(j)
		}
		a.Wait()
		errs += badSquares(started)
		j := &squareJob{out: make([]int, n), calls: make([]int, 2)}
		a.Run(j, n) // right after Wait: the helper is most likely staying
		errs += badSquares(j)
	}
	assert.Zero(t, errs, "wrong items or chunks not run exactly once")
}

// badSquares counts j's wrong items and chunks not run exactly once.
func badSquares(j *squareJob) int {
	bad := 0
	for i, v := range j.out {
		if v != i*i {
			bad++
		}
	}
	for _, c := range j.calls {
		if c != 1 {
			bad++
		}
	}
	return bad
}
