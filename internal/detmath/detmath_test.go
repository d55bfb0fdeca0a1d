package detmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns how many float64 steps lie between a and b (same sign assumed).
func ulps(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(float64(int64(math.Float64bits(a)) - int64(math.Float64bits(b))))
}

func TestDetMathIsAccurate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	worst := map[string]float64{}
	check := func(name string, got, want float64, limit float64) {
		t.Helper()
		if math.IsNaN(want) != math.IsNaN(got) {
			t.Fatalf("%s: got %v, want %v", name, got, want)
		}
		if math.IsNaN(want) {
			return
		}
		var e float64
		if math.Abs(want) < 1e-300 || math.IsInf(want, 0) {
			if got != want && math.Abs(got-want) > 1e-300 {
				t.Fatalf("%s: got %v, want %v", name, got, want)
			}
		} else {
			e = ulps(got, want)
		}
		worst[name] = max(worst[name], e)
		if e > limit {
			t.Fatalf("%s: got %v (%x), want %v (%x): %v ulps", name, got, math.Float64bits(got), want, math.Float64bits(want), e)
		}
	}
	for range 50000 {
		x := (rng.Float64() - 0.5) * 1400
		check("exp", Exp(x), math.Exp(x), 2)
		s := (rng.Float64() - 0.5) * 20
		check("exp small", Exp(s), math.Exp(s), 2)
		check("expm1", Expm1(s), math.Expm1(s), 4)
		tiny := (rng.Float64() - 0.5) * 1e-4
		check("expm1 tiny", Expm1(tiny), math.Expm1(tiny), 4)
		l := math.Ldexp(rng.Float64()+0.01, rng.IntN(200)-100)
		check("log", Log(l), math.Log(l), 2)
		u := rng.Float64()
		k := (rng.Float64() - 0.2) * 10
		check("pow", Pow(u, k), math.Pow(u, k), 256) // exp(k·log u): relative error about |k log u|·ε
		a := (rng.Float64() - 0.5) * 20
		if d := math.Abs(Sin(a) - math.Sin(a)); d > 2e-15 { // absolute: a score's error
			t.Fatalf("sin(%v): %v, want %v", a, Sin(a), math.Sin(a))
		}
		if d := math.Abs(Cos(a) - math.Cos(a)); d > 2e-15 {
			t.Fatalf("cos(%v): %v, want %v", a, Cos(a), math.Cos(a))
		}
		if s, c := Sincos(-a); s != -Sin(a) || c != Cos(a) {
			t.Fatalf("Sincos(%v) = %v, %v: not (−sin, cos) of %v", -a, s, c, a)
		}
		if a := math.Ldexp(a, -30); Cos(a) > 1 || math.Abs(Sin(a)-a) > 1e-25 {
			t.Fatalf("small angle %v: sin %v, cos %v", a, Sin(a), Cos(a))
		}
	}
	// huge arguments: finite, on the unit circle (an earlier version turned the reduction's
	// rest into ±Inf for |x| beyond 2^20 turns)
	for _, x := range []float64{6.6e6, 1e7, -1e20, 1e300, -1e300, math.MaxFloat64, -math.MaxFloat64} {
		s, c := Sincos(x)
		if !(math.Abs(s) <= 1 && math.Abs(c) <= 1 && math.Abs(s*s+c*c-1) < 1e-15) {
			t.Errorf("Sincos(%v) = %v, %v: not on the unit circle", x, s, c)
		}
	}
	for _, a := range []float64{0, math.Pi / 4, math.Pi / 2, math.Pi, 3 * math.Pi / 2, 100, -7, 1e4, -12345.678, 6e6} {
		for _, x := range []float64{a, math.Nextafter(a, 10), math.Nextafter(a, -10)} {
			s, c := Sincos(x)
			if math.Abs(s-math.Sin(x)) > 4e-16 || math.Abs(c-math.Cos(x)) > 4e-16 || s*s+c*c > 1+4e-16 {
				t.Errorf("Sincos(%v) = %v, %v; math: %v, %v", x, s, c, math.Sin(x), math.Cos(x))
			}
		}
	}
	for _, c := range [][3]float64{{0, 2, 0}, {0, -1, math.Inf(1)}, {-2, 3, -8}, {-2, 2, 4}, {-2, 0.5, math.NaN()},
		{0.5, math.Inf(1), 0}, {2, math.Inf(1), math.Inf(1)}, {1, math.NaN(), 1}, {7, 0, 1}} {
		got, want := Pow(c[0], c[1]), c[2]
		if !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("Pow(%v, %v) = %v, want %v (math.Pow %v)", c[0], c[1], got, want, math.Pow(c[0], c[1]))
		}
	}
	for _, c := range [][2]float64{{0, 1}, {math.Inf(-1), 0}, {800, math.Inf(1)}, {-800, 0}} {
		if got := Exp(c[0]); got != c[1] {
			t.Errorf("Exp(%v) = %v, want %v", c[0], got, c[1])
		}
	}
	if !math.IsNaN(Log(-1)) || Log(0) != math.Inf(-1) || Log(1) != 0 || Sin(0) != 0 || !math.IsNaN(Sin(math.Inf(1))) ||
		Cos(0) != 1 || !math.IsNaN(Cos(math.NaN())) {
		t.Error("special cases")
	}
	t.Logf("worst ulps: %v", worst)
}
