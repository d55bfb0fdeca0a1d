package systems

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/archai-go/archai/components"
)

// TestMetSetAnswersAsAMap meets the addresses of a pool of values in a random
// order, many twice or more, through three checks (the set reset between them,
// growing in the first), and compares every answer with a map's.
func TestMetSetAnswersAsAMap(t *testing.T) {
	pool := make([]float64, 5000)
	rng := rand.New(rand.NewPCG(1, 2))
	var s metSet
	for check := range 3 {
		s.reset()
		m := map[*float64]struct{}{}
		shared := 0
		for range 12000 {
			p := &pool[rng.IntN(len(pool))]
			_, want := m[p]
			m[p] = struct{}{}
			if got := s.meet(unsafe.Pointer(p)); got != want {
				t.Fatalf("check %d: meet(%p) = %v, a map says %v", check, p, got, want)
			}
			if want {
				shared++
			}
		}
		if s.n != len(m) || shared == 0 {
			t.Fatalf("check %d: %d addresses in the set, %d in the map (%d met twice)", check, s.n, len(m), shared)
		}
	}
	allocs := testing.AllocsPerRun(10, func() {
		s.reset()
		for i := range pool {
			s.meet(unsafe.Pointer(&pool[i]))
		}
	})
	if allocs != 0 {
		t.Fatalf("a check of as many addresses as before allocates %v times, want 0", allocs)
	}
}

// TestStepLimitMemoIsSeparationStepLimit asks the memo for the limit of a run of
// agents' values, repeated and changed (signed zeros, NaN, infinities and unusable
// Kinematics among them), and compares each answer, bit for bit, with
// SeparationStepLimit's.
func TestStepLimitMemoIsSeparationStepLimit(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	kins := []components.Kinematics{{MaxSpeed: 4, MaxForce: 20, Radius: 0.4}, {MaxSpeed: 4, MaxForce: 80, Radius: 0.4},
		{MaxSpeed: 4, MaxForce: math.Copysign(0, -1), Radius: 0.4}, {MaxSpeed: 4, MaxForce: 0, Radius: 0.4},
		{MaxSpeed: nan, MaxForce: 20, Radius: 0.4}, {MaxSpeed: 4, MaxForce: 20, Radius: nan}, {MaxSpeed: 4, MaxForce: inf, Radius: 0.4}}
	wts := []components.SteeringWeights{{Separation: 1, SeparationRadius: 0.9}, {Separation: 3, SeparationRadius: 1.8},
		{Separation: math.Copysign(0, -1), SeparationRadius: 0.9}, {Separation: 1, SeparationRadius: 0},
		{Separation: nan, SeparationRadius: 0.9}, {Separation: 1, SeparationRadius: inf}, {Separation: 1e300, SeparationRadius: 1e-300}}
	var m stepLimitMemo
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		k, w := &kins[rng.IntN(len(kins))], &wts[rng.IntN(len(wts))]
		if i%3 != 0 { // runs of the same values, as a crowd's
			k, w = &kins[0], &wts[0]
		}
		got, want := m.of(k, w), SeparationStepLimit(k, w)
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("agent %d (%+v, %+v): memo %v, SeparationStepLimit %v", i, *k, *w, got, want)
		}
	}
}

// TestGoodWeightsEachWeight makes each of the six weights negative, NaN, +Inf and
// −0 in turn: only −0 (and 0) is good.
func TestGoodWeightsEachWeight(t *testing.T) {
	base := components.SteeringWeights{Wall: 1, Separation: 1, SeparationRadius: 1, Alignment: 1, Cohesion: 1, NeighbourRadius: 1}
	if !goodWeights(&base) {
		t.Fatal("good weights refused")
	}
	for f := range 6 {
		for _, v := range []float64{-1, math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), math.MaxFloat64} {
			wt := base
			(*[6]float64)(unsafe.Pointer(&wt))[f] = v
			want := v >= 0 && !math.IsInf(v, 1)
			if got := goodWeights(&wt); got != want {
				t.Errorf("weight %d = %v: good %v, want %v", f, v, got, want)
			}
		}
	}
}
