package grid

import "math/rand/v2"

type testRand struct{ r *rand.Rand }

func newRand(seed uint64) testRand {
	return testRand{rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

func (t testRand) Intn(n int) int   { return t.r.IntN(n) }
func (t testRand) Float64() float64 { return t.r.Float64() }
