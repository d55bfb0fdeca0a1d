// Command villagers runs a day in a small village whose villagers are driven by utility
// AI: each has needs (hunger, fatigue, loneliness) and chooses between eating, sleeping,
// socialising and working with a utility reasoner, ten times a second of simulation
// time, through systems.Utility. It prints every change of mind with the scores that
// caused it, then how each villager spent the day.
//
//	go run ./examples/villagers
//
// The run is deterministic: a fixed step, fixed seeds, and a reasoner that iterates
// slices, never maps.
package main

import (
	"fmt"
	"io"
	"math"
	"os"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/examples/internal/scene"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// Time scale: one hour of village time is HourSeconds of simulation time.
const (
	HourSeconds = 10.0
	DayHours    = 24.0
	Step        = 0.1 // seconds per frame
	StartHour   = 6.0
)

// Needs are a villager's needs, each in [0, 1] (1 is desperate), and where the food is.
type Needs struct {
	Name                        string
	Hunger, Fatigue, Loneliness float64
	FoodDist                    float64 // cells to the nearest food store
	Goods                       float64 // what the villager produced by working
	Spent                       [4]float64
}

// Actions, in the reasoner's order.
const (
	Eat = iota
	Sleep
	Socialise
	Work
)

var short = [...]string{"eat", "sleep", "social", "work"}

// hour returns the time of day in hours for simulation time t.
func hour(t float64) float64 { return math.Mod(StartHour+t/HourSeconds, DayHours) }

// daylight is 1 at 13:00, 0 from 21:00 to 05:00.
func daylight(t float64) float64 {
	h := hour(t)
	if h < 5 || h > 21 {
		return 0
	}
	return math.Sin(math.Pi * (h - 5) / 16)
}

// Reasoner builds the villagers' shared reasoner: 4 actions with 2–3 considerations.
func Reasoner(needs generic.Map[Needs]) (*utility.Reasoner, error) {
	need := func(f func(*Needs) float64) func(any) float64 {
		return func(agent any) float64 {
			a := systems.UtilityAgent(agent)
			if a == nil {
				return math.NaN()
			}
			return f(needs.Get(a.Entity))
		}
	}
	light := func(agent any) float64 {
		a := systems.UtilityAgent(agent)
		return daylight(a.Clock.Time)
	}
	hunger := need(func(n *Needs) float64 { return n.Hunger })
	fatigue := need(func(n *Needs) float64 { return n.Fatigue })
	lonely := need(func(n *Needs) float64 { return n.Loneliness })
	food := need(func(n *Needs) float64 { return n.FoodDist })
	return utility.New("villager", utility.Policy{Hysteresis: 0.4},
		utility.Action{Name: "eat", Considerations: []utility.Consideration{
			{Name: "hungry", Input: hunger, Curve: utility.Logistic(10, 0.5)},
			{Name: "food near", Input: food, Range: utility.Range{Min: 40, Max: 0}, Curve: utility.Linear(0.5, 0.5)},
		}},
		// Sleep is a weighted sum: the dark alone makes a villager sleep at night, and
		// fatigue alone can make one nap by day.
		utility.Action{Name: "sleep", Combine: utility.WeightedSum, Considerations: []utility.Consideration{
			{Name: "tired", Input: fatigue, Curve: utility.Exponential(3)},
			{Name: "dark", Input: light, Curve: utility.Curve{Kind: utility.CurvePolynomial, M: 1, K: 2, C: 1}}, // (1 − daylight)²,
		}},
		utility.Action{Name: "socialise", Considerations: []utility.Consideration{
			{Name: "lonely", Input: lonely, Curve: utility.Logistic(10, 0.6)},
			{Name: "daylight", Input: light, Curve: utility.Linear(0.6, 0.4)},
			{Name: "not tired", Input: fatigue, Curve: utility.InverseQuadratic()},
		}},
		utility.Action{Name: "work", Weight: 0.7, Considerations: []utility.Consideration{
			{Name: "fed", Input: hunger, Curve: utility.Linear(-1, 1)},
			{Name: "rested", Input: fatigue, Curve: utility.Linear(-1, 1)},
			{Name: "daylight", Input: light, Curve: utility.Smoothstep(0, 0.5)},
		}},
	)
}

// NeedsSystem changes needs every frame by what each villager is doing.
type NeedsSystem struct {
	filter *generic.Filter2[Needs, components.UtilityBrain]
	clock  *ecs.Clock
}

// Rates per hour of village time.
var rates = [4][3]float64{
	//         hunger fatigue lonely
	Eat:       {-1.00, +0.03, +0.03},
	Sleep:     {+0.02, -0.12, +0.01},
	Socialise: {+0.05, +0.04, -0.50},
	Work:      {+0.08, +0.07, +0.06},
}

// Initialize builds the filter.
func (s *NeedsSystem) Initialize(w *arche.World) {
	s.filter = generic.NewFilter2[Needs, components.UtilityBrain]()
	s.clock = ecs.ClockOf(w)
}

// Update applies one frame of needs.
func (s *NeedsSystem) Update(w *arche.World) {
	hours := s.clock.DT / HourSeconds
	q := s.filter.Query(w)
	for q.Next() {
		n, b := q.Get()
		c := b.State.Choice
		if c < 0 {
			continue
		}
		r := rates[c]
		n.Hunger = clamp01(n.Hunger + float64(r[0]*hours))
		n.Fatigue = clamp01(n.Fatigue + float64(r[1]*hours))
		n.Loneliness = clamp01(n.Loneliness + float64(r[2]*hours))
		n.Spent[c] += hours
		if c == Work {
			n.Goods += hours
		}
	}
}

// Finalize does nothing.
func (s *NeedsSystem) Finalize(w *arche.World) {}

// Narrator prints each change of mind, after the utility system decided.
type Narrator struct {
	Out      io.Writer
	Reasoner *utility.Reasoner
	filter   *generic.Filter2[Needs, components.UtilityBrain]
	clock    *ecs.Clock
}

// Initialize builds the filter.
func (s *Narrator) Initialize(w *arche.World) {
	s.filter = generic.NewFilter2[Needs, components.UtilityBrain]()
	s.clock = ecs.ClockOf(w)
}

// Update prints the villagers whose choice changed this frame.
func (s *Narrator) Update(w *arche.World) {
	q := s.filter.Query(w)
	for q.Next() {
		n, b := q.Get()
		st := &b.State
		if st.Choice == st.Previous || st.Decisions == 0 {
			continue
		}
		h := hour(s.clock.Time)
		fmt.Fprintf(s.Out, "%02d:%02d %-5s %-9s → %-9s hunger %.2f fatigue %.2f lonely %.2f | eat %.2f sleep %.2f social %.2f work %.2f\n",
			int(h), int(math.Mod(h*60, 60)), n.Name, s.Reasoner.ActionName(st.Previous), s.Reasoner.ActionName(st.Choice),
			n.Hunger, n.Fatigue, n.Loneliness, st.Scores[Eat], st.Scores[Sleep], st.Scores[Socialise], st.Scores[Work])
		st.Previous = st.Choice // printed once
	}
}

// Finalize does nothing.
func (s *Narrator) Finalize(w *arche.World) {}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

// Run simulates one day and writes the log to out. A fault of setup found by a system's
// Initialize (a missing resource, an unusable setting) is returned as an
// *ecs.SetupError.
func Run(out io.Writer) error {
	sc, err := build(out)
	if err != nil {
		return err
	}
	return sc.Play(int(DayHours * HourSeconds / Step))
}

// build sets the day up: the world, the villagers, the systems (not initialized) and
// the day's summary at the end of the log.
func build(out io.Writer) (*scene.Scene, error) {
	world := arche.NewWorld()
	w := &world
	needs := generic.NewMap[Needs](w)
	r, err := Reasoner(needs)
	if err != nil {
		return nil, err
	}
	villagers := []Needs{
		{Name: "Ada", Hunger: 0.3, Fatigue: 0.2, Loneliness: 0.5, FoodDist: 5},
		{Name: "Bram", Hunger: 0.6, Fatigue: 0.1, Loneliness: 0.2, FoodDist: 30},
		{Name: "Cleo", Hunger: 0.1, Fatigue: 0.6, Loneliness: 0.8, FoodDist: 12},
	}
	spawner, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r, Interval: 0.1},
		systems.With(Needs{}), systems.With(components.Health{Current: 1, Max: 1}))
	if err != nil {
		return nil, err
	}
	spawner.Seed = 1
	var es []arche.Entity
	spawner.SpawnBatch(len(villagers), func(i int, a *systems.Spawned) {
		*systems.Component[Needs](a) = villagers[i]
		a.Think.Next = float64(i) * 0.03 // staggered in a fixed order, for a readable log
		es = append(es, a.Entity)
	})

	util := &systems.Utility{}
	s := ecs.NewScheduler(ecs.NewClockSystem(Step), util, &NeedsSystem{},
		&Narrator{Out: out, Reasoner: r})
	return &scene.Scene{World: w, Sched: s, Report: func() error {
		fmt.Fprintf(out, "\nday done: %d decisions\n", util.TotalThought)
		for _, e := range es {
			n := needs.Get(e)
			fmt.Fprintf(out, "%-5s", n.Name)
			for a, hrs := range n.Spent {
				fmt.Fprintf(out, " %s %4.1fh", short[a], hrs)
			}
			fmt.Fprintf(out, "  goods %.1f\n", n.Goods)
		}
		return nil
	}}, nil
}

func main() {
	if err := Run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "villagers:", err)
		os.Exit(1)
	}
}
