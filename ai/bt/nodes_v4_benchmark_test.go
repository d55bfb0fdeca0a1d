package bt

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"

	"github.com/stretchr/testify/require"
)

// BenchmarkV4Nodes ticks 1024 agents through the tree of testdata/seed/v4.xml (every node
// of nodes_v4.go, a script Precondition, a Switch on a string key) and reports ns per
// agent tick and per node visited; it allocates nothing.
func BenchmarkV4Nodes(b *testing.B) {
	r := fuzzRegistry()
	tree, err := r.LoadFile("testdata/seed/v4.xml")
	require.NoError(b, err)
	alert, err := blackboard.Lookup[bool](r.Schema(), "alert")
	require.NoError(b, err)
	mode, err := blackboard.Lookup[string](r.Schema(), "mode")
	require.NoError(b, err)
	const n = 1024
	mems := make([]Memory, n)
	stores := make([]*blackboard.Store, n)
	for i := range mems {
		mems[i] = tree.NewMemory()
		stores[i] = r.Schema().NewStore()
		blackboard.Set(stores[i], alert, i%7 == 0)
		blackboard.Set(stores[i], mode, []string{"1", "2", "x"}[i%3])
	}
	ctx := &Context{DT: 0.05}
	b.ReportAllocs()
	b.ResetTimer()
	for k := 0; k < b.N; k++ {
		ctx.Time += ctx.DT
		for i := range mems {
			ctx.Blackboard = stores[i]
			tree.Tick(&mems[i], ctx)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/agent")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ctx.Visits()), "ns/visit")
	b.ReportMetric(float64(ctx.Visits())/float64(b.N*n), "visits/agent")
}
