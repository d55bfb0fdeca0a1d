package bt

import "testing"

var benchLevels = 13

func BenchmarkBuildDoublingTree(b *testing.B) {
	r := NewRegistry(nil)
	if _, err := r.LoadXML("bomb.xml", bombXML(benchLevels, 1)); err != nil {
		b.Fatal(err)
	}
	t, err := r.Tree("R0")
	if err != nil {
		b.Fatal(err)
	}
	n := t.Len()
	b.ResetTimer()
	for range b.N {
		if _, err := r.Tree("R0"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/node")
}
