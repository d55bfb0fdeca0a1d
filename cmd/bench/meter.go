package main

import (
	"io"
	"os"
	"runtime"
	"time"

	"github.com/archai-go/archai/internal/parking"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/schollz/progressbar/v3"
)

// extra is what issue 15 added to a run's report: the steady-state
// allocations, the frame-time maximum, the component bytes per agent, the
// perception and search counters, and the tutorial-style comparison. It is
// embedded in report, so its JSON keys sit beside the others.
type extra struct {
	MsMax float64 `json:"ms_per_frame_max"`
	// AllocsPerFrameSteady is heap objects allocated per frame after
	// WarmupFrames frames (the first half of the run), counted exactly
	// (runtime.ReadMemStats); the progress bar's own allocations are left out.
	AllocsPerFrameSteady float64 `json:"allocs_per_frame_steady"`
	WarmupFrames         int     `json:"warmup_frames"`
	// GCCyclesSteady is the GC cycles completed in the steady state. With
	// none, nothing was allocated there (or too little to start one) and no
	// 2-minute forced collection fell in it; after one, the runtime may
	// allocate objects of its own (parking records, see parking.Prime), which
	// AllocsPerFrameSteady counts.
	GCCyclesSteady int `json:"gc_cycles_steady"`
	// ComponentBytesPerAgent is the bytes of component data in Arche's
	// columns per entity: each archetype's sum of component sizes, weighted by
	// its entities (slices and pointers count their headers, not what they
	// point to).
	ComponentBytesPerAgent float64 `json:"component_bytes_per_agent"`
	// guards: agents perceived per frame (systems.Perception.Checked) and A*
	// searches run per frame (systems.PathQueue.TotalSearches / frames), in the
	// guards' JSON even at 0 (left out of the others', see notInJSON)
	PerceivedPerFrame float64 `json:"perceived_per_frame"`
	SearchesPerFrame  float64 `json:"searches_per_frame"`

	// Tutorial is the tutorial-style run of the same guards (-tutorial), and
	// RatioTutorial its median frame time over this run's.
	Tutorial      *tutorialReport `json:"tutorial,omitempty"`
	RatioTutorial float64         `json:"ratio_tutorial,omitempty"`
}

// mallocs returns the heap objects allocated so far, exactly: it stops the
// world and flushes every P's cache (runtime.ReadMemStats, as
// testing.AllocsPerRun), where runtime/metrics counts a cache's whole span
// when it is taken. It allocates nothing.
func mallocs() uint64 {
	n, _ := memStats()
	return n
}

// memStats returns the heap objects allocated so far (as mallocs) and the
// GC cycles completed.
func memStats() (mallocs uint64, gcs uint32) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs, ms.NumGC
}

// settle collects garbage before a run's (or after a -save's) frames, so
// that garbage of the set-up does not start a collection during the frames,
// then refills the runtime's cache of parking records (primeParking), which
// the collection emptied.
func settle() {
	runtime.GC()
	parking.Prime()
}

// frameMeter watches a run's frames from outside the timed region: it counts
// the allocations of the steady state (the second half of the run), the
// frame-time maximum and the guards' perceptions, and draws the progress bar,
// leaving the bar's own allocations out of every count (excluded).
//
// The warm-up is the first half of the run and nothing else: whatever a frame
// of the second half allocates is counted, the Go runtime's own objects
// included (parking.Prime refills the one runtime cache a collection of the
// warm-up empties).
type frameMeter struct {
	frames, warm int
	progress     *progress
	warmMallocs  uint64 // at the end of the warm-up
	endMallocs   uint64 // after the last frame
	warmGC       uint32 // GC cycles completed at the end of the warm-up
	endGC        uint32 // and after the last frame
	excluded     uint64 // objects the progress bar and parking.Prime allocated
	primed       uint64 // of which parking.Prime, at the end of the warm-up
	steadyExcl   uint64 // of which after the warm-up
	msMax        float64
	perceived    int
	perc         perceiver // the scenario, if it counts perceptions (asserted at the first frame)
	asserted     bool
}

func newFrameMeter(cfg crowdConfig) *frameMeter {
	return &frameMeter{frames: cfg.Frames, warm: cfg.Frames / 2, progress: cfg.Progress}
}

// steadyWatch, if set, is called at the start (true) and end (false) of a
// run's steady state, outside the timed region: tests profile the steady
// state's allocations with it (report_steady_test.go).
var steadyWatch func(begin bool)

// perceiver is a scenario whose perception counts the agents it perceived
// in the last frame.
type perceiver interface{ perceivedLastFrame() int }

func (g guards) perceivedLastFrame() int { return g.Perception.Checked }

// frame is called after frame i (0-based), outside the timed region, with
// the frame's time in ms and the scenario (nil for the reference loop).
//
// The scenario's perceiver is asserted once, at the first frame: the runtime
// caches an interface assertion only now and then (one call in 1,024), with
// an allocation, so asserting every frame would allocate at a random frame.
func (m *frameMeter) frame(i int, ms float64, sc any) {
	m.msMax = max(m.msMax, ms)
	if !m.asserted {
		m.perc, _ = sc.(perceiver)
		m.asserted = true
	}
	if m.perc != nil {
		m.perceived += m.perc.perceivedLastFrame()
	}
	if i == m.warm-1 {
		before := mallocs()
		parking.Prime() // after any collection of the warm-up
		m.primed = mallocs() - before
		m.excluded += m.primed
		m.warmMallocs, m.warmGC = memStats()
		if steadyWatch != nil {
			steadyWatch(true)
		}
	}
	if i == m.frames-1 {
		if steadyWatch != nil && m.warm > 0 {
			steadyWatch(false)
		}
		m.endMallocs, m.endGC = memStats()
		return
	}
	if m.progress.due() {
		before := mallocs()
		m.progress.add(i + 1)
		n := mallocs() - before
		m.excluded += n
		if i >= m.warm {
			m.steadyExcl += n
		}
	}
}

// exclude leaves n objects, allocated after frame i by work that is not the
// frame's (a -save, say), out of the whole-run and steady-state counts. Call
// it before frame(i).
func (m *frameMeter) exclude(i int, n uint64) {
	m.excluded += n
	if i >= m.warm {
		m.steadyExcl += n
	}
}

// fill writes the meter's figures and the scenario's counters into rep;
// w is the run's world (nil for the reference loop).
func (m *frameMeter) fill(rep *report, sc any, w *arche.World) {
	end := m.endMallocs
	rep.MsMax, rep.WarmupFrames = m.msMax, m.warm
	if n := m.frames - m.warm; n > 0 {
		if m.warm > 0 {
			rep.GCCyclesSteady = int(m.endGC - m.warmGC)
		}
		if m.warm == 0 {
			m.warmMallocs = end // a 1-frame run has no steady state
		}
		if d := end - m.warmMallocs; d > m.steadyExcl {
			rep.AllocsPerFrameSteady = float64(d-m.steadyExcl) / float64(n)
		}
	}
	if g, ok := sc.(guards); ok {
		rep.PerceivedPerFrame = float64(m.perceived) / float64(m.frames)
		rep.SearchesPerFrame = float64(g.PathQueue.TotalSearches) / float64(m.frames)
	}
	if w != nil {
		rep.ComponentBytesPerAgent = componentBytesPerEntity(w)
	}
	m.progress.finishRun(m.frames)
}

// componentBytesPerEntity returns the bytes of component data per entity of
// w: for each archetype graph node with entities, the sum of its component
// types' sizes, weighted by its entities.
func componentBytesPerEntity(w *arche.World) float64 {
	st := w.Stats()
	bytes, n := 0, 0
	for _, node := range st.Nodes {
		if node.Size == 0 {
			continue
		}
		size := 0
		for _, t := range node.ComponentTypes {
			size += int(t.Size())
		}
		bytes += size * node.Size
		n += node.Size
	}
	if n == 0 {
		return 0
	}
	return float64(bytes) / float64(n)
}

// progress is the progress bar of a run or a sweep over frames, on stderr.
// It shows only once the work has run for showAfter, draws at most every
// 200 ms, and a nil *progress draws nothing (-quiet, -json).
type progress struct {
	w          io.Writer
	total      int64 // frames of every run
	done       int64 // frames of the finished runs
	start      time.Time
	last       time.Time
	bar        *progressbar.ProgressBar // made with the progress, so its rate counts from the start
	label      string
	drawn      bool // the bar has been drawn (add)
	finished   bool
	showAfter  time.Duration
	drawPeriod time.Duration
}

// logFile reports whether w is a file or a pipe rather than a terminal (a CI
// log, "2> run.log", "2>&1 | tee"): the progress bar, redrawn with carriage
// returns, would fill it, so a run draws none there.
func logFile(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice == 0
}

// progressAfter is how long a run or sweep goes before its progress bar
// shows (tests set 0).
var progressAfter = 2 * time.Second

func newProgress(w io.Writer, totalFrames int) *progress {
	now := time.Now()
	p := &progress{w: w, total: int64(totalFrames), start: now, last: now.Add(-time.Hour),
		showAfter: progressAfter, drawPeriod: 200 * time.Millisecond,
		// Made now, not at the first draw: the bar's frames/s is the frames done over
		// the time since its start, so a bar made at the first draw (after showAfter,
		// with thousands of frames done) would show millions of frames per second.
		// It draws nothing until add.
		bar: progressbar.NewOptions64(int64(totalFrames), progressbar.OptionSetWriter(w),
			progressbar.OptionShowCount(),
			progressbar.OptionSetItsString("frames"), progressbar.OptionShowIts(),
			progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(0),
			progressbar.OptionClearOnFinish())}
	p.bar.StartWithoutRender() // its clock starts now
	return p
}

// describe names the run under way.
func (p *progress) describe(label string) {
	if p == nil {
		return
	}
	p.label = label
	if p.drawn {
		p.bar.Describe(label)
	}
}

// due reports whether the bar should be drawn now.
func (p *progress) due() bool {
	if p == nil {
		return false
	}
	now := time.Now()
	if now.Sub(p.start) < p.showAfter || now.Sub(p.last) < p.drawPeriod {
		return false
	}
	p.last = now
	return true
}

// add draws the bar with frames of the current run done.
func (p *progress) add(frames int) {
	_ = p.bar.Set64(p.done + int64(frames))
	if !p.drawn {
		p.drawn = true
		p.bar.Describe(p.label) // draws again, with the label
	}
}

// finishRun counts a finished run's frames; the bar, if drawn, clears
// itself once every run is done.
func (p *progress) finishRun(frames int) {
	if p == nil {
		return
	}
	p.done += int64(frames)
	if p.drawn {
		_ = p.bar.Set64(p.done)
	}
}

// finish clears the bar, if it was drawn.
func (p *progress) finish() {
	if p == nil || !p.drawn || p.finished {
		return
	}
	p.finished = true
	_ = p.bar.Finish()
}
