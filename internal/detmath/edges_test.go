package detmath

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"
)

// The series' r + r·z·p turned −0 into +0: Sin(−0) was +0 (math.Sin(−0) is −0),
// against the documented Sincos(−x) = (−sin x, cos x).
func TestSinOfNegativeZero(t *testing.T) {
	nz := math.Copysign(0, -1)
	if s, c := Sincos(nz); !math.Signbit(s) || s != 0 || c != 1 {
		t.Errorf("Sincos(−0) = %v (signbit %v), %v; want −0, 1", s, math.Signbit(s), c)
	}
	if s := Sin(0); s != 0 || math.Signbit(s) {
		t.Errorf("Sin(+0) = %v", s)
	}
}

// Pow's special cases are math.Pow's (its documented list), to the bit.
func TestPowSpecialCasesAreMathPows(t *testing.T) {
	nz, inf, nan := math.Copysign(0, -1), math.Inf(1), math.NaN()
	vals := []float64{0, nz, 1, -1, 0.5, -0.5, 2, -2, 3, -3, 64, -64, 65, -65, 0.25, -0.25, 1e300, -1e300, inf, -inf, nan, 1e5, 1e-5}
	for _, x := range vals {
		for _, y := range vals {
			got, want := Pow(x, y), math.Pow(x, y)
			if math.IsNaN(got) && math.IsNaN(want) {
				continue
			}
			if got == want && math.Signbit(got) == math.Signbit(want) {
				continue
			}
			if got != 0 && want != 0 && !math.IsInf(want, 0) && math.Signbit(got) == math.Signbit(want) &&
				math.Abs(got-want) <= 1e-13*math.Abs(want) {
				continue // an ordinary power a few ulps off, not a special case
			}
			t.Errorf("Pow(%v, %v) = %v, math.Pow %v", x, y, got, want)
		}
	}
	// x^−n where x^n overflows but x^−n is a subnormal
	if got, want := Pow(1e5, -64), math.Pow(1e5, -64); got != want {
		t.Errorf("Pow(1e5, −64) = %v, want %v", got, want)
	}
}

// The bits of every function over wide ranges (huge, tiny, subnormal, negative
// and special arguments), pinned: the same on every build. Checked under the
// default build, GOAMD64=v3, GOARCH=386 and GODEBUG=cpu.fma=off.
func TestSameBitsOnEveryBuild(t *testing.T) {
	const golden = uint64(0x7fe698884c1c4455)
	rng := rand.New(rand.NewPCG(7, 8))
	h := fnv.New64a()
	var buf [8]byte
	put := func(v float64) {
		u := math.Float64bits(v)
		if v != v {
			u = 0x7ff8000000000001 // one NaN: its payload is not specified
		}
		for k := range buf {
			buf[k] = byte(u >> (8 * k))
		}
		h.Write(buf[:])
	}
	specials := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e-310, 1, -1, math.Pi / 2, math.Pi, 2 * math.Pi,
		709.78, -745.1, 1 << 52, 1e300, -1e300, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	args := append([]float64{}, specials...)
	for range 200000 {
		args = append(args, math.Ldexp(rng.Float64()-0.5, rng.IntN(2100)-1075))
		args = append(args, (rng.Float64()-0.5)*50)
	}
	for i, x := range args {
		put(Exp(x))
		put(Expm1(x))
		put(Log(math.Abs(x)))
		s, c := Sincos(x)
		put(s)
		put(c)
		put(Pow(math.Abs(x), args[(i*7+3)%len(args)]*1e-3))
		put(Pow(x, float64(i%130-65)))
	}
	if got := h.Sum64(); got != golden {
		t.Errorf("hash %#x, want %#x", got, golden)
	}
}
