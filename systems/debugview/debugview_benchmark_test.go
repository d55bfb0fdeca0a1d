package debugview_test

import (
	"testing"

	"github.com/archai-go/archai/systems/debugview"
)

// BenchmarkUpdate measures the viewer's Update alone, per frame, on a world
// of 15 agents: disabled (one atomic load), and enabled with a snapshot every
// 6 frames and a selected agent whose tree is traced every frame. The cost at
// 10,000 agents against a whole frame is measured by cmd/bench -debugview
// (see the README).
func BenchmarkUpdate(b *testing.B) {
	for _, bc := range []struct {
		name string
		on   bool
	}{{"disabled", false}, {"enabled", true}} {
		b.Run(bc.name, func(b *testing.B) {
			tw := newTestWorld(b, 12, 3, func(v *debugview.Viewer) { v.Every = 6 })
			tw.v.Select(tw.agents[0].ID())
			tw.run(10)
			tw.v.SetEnabled(bc.on)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				tw.v.Update(tw.w)
			}
		})
	}
}

// BenchmarkFrame measures a whole frame of the test world without the viewer
// enabled and with it, for the ratio.
func BenchmarkFrame(b *testing.B) {
	for _, bc := range []struct {
		name string
		on   bool
	}{{"disabled", false}, {"enabled", true}} {
		b.Run(bc.name, func(b *testing.B) {
			tw := newTestWorld(b, 12, 3, func(v *debugview.Viewer) { v.Every = 6 })
			tw.v.Select(tw.agents[0].ID())
			tw.run(10)
			tw.v.SetEnabled(bc.on)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				tw.sched.Update(tw.w)
			}
		})
	}
}
