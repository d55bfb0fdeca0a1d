package scenario

import (
	"io"
	"testing"
	"time"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
)

// BenchmarkGuardsDiagnose100k times one whole check of the Diagnostics system
// (Diagnostics.Check, what a Diagnostics with Spread 1 does every Every frames,
// and Diagnose) over the guard scenario at 100,000 agents (seed 3, 2 workers)
// after 120 frames, as cpu-ms per check:
//
//	go test ./cmd/bench/scenario -run '^$' -bench 'GuardsDiagnose100k$' -benchtime 20x
func BenchmarkGuardsDiagnose100k(b *testing.B) {
	g, _ := warmGuards(b, 100000, 2, 120)
	d := &systems.Diagnostics{}
	d.Initialize(g.World)
	d.Check(g.World)
	timeSteer(b, func() { d.Check(g.World) })
}

// timedDiagnostics is a Diagnostics whose Updates are timed, frame by frame, as
// the CPU time of the process's threads (threadsCPU).
type timedDiagnostics struct {
	*systems.Diagnostics
	th    threadsCPU
	worst time.Duration // the worst frame's
	at    int           // its frame in the period (0: the first)
	total time.Duration
	n     int // Updates timed
}

func (t *timedDiagnostics) Update(w *arche.World) {
	c0 := t.th.begin()
	t.Diagnostics.Update(w)
	c := t.th.end() - c0
	t.total += c
	if c > t.worst {
		t.worst, t.at = c, t.n%60
	}
	t.n++
}

// BenchmarkGuardsDiagnoseFrames100k runs the guard scenario at 100,000 agents
// (seed 3, 2 workers, warm: 60 frames) for b.N periods of 60 frames with two
// Diagnostics side by side in its schedule, timing each one's Update frame by
// frame (CPU time of the process's threads): one with Spread 1, which checks
// the whole world in the first frame of each period, and one with the default
// Spread, which spreads the check over the period's frames. It reports the
// worst frame's CPU of each (whole-worst-ms, spread-worst-ms), their ratio, and
// each one's CPU per period (whole-ms/period, spread-ms/period):
//
//	go test ./cmd/bench/scenario -run '^$' -bench 'GuardsDiagnoseFrames100k' -benchtime 3x
func BenchmarkGuardsDiagnoseFrames100k(b *testing.B) {
	g, err := NewGuards(Config{Agents: 100000, Seed: 3, Workers: 2})
	if err != nil {
		b.Fatal(err)
	}
	whole := &timedDiagnostics{Diagnostics: &systems.Diagnostics{Spread: 1, Out: io.Discard}}
	spread := &timedDiagnostics{Diagnostics: &systems.Diagnostics{Out: io.Discard}}
	sch := ecs.NewScheduler(append(g.Systems(), whole, spread)...)
	sch.Initialize(g.World)
	b.Cleanup(func() { sch.Finalize(g.World) })
	sch.Run(g.World, 60) // warm: a period, the first checks at its first frame
	*whole = timedDiagnostics{Diagnostics: whole.Diagnostics}
	*spread = timedDiagnostics{Diagnostics: spread.Diagnostics}
	b.ResetTimer()
	for b.Loop() {
		sch.Run(g.World, 60)
	}
	b.Logf("worst frames of the period: whole %d, spread %d", whole.at, spread.at)
	b.Logf("last reports: whole %d agents, %d misconfigured; spread %d agents, %d misconfigured",
		whole.Report.Agents, whole.Report.Misconfigured, spread.Report.Agents, spread.Report.Misconfigured)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(whole.worst), "whole-worst-ms")
	b.ReportMetric(ms(spread.worst), "spread-worst-ms")
	b.ReportMetric(float64(whole.worst)/float64(spread.worst), "worst-ratio")
	b.ReportMetric(ms(whole.total)/float64(b.N), "whole-ms/period")
	b.ReportMetric(ms(spread.total)/float64(b.N), "spread-ms/period")
}
