package utility

import (
	"testing"

	"github.com/archai-go/archai/ai/steer"
)

// villager is the benchmark agent: needs in [0, 1] and the distances to places in cells.
type villager struct {
	hunger, fatigue, loneliness float64
	food, bed, friend           float64 // cells
	daylight                    float64
}

// villagers returns the 4-action reasoner of the benchmark (eat, sleep, socialise, work;
// 2–3 considerations each) and n villagers in varied states.
func villagers(n int) (*Reasoner, []villager) {
	fact := func(f func(*villager) float64) func(any) float64 { return Fact(f) }
	near := Range{Min: 30, Max: 0}
	r, err := New("villager", Policy{Hysteresis: 0.15},
		Action{Name: "eat", Considerations: []Consideration{
			{Name: "hunger", Input: fact(func(v *villager) float64 { return v.hunger }), Curve: Quadratic()},
			{Name: "food near", Input: fact(func(v *villager) float64 { return v.food }), Range: near, Curve: Logistic(8, 0.3)},
		}},
		Action{Name: "sleep", Considerations: []Consideration{
			{Name: "fatigue", Input: fact(func(v *villager) float64 { return v.fatigue }), Curve: Exponential(3)},
			{Name: "bed near", Input: fact(func(v *villager) float64 { return v.bed }), Range: near, Curve: Linear(0.8, 0.2)},
			{Name: "dark", Input: fact(func(v *villager) float64 { return v.daylight }), Curve: InverseQuadratic()},
		}},
		Action{Name: "socialise", Considerations: []Consideration{
			{Name: "lonely", Input: fact(func(v *villager) float64 { return v.loneliness }), Curve: Logistic(10, 0.6)},
			{Name: "friend near", Input: fact(func(v *villager) float64 { return v.friend }), Range: near, Curve: Smoothstep(0, 0.6)},
		}},
		Action{Name: "work", Weight: 0.6, Considerations: []Consideration{
			{Name: "fed", Input: fact(func(v *villager) float64 { return v.hunger }), Curve: Linear(-1, 1)},
			{Name: "rested", Input: fact(func(v *villager) float64 { return v.fatigue }), Curve: Linear(-1, 1)},
			{Name: "daylight", Input: fact(func(v *villager) float64 { return v.daylight }), Curve: Sine(0.5)},
		}},
	)
	if err != nil {
		panic(err)
	}
	vs := make([]villager, n)
	for i := range vs {
		f := float64(i)
		vs[i] = villager{hunger: float64(i*37%100) / 100, fatigue: float64(i*53%100) / 100,
			loneliness: float64(i*71%100) / 100, food: float64(i % 31), bed: float64(i * 7 % 29),
			friend: float64(i * 11 % 37), daylight: float64(i%10) / 10}
		_ = f
	}
	return r, vs
}

// BenchmarkVillagerDecision measures one villager decision (4 actions × 2–3
// considerations, argmax with hysteresis): one op is one agent.
func BenchmarkVillagerDecision(b *testing.B) {
	r, agents := villagers(1024)
	states := make([]State, len(agents))
	for i := range states {
		states[i] = r.NewState()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i & 1023
		r.Decide(&agents[k], &states[k], nil)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/agent")
}

// BenchmarkVillagerDecisionSoftmax is the same decision with a softmax pick from the
// agent's seeded source.
func BenchmarkVillagerDecisionSoftmax(b *testing.B) {
	r, agents := villagers(1024)
	r.policy = SoftmaxPolicy(0.1)
	states := make([]State, len(agents))
	rngs := make([]steer.Rand, len(agents))
	for i := range states {
		states[i] = r.NewState()
		rngs[i] = steer.NewRand(uint64(i))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i & 1023
		r.Decide(&agents[k], &states[k], &rngs[k])
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/agent")
}
