package utility

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
		check("exp", detExp(x), math.Exp(x), 2)
		s := (rng.Float64() - 0.5) * 20
		check("exp small", detExp(s), math.Exp(s), 2)
		check("expm1", detExpm1(s), math.Expm1(s), 4)
		tiny := (rng.Float64() - 0.5) * 1e-4
		check("expm1 tiny", detExpm1(tiny), math.Expm1(tiny), 4)
		l := math.Ldexp(rng.Float64()+0.01, rng.IntN(200)-100)
		check("log", detLog(l), math.Log(l), 2)
		u := rng.Float64()
		k := (rng.Float64() - 0.2) * 10
		check("pow", detPow(u, k), math.Pow(u, k), 256) // exp(k·log u): relative error about |k log u|·ε
		a := (rng.Float64() - 0.5) * 20
		if d := math.Abs(detSin(a) - math.Sin(a)); d > 2e-15 { // absolute: a score's error
			t.Fatalf("sin(%v): %v, want %v", a, detSin(a), math.Sin(a))
		}
	}
	for _, c := range [][3]float64{{0, 2, 0}, {0, -1, math.Inf(1)}, {-2, 3, -8}, {-2, 2, 4}, {-2, 0.5, math.NaN()},
		{0.5, math.Inf(1), 0}, {2, math.Inf(1), math.Inf(1)}, {1, math.NaN(), math.NaN()}, {7, 0, 1}} {
		got, want := detPow(c[0], c[1]), c[2]
		if !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("detPow(%v, %v) = %v, want %v (math.Pow %v)", c[0], c[1], got, want, math.Pow(c[0], c[1]))
		}
	}
	for _, c := range [][2]float64{{0, 1}, {math.Inf(-1), 0}, {800, math.Inf(1)}, {-800, 0}} {
		if got := detExp(c[0]); got != c[1] {
			t.Errorf("detExp(%v) = %v, want %v", c[0], got, c[1])
		}
	}
	if !math.IsNaN(detLog(-1)) || detLog(0) != math.Inf(-1) || detLog(1) != 0 || detSin(0) != 0 || !math.IsNaN(detSin(math.Inf(1))) {
		t.Error("special cases")
	}
	t.Logf("worst ulps: %v", worst)
}
