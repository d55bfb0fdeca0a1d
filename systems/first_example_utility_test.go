package systems_test

import (
	"fmt"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Stamina is a component of the program's own: 0 (exhausted) to 100 (fresh).
type Stamina struct{ Value float64 }

// A first utility program: workers that work until tired, rest, and go back
// to work, chosen by scores instead of a tree. Considerations read the agent
// through utility.Fact and systems.Get, a Range normalises the 0–100 stamina,
// hysteresis keeps a choice until the other one is clearly better, and the
// Utility system runs the reasoners. The README's "Choosing by utility" shows
// this code.
func Example_firstUtility() {
	world := arche.NewWorld()

	stamina := utility.Fact(func(a *systems.Agent) float64 { return systems.Get[Stamina](a).Value })
	work := utility.Action{Name: "work", Weight: 0.5, // no considerations: a constant score
		Act: func(x any) {
			a := systems.UtilityAgent(x)
			s := systems.Get[Stamina](a)
			s.Value = max(s.Value-4*a.DT, 0) // 4 a second; a.DT: seconds since its last decision
		}}
	rest := utility.Action{Name: "rest",
		Considerations: []utility.Consideration{{Name: "tired", Input: stamina,
			Range: utility.Range{Min: 100, Max: 0}, // inverted: stamina 0 is 1, 100 is 0
			Curve: utility.Quadratic()}},           // tired²: only the really tired rest
		Act: func(x any) {
			a := systems.UtilityAgent(x)
			s := systems.Get[Stamina](a)
			s.Value = min(s.Value+10*a.DT, 100)
		}}
	// hysteresis 0.15: the current choice holds until the other scores 15% more
	r, err := utility.New("worker", utility.Policy{}.WithHysteresis(0.15), work, rest)
	if err != nil {
		fmt.Println(err)
		return
	}

	workers, err := systems.NewSpawner(&world, systems.Thinker{Reasoner: r}, systems.With(Stamina{}))
	if err != nil {
		fmt.Println(err)
		return
	}
	start := []float64{100, 70, 40, 10}
	workers.SpawnBatch(len(start), func(k int, a *systems.Spawned) {
		a.Position.Vec = r2.Vec{X: float64(k) + 0.5, Y: 0.5}
		systems.Component[Stamina](a).Value = start[k]
	})

	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Utility{}, &systems.Diagnostics{})
	if err := s.InitializeChecked(&world); err != nil {
		fmt.Println(err)
		return
	}
	q := generic.NewFilter2[components.UtilityBrain, Stamina]()
	for t := 5; t <= 30; t += 5 {
		s.Run(&world, 300) // 5 s of simulation time
		resting, staminas := 0, ""
		qq := q.Query(&world)
		for qq.Next() {
			brain, st := qq.Get()
			if r.ActionName(brain.State.Choice) == "rest" {
				resting++
			}
			staminas += fmt.Sprintf(" %.0f", st.Value)
		}
		fmt.Printf("after %d s: %d working, %d resting; stamina%s\n", t, len(start)-resting, resting, staminas)
	}
	fmt.Println(systems.Diagnose(&world)) // no input out of range, no flip-flop
	s.Finalize(&world)
	// Output:
	// after 5 s: 3 working, 1 resting; stamina 80 50 33 25
	// after 10 s: 3 working, 1 resting; stamina 60 30 31 32
	// after 15 s: 4 working, 0 resting; stamina 40 26 27 32
	// after 20 s: 1 working, 3 resting; stamina 34 31 29 27
	// after 25 s: 3 working, 1 resting; stamina 28 32 33 28
	// after 30 s: 3 working, 1 resting; stamina 29 27 28 33
	// diagnostics: 4 agents, no misconfiguration
}
