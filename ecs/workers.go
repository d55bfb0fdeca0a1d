package ecs

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Job is work on a range of items, split by [Workers.Run] into contiguous
// chunks. Work is called once per chunk with the chunk's number (0 to
// Workers.N()−1, the "worker") and the half-open range [lo, hi) it owns.
//
// Important: Work runs on several goroutines at once. It must not touch an
// Arche World except to read it, and must write only the items in its own
// range (or per-worker buffers indexed by worker). Which goroutine runs a
// chunk is not fixed (the calling goroutine runs any chunk no helper has
// taken), only that chunk k is Work(k, …) and runs exactly once per Run.
type Job interface {
	Work(worker, lo, hi int)
}

// Workers splits data-parallel work into N contiguous chunks and runs them on
// the calling goroutine and a crew of helper goroutines shared by every open
// pool of the process. Run splits n items into N chunks in order, so chunk k
// always holds the same items for a given n and N, and per-worker results
// merged in worker order come out in item order, whatever the scheduling.
// Running a Job allocates nothing.
//
// The hand-off is cheap and safe when the machine is oversubscribed: the
// calling goroutine publishes the job and runs chunks itself, claiming every
// chunk that no helper has claimed yet, so it never waits for a helper that
// has not started; it waits only for chunks already under way. A helper that
// finishes a chunk watches for the next job for a bounded time before it
// blocks, and so does the caller waiting for a helper's chunk: no goroutine
// spins unbounded. The bound is spinLong, longer than most stretches of
// serial work between two passes of a frame, while the machine has CPUs to
// spare, and spinFor once a spinning thread has been seen losing its CPU
// (see helpers.calm).
//
// The zero value is not usable; make one with [NewWorkers] and Close it when
// done. A Workers value must be used from one goroutine at a time; several
// Workers values may run at once from different goroutines.
type Workers struct {
	n int

	started bool        // Start began a run that Wait has not finished
	async   bool        // the run under way was started by Start (its helpers stay, see helpers.stay)
	waiting atomic.Bool // Wait was called for the run under way

	// the run under way
	job   Job
	items int
	next  atomic.Int32               // the next chunk to claim
	state atomic.Uint32              // chunks finished (low bits) | parkedBit
	fin   chan struct{}              // the helper that finishes the last chunk wakes a parked caller
	fault atomic.Pointer[chunkPanic] // the first panic of a helper's chunk in this run
}

// chunkPanic is the value a chunk panicked with.
type chunkPanic struct{ v any }

// parkedBit in Workers.state: the caller is blocked on fin.
const parkedBit = 1 << 31

// MaxWorkers is the most workers a pool has: [NewWorkers] takes a larger n as
// MaxWorkers. More goroutines than cores only add hand-offs; 1024 is more than
// the cores of any machine a crowd runs on.
const MaxWorkers = 1024

// spinFor and spinLong bound how long an idle helper watches for a new
// job, and a caller for its helpers' chunks, before blocking: spinLong while
// the crew is calm (see helpers.calm), else spinFor.
//
// A blocked helper joins the next run late. Readied by the caller's
// goroutine, it waits in that goroutine's P (its runnext slot), and another P
// takes it from there only after a pause of the runtime's (usleep(3), which
// the kernel's timer slack, 50 µs by default, stretches): on a 2-core Linux
// VM it joined about 100 µs after the publication, as long as most passes of
// a 10,000-agent frame, which the caller then ran alone. Between two passes
// of a frame the caller works alone for up to a few hundred µs at 10,000
// agents (a serial sort, the path queue, combat): a helper that spins through
// these stretches joins the next pass at once, and blocks only after the
// frame's last pass. Spinning costs the CPU it holds: when the machine has
// more runnable threads than CPUs, a spinner takes time from them, and from
// the pool's own threads if they share its CPU, so the crew then spins only
// spinFor.
const (
	spinFor  = 50 * time.Microsecond
	spinLong = 300 * time.Microsecond
)

// preemptGap is the least time between two looks at the clock of a spinning
// goroutine (some 256 rounds of an atomic load apart, a µs or less) that
// counts as its thread having been off its CPU.
const preemptGap = 200 * time.Microsecond

// calmAfter is the number of spins in a row in which no spinning thread lost
// its CPU after which the crew is calm again.
const calmAfter = 64

// NewWorkers makes a pool of n workers; n ≤ 0 means runtime.GOMAXPROCS(0), and
// n over [MaxWorkers] means MaxWorkers (a Workers setting of ten million
// started as many goroutines and ran out of memory).
// Worker 0 is the calling goroutine; the shared crew grows to n−1 helpers if
// it has fewer, so a pool of 1 starts no goroutine. The crew's goroutines
// stop when the last open pool is closed.
func NewWorkers(n int) *Workers {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	n = min(n, MaxWorkers)
	w := &Workers{n: n}
	if n > 1 {
		w.fin = make(chan struct{}, 1)
		crew.open(n - 1)
	}
	return w
}

// N returns the number of workers.
func (w *Workers) N() int { return w.n }

// Run calls job.Work on N contiguous chunks of [0, n) in parallel and returns
// when all are done. Chunk k is [k·n/N, (k+1)·n/N). With n = 0 it does nothing.
//
// Panics if the pool was closed. If a chunk panics, Run still waits for the
// helpers' chunks (the calling goroutine skips the chunks it has not started),
// then panics on the calling goroutine with the value of a chunk's panic (the
// caller's own first, else a helper's; a helper's stack is not kept), so the
// caller can recover it and the pool stays usable.
func (w *Workers) Run(job Job, n int) {
	if w.n == 0 {
		panic("ecs: Workers.Run after Close (a system was updated after Finalize)")
	}
	if w.started {
		panic("ecs: Workers.Run while a started run is not waited for (call Wait first)")
	}
	if n <= 0 {
		return
	}
	if w.n == 1 {
		job.Work(0, 0, n)
		return
	}
	w.publish(job, n, false)
	w.finish()
}

// Start begins a run of job over n items as [Workers.Run] does, but returns at
// once: the helpers claim chunks as they come to them, in chunk order, and the
// calling goroutine runs none until [Workers.Wait]. In between, the calling
// goroutine is free for other work (a system that touches nothing the job
// touches); results are the same as Run's, whichever goroutine ends up
// running a chunk. With one worker, or when no helper came, Wait runs the
// chunks on the calling goroutine. Starting a run allocates nothing.
//
// Panics: if the pool was closed, or a started run was not waited for (Run and
// Start both panic then). A chunk's panic is raised by Wait.
func (w *Workers) Start(job Job, n int) {
	if w.n == 0 {
		panic("ecs: Workers.Start after Close (a system was updated after Finalize)")
	}
	if w.started {
		panic("ecs: Workers.Start while a started run is not waited for (call Wait first)")
	}
	if n <= 0 {
		return
	}
	w.started = true
	if w.n == 1 {
		w.job, w.items = job, n
		return
	}
	w.publish(job, n, true)
}

// Wait finishes the run [Workers.Start] began: the calling goroutine runs the
// chunks no helper has claimed and returns when every chunk is done; it panics
// as Run does if a chunk panicked. Without a started run it does nothing.
func (w *Workers) Wait() {
	if !w.started {
		return
	}
	w.started = false
	if w.n == 1 {
		job, n := w.job, w.items
		w.job = nil
		job.Work(0, 0, n)
		return
	}
	w.waiting.Store(true)
	w.finish()
}

// publish makes job's chunks over n items claimable by the crew; async tells a
// run of Start's.
func (w *Workers) publish(job Job, n int, async bool) {
	w.job, w.items, w.async = job, n, async
	w.waiting.Store(false)
	w.next.Store(0)
	w.state.Store(0)
	crew.publish(w)
}

// finish runs the published run's unclaimed chunks on the calling goroutine,
// waits for the helpers' and raises a chunk's panic.
func (w *Workers) finish() {
	chunks := uint32(w.n)
	mine, fault := w.claim(chunks)
	crew.withdraw(w)
	if w.state.Add(mine) != chunks {
		w.wait(chunks)
	}
	w.job = nil
	if fault != nil {
		w.fault.Store(nil)
		panic(fault.v)
	}
	if f := w.fault.Swap(nil); f != nil {
		panic(f.v)
	}
}

// claim runs the chunks of the run under way that no helper has claimed, on the
// calling goroutine, and returns how many it claimed. If one panics, it claims
// the rest without running them and returns the panic.
func (w *Workers) claim(chunks uint32) (mine uint32, fault *chunkPanic) {
	defer func() {
		if r := recover(); r != nil {
			fault = &chunkPanic{r}
			mine++ // the chunk that panicked
			for w.next.Add(1)-1 < int32(chunks) {
				mine++
			}
		}
	}()
	for {
		k := w.next.Add(1) - 1
		if k >= int32(chunks) {
			return mine, nil
		}
		w.work(int(k))
		mine++
	}
}

// workRecover is work on a helper: a panic is kept for Run to raise on its
// caller's goroutine (the other chunks still run: each must be counted done).
func (w *Workers) workRecover(k int) {
	defer func() {
		if r := recover(); r != nil {
			w.fault.CompareAndSwap(nil, &chunkPanic{r})
		}
	}()
	w.work(k)
}

// work runs chunk k of the run under way.
func (w *Workers) work(k int) {
	w.job.Work(k, k*w.items/w.n, (k+1)*w.items/w.n)
}

// wait returns once the helpers have finished their chunks: it spins for
// up to spinLong or spinFor (see helpers.calm), then blocks until the helper
// that finishes the last chunk wakes it.
func (w *Workers) wait(chunks uint32) {
	if !crew.single.Load() {
		sp := crew.startSpin()
		for i := 0; w.state.Load() != chunks; i++ {
			if i&255 == 255 && crew.spinOver(&sp) {
				break
			}
		}
		crew.endSpin(&sp)
	}
	for {
		s := w.state.Load()
		if s == chunks {
			return
		}
		if w.state.CompareAndSwap(s, s|parkedBit) {
			<-w.fin
			return
		}
	}
}

// Close releases the pool, after waiting for a started run (see [Workers.Wait]);
// the crew's goroutines stop when no pool is open.
// The pool must not be used afterwards. Closing a closed pool does nothing (a
// system's Initialize closes the pool of its last Initialize, which its
// Finalize may have closed already).
func (w *Workers) Close() {
	if w.started {
		w.Wait()
	}
	if w.n > 1 {
		crew.close()
	}
	w.n = 0
}

// crew is the process's helper goroutines, shared by every Workers.
var crew = newHelpers()

// helpers is a crew of goroutines that claim chunks of the published runs.
type helpers struct {
	mu       sync.Mutex
	wake     sync.Cond     // on mu: a run was published, or the crew shrinks
	active   []*Workers    // runs that may have chunks nobody has claimed
	gen      atomic.Uint32 // bumped at every publication, for spinning helpers
	sleeping int           // helpers blocked on wake
	running  int           // helper goroutines alive
	want     int           // helpers wanted: the largest n−1 of the open pools, 0 when none is
	pools    int           // open pools with n > 1
	single   atomic.Bool   // GOMAXPROCS was 1 when the last pool opened: nobody spins
	roomy    atomic.Bool   // want < GOMAXPROCS when the last pool opened: the helpers leave a P for a caller

	// calm: no spinning thread has lost its CPU in the last calmAfter
	// spins (clean counts them), so spins may last spinLong
	calm  atomic.Bool
	clean atomic.Int32
}

// spinning is the clock of a spin under way.
type spinning struct {
	t0, last time.Time
	limit    time.Duration
	lost     bool // the thread was seen off its CPU
}

// startSpin starts a spin of up to spinLong if the crew is calm and its
// helpers leave a P free for a caller (roomy: more helpers than that, all
// spinning, could keep a caller's goroutine from running without any
// thread losing its CPU, which calm cannot see), else spinFor.
func (h *helpers) startSpin() spinning {
	t := time.Now()
	sp := spinning{t0: t, last: t, limit: spinFor}
	if h.calm.Load() && h.roomy.Load() {
		sp.limit = spinLong
	}
	return sp
}

// spinOver reports whether the spin sp is over: its time is up, or its
// thread was off its CPU since the last look (preemptGap), which ends the
// crew's calm. Call it every few hundred rounds.
func (h *helpers) spinOver(sp *spinning) bool {
	now := time.Now()
	if now.Sub(sp.last) > preemptGap {
		sp.lost = true
		h.calm.Store(false)
		h.clean.Store(0)
		return true
	}
	sp.last = now
	return now.Sub(sp.t0) > sp.limit
}

// endSpin counts a spin that has ended: after calmAfter in a row whose
// threads kept their CPUs, the crew is calm. It looks at the clock once
// more: a spin that ended on its condition (a run published, the helpers'
// chunks done) fewer than 256 rounds after its last look may have lost its
// CPU in between, and found the condition met when it got the CPU back; on
// a loaded machine that is how most preempted spins end, and counting them
// clean kept the crew calm there.
func (h *helpers) endSpin(sp *spinning) {
	if !sp.lost && time.Since(sp.last) > preemptGap {
		sp.lost = true
		h.calm.Store(false)
		h.clean.Store(0)
	}
	if !sp.lost && h.clean.Add(1) >= calmAfter {
		h.calm.Store(true)
	}
}

func newHelpers() *helpers {
	h := &helpers{}
	h.wake.L = &h.mu
	return h
}

// open registers a pool that wants extra helpers and starts any missing.
func (h *helpers) open(extra int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pools++
	procs := runtime.GOMAXPROCS(0)
	h.single.Store(procs == 1)
	h.want = max(h.want, extra)
	h.roomy.Store(h.want < procs)
	for h.running < h.want {
		h.running++
		go h.help()
	}
}

// close unregisters a pool; with none left, the helpers stop.
func (h *helpers) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pools--
	if h.pools == 0 {
		h.want = 0
		h.gen.Add(1)
		h.wake.Broadcast()
	}
}

// publish makes w's chunks claimable and wakes blocked helpers for them.
func (h *helpers) publish(w *Workers) {
	h.mu.Lock()
	h.active = append(h.active, w)
	h.gen.Add(1)
	for i := min(h.sleeping, w.n-1); i > 0; i-- {
		h.wake.Signal()
	}
	h.mu.Unlock()
}

// withdraw removes w, whose chunks are all claimed, from the active runs.
func (h *helpers) withdraw(w *Workers) {
	h.mu.Lock()
	for i, a := range h.active {
		if a == w {
			last := len(h.active) - 1
			h.active[i] = h.active[last]
			h.active[last] = nil
			h.active = h.active[:last]
			break
		}
	}
	h.mu.Unlock()
}

// claimLocked claims an unclaimed chunk of an active run; h.mu is held.
func (h *helpers) claimLocked() (*Workers, int, bool) {
	for _, w := range h.active {
		if k := w.next.Add(1) - 1; k < int32(w.n) {
			return w, int(k), true
		}
	}
	return nil, 0, false
}

// help is a helper goroutine: it runs claimed chunks, watches for new runs
// for a while after each (spin), then blocks until a run is published.
func (h *helpers) help() {
	h.mu.Lock()
	for {
		if h.running > h.want {
			h.running--
			h.mu.Unlock()
			return
		}
		if w, k, ok := h.claimLocked(); ok {
			h.mu.Unlock()
			w.workRecover(k)
			chunks := uint32(w.n)
			stay := w.async // read before the chunk counts as done: w may be reused after
			if w.state.Add(1) == chunks|parkedBit {
				w.fin <- struct{}{} // w is not touched after this: its caller may return
				// the caller is ready on this P: let it run here now rather
				// than wait for another P to steal it
				runtime.Gosched()
				stay = false
			}
			if !stay || !h.stay(w) {
				h.spin()
			}
			h.mu.Lock()
			continue
		}
		h.sleeping++
		h.wake.Wait()
		h.sleeping--
	}
}

// stay is a helper's watch after a chunk of a started run (Workers.Start),
// whose caller is away doing other work: the next run is most likely
// published soon after the caller comes back to Wait, so the helper watches
// for Wait before its usual spin (which then starts there), within the same
// bounds as a spin (helpers.spinOver; a spin that loses its CPU ends the
// calm). It reports whether a run was published meanwhile (claim it now
// rather than spin for the next). w's waiting flag may belong to a later run
// of w by then: that only lengthens the watch, within its bound.
func (h *helpers) stay(w *Workers) bool {
	if h.single.Load() {
		return false
	}
	g := h.gen.Load()
	sp := h.startSpin()
	for i := 0; !w.waiting.Load(); i++ {
		if h.gen.Load() != g {
			h.endSpin(&sp)
			return true
		}
		if i&255 == 255 && h.spinOver(&sp) {
			break
		}
	}
	h.endSpin(&sp)
	return h.gen.Load() != g
}

// spin returns when a run is published, or when the spin is over (see
// helpers.spinOver).
//
// It spins on one atomic load, reading the clock every 256 rounds, and calls
// nothing that takes the scheduler's lock (runtime.Gosched or
// runtime.GOMAXPROCS would, twice a round for every spinning helper). With
// one P it returns at once: a spinning helper would hold the only P.
func (h *helpers) spin() {
	if h.single.Load() {
		return
	}
	g := h.gen.Load()
	sp := h.startSpin()
	for i := 0; h.gen.Load() == g; i++ {
		if i&255 == 255 && h.spinOver(&sp) {
			break
		}
	}
	h.endSpin(&sp)
}
