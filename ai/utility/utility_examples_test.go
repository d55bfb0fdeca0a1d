package utility_test

import (
	"errors"
	"fmt"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/ai/utility"
)

// Example builds a villager's reasoner once and lets one villager decide as its needs
// change. Every option's score is in the State after each decision.
func Example() {
	type villager struct{ hunger, fatigue, foodDist float64 }
	hunger := utility.Fact(func(v *villager) float64 { return v.hunger })
	fatigue := utility.Fact(func(v *villager) float64 { return v.fatigue })
	foodDist := utility.Fact(func(v *villager) float64 { return v.foodDist })

	r, err := utility.New("villager", utility.Policy{Hysteresis: 0.1},
		utility.Action{Name: "eat", Considerations: []utility.Consideration{
			{Name: "hungry", Input: hunger, Curve: utility.Quadratic()},
			{Name: "food near", Input: foodDist, Range: utility.Range{Min: 20, Max: 0}},
		}},
		utility.Action{Name: "sleep", Considerations: []utility.Consideration{
			{Name: "tired", Input: fatigue, Curve: utility.Logistic(10, 0.6)},
		}},
		utility.Action{Name: "work", Weight: 0.3}, // a constant fallback
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	v := &villager{foodDist: 5}
	s := r.NewState() // once per agent, kept in its component
	for _, needs := range [][2]float64{{0.2, 0.1}, {0.8, 0.1}, {0.8, 0.9}, {0.95, 0.9}} {
		v.hunger, v.fatigue = needs[0], needs[1]
		c := r.Decide(v, &s, nil)
		fmt.Printf("hunger %.2f fatigue %.2f → %-5s eat %.3f sleep %.3f work %.3f\n",
			v.hunger, v.fatigue, r.ActionName(c), s.Scores[0], s.Scores[1], s.Scores[2])
	}
	// Output:
	// hunger 0.20 fatigue 0.10 → work  eat 0.050 sleep 0.007 work 0.300
	// hunger 0.80 fatigue 0.10 → eat   eat 0.637 sleep 0.007 work 0.300
	// hunger 0.80 fatigue 0.90 → sleep eat 0.637 sleep 0.953 work 0.300
	// hunger 0.95 fatigue 0.90 → sleep eat 0.799 sleep 0.953 work 0.300
}

// A curve maps a normalised input to [0, 1]; bad input scores 0.
func ExampleCurve_Eval() {
	c := utility.Logistic(10, 0.5)
	for _, x := range []float64{0, 0.5, 1, 2} {
		fmt.Printf("%.4f ", c.Eval(x))
	}
	fmt.Println(utility.InverseQuadratic().Eval(0.5), c.Eval(nan()))
	// Output: 0.0067 0.5000 0.9933 0.9933 0.75 0
}

func nan() float64 { zero := 0.0; return zero / zero }

// A Range normalises a raw fact; an inverted range turns "near" into a high score.
func ExampleRange_Normalize() {
	near := utility.Range{Min: 20, Max: 0} // cells
	fmt.Println(near.Normalize(0), near.Normalize(5), near.Normalize(40))
	// Output: 1 0.75 0
}

// The compensation factor for n considerations leaves one consideration alone and
// makes up part of the shortfall of each score when there are many.
func ExampleCompensate() {
	for _, n := range []int{1, 2, 8} {
		fmt.Printf("n=%d: %.5f\n", n, utility.Compensate(0.5, n))
	}
	// Output:
	// n=1: 0.50000
	// n=2: 0.62500
	// n=8: 0.71875
}

// Softmax picks at random from the agent's own seeded source, so a run replays.
func ExampleSoftmaxPolicy() {
	type fighter struct{ dist float64 }
	dist := utility.Fact(func(f *fighter) float64 { return f.dist })
	r, _ := utility.New("attack", utility.SoftmaxPolicy(0.2),
		utility.Action{Name: "melee", Considerations: []utility.Consideration{
			{Input: dist, Range: utility.Range{Min: 6, Max: 0}}}},
		utility.Action{Name: "ranged", Considerations: []utility.Consideration{
			{Input: dist, Range: utility.Range{Min: 0, Max: 6}}}},
	)
	f := &fighter{dist: 2}
	rng := steer.NewRand(7) // in the agent's Rand component
	s := r.NewState()
	var counts [2]int
	for range 1000 {
		counts[r.Decide(f, &s, &rng)]++
	}
	// p(melee) = 1/(1 + e^((1/3 − 2/3)/0.2)) ≈ 0.84
	fmt.Println("melee", counts[0], "ranged", counts[1])
	// Output: melee 850 ranged 150
}

// villager is an agent of ExampleRegistry_LoadJSON: a fact of its own and a blackboard.
type villager struct {
	hunger float64
	board  *blackboard.Store
}

func (v *villager) BlackboardStore() *blackboard.Store { return v.board }

// A designer tunes a reasoner's curves and weights in a file; the program registers the
// inputs the file may name and declares the blackboard keys it may read.
func ExampleRegistry_LoadJSON() {
	schema := blackboard.NewSchema()
	danger := blackboard.MustDeclare[float64](schema, "danger") // set by perception
	reg := utility.NewRegistry(schema)
	_ = reg.RegisterInput("hunger", utility.Fact(func(v *villager) float64 { return v.hunger }))

	r, err := reg.LoadJSON("villager.json", []byte(`{
	  "name": "villager",
	  "policy": {"hysteresis": 0.1},
	  "actions": [
	    {"name": "eat", "considerations": [
	      {"name": "hungry", "input": "hunger", "range": {"min": 0, "max": 100},
	       "curve": {"kind": "Polynomial", "m": 1, "k": 2}}]},
	    {"name": "flee", "weight": 2, "considerations": [
	      {"name": "in danger", "key": "danger",
	       "curve": {"kind": "Logistic", "m": 12, "k": 1, "c": 0.5}}]},
	    {"name": "work", "weight": 0.3}
	  ]
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	v := &villager{board: schema.NewStore()}
	s := r.NewState() // once per agent, kept in its component
	for _, step := range [][2]float64{{20, 0}, {80, 0.1}, {80, 0.9}} {
		v.hunger = step[0]
		blackboard.Set(v.board, danger, step[1])
		c := r.Decide(v, &s, nil)
		fmt.Printf("hunger %3.0f danger %.1f → %-4s eat %.3f flee %.3f work %.3f\n",
			v.hunger, step[1], r.ActionName(c), s.Scores[0], s.Scores[1], s.Scores[2])
	}

	_, err = reg.LoadJSON("villager.json", []byte(`{"name": "v", "actions": [
	  {"name": "eat", "considerations": [{"input": "hunger", "curve": {"kind": "Sigmoid"}}]}]}`))
	fmt.Println(err)
	fmt.Println(errors.Is(err, utility.ErrBadCurve), errors.Is(err, utility.ErrSyntax))
	// Output:
	// hunger  20 danger 0.0 → work eat 0.040 flee 0.005 work 0.300
	// hunger  80 danger 0.1 → eat  eat 0.640 flee 0.016 work 0.300
	// hunger  80 danger 0.9 → flee eat 0.640 flee 1.984 work 0.300
	// utility: villager.json:2:69: actions[0].considerations[0].curve.kind: unknown curve kind "Sigmoid"
	// true true
}
