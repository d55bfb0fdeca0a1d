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

// BenchmarkUpdateDecisions measures the viewer's Update, per frame, with a snapshot
// every frame, following a villager on a state machine with trees inside its states
// or a wolf deciding by utility (its inputs traced), on the two-agent world of the
// decision tests; each op also runs the clock, FSM and Utility systems (as
// BenchmarkFrame, the frame whole: read the difference between the two).
func BenchmarkUpdateDecisions(b *testing.B) {
	for _, who := range []string{"none", "villager", "wolf"} {
		b.Run(who, func(b *testing.B) {
			dw := newDecideWorld(b, true)
			dw.run(1)
			switch who {
			case "villager":
				dw.v.Select(dw.villager.ID())
			case "wolf":
				dw.v.Select(dw.wolf.ID())
			}
			dw.run(40) // past the log's growth of the first seconds
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				dw.sched.Update(dw.w)
			}
		})
	}
}
