package systems_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
)

// newAvoidCrowd is newCrowd's guard-like crowd with ORCA instead of
// separation (Motion.Avoid = AvoidORCA, the Avoider defaults), and its frame's
// systems with ORCA between Steer and Movement.
func newAvoidCrowd(tb testing.TB, n int, seed uint64, workers int) (*crowd, *systems.ORCA, []ecs.System) {
	tb.Helper()
	c := newCrowdAvoiding(tb, n, seed, workers, false, systems.AvoidORCA)
	return c, c.ORCA, c.systems()
}

// BenchmarkAvoidance times local avoidance per agent on the guard-like crowd
// (2 workers on this machine): "orca" is the ORCA system alone (the Avoider
// bundle's defaults: 10 neighbours within 5 cells, horizons 2 s and 1 s),
// "separation" the Steer system of the same crowd with separation instead
// (Steer's whole job, separation included: the force it replaces).
func BenchmarkAvoidance(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(fmt.Sprintf("orca/agents=%d", n), func(b *testing.B) {
			c, o, sys := newAvoidCrowd(b, n, 1, 0)
			s := ecs.NewScheduler(sys...)
			s.Initialize(c.World)
			defer s.Finalize(c.World)
			s.Run(c.World, 120)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				c.Clock.Update(c.World)
				o.Update(c.World)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/agent")
		})
		b.Run(fmt.Sprintf("separation/agents=%d", n), func(b *testing.B) {
			c, s := warmGuards(b, n, 120)
			defer s.Finalize(c.World)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				c.Clock.Update(c.World)
				c.Steer.Update(c.World)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/agent")
		})
	}
}
