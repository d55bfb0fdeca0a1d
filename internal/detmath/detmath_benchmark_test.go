package detmath

import (
	"math"
	"testing"
)

var detSink float64

// BenchmarkExp compares Exp with math.Exp (amd64 assembly) side by side.
func BenchmarkExp(b *testing.B) {
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = (float64(i) - 512) / 50
	}
	for _, c := range []struct {
		name string
		f    func(float64) float64
	}{{"det", Exp}, {"math", math.Exp}, {"Log", Log}, {"mathLog", math.Log}} {
		b.Run(c.name, func(b *testing.B) {
			var s float64
			for i := 0; b.Loop(); i++ {
				s += c.f(math.Abs(xs[i&1023]) + 0.5)
			}
			detSink = s
		})
	}
}

// BenchmarkSincos compares Sincos with math.Sincos side by side.
func BenchmarkSincos(b *testing.B) {
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = (float64(i) - 512) / 80
	}
	for _, c := range []struct {
		name string
		f    func(float64) (float64, float64)
	}{{"det", Sincos}, {"math", math.Sincos}} {
		b.Run(c.name, func(b *testing.B) {
			var s float64
			for i := 0; b.Loop(); i++ {
				x, y := c.f(xs[i&1023])
				s += x + y
			}
			detSink = s
		})
	}
}
