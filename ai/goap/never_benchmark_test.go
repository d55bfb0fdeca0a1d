package goap_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ai/goap"
)

// BenchmarkWhyNeverReachedFull is the dearest call that still answers: a goal never
// reached with goap.NeverReachedStates states to explore (a counter of 16384 values)
// beside 15 actions on flags the goal does not depend on, skipped. It reports the time
// per explored state.
func BenchmarkWhyNeverReachedFull(b *testing.B) {
	bd := goap.NewBuilder("counter")
	n := bd.Fact("n")
	bd.Action(goap.Action{Name: "Count", Cost: 1, Pre: []goap.Cond{{Fact: n, Op: goap.Lt, Value: goap.NeverReachedStates - 1}},
		Effects: []goap.Effect{{Fact: n, Value: 1, Add: true}}})
	for i := range 15 {
		f := bd.Fact(fmt.Sprintf("flag%d", i))
		bd.Action(goap.Action{Name: fmt.Sprintf("Set%d", i), Cost: 1, Effects: []goap.Effect{{Fact: f, Value: 1}}})
	}
	g := bd.Goal(goap.Goal{Name: "Below", Priority: 1, Want: []goap.Cond{{Fact: n, Op: goap.Eq, Value: -1}}})
	d, err := bd.Build()
	if err != nil {
		b.Fatal(err)
	}
	var s goap.State
	b.ReportAllocs()
	for b.Loop() {
		if d.WhyNeverReached(&s, g) == "" {
			b.Fatal("not explained")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/goap.NeverReachedStates, "ns/state")
}
