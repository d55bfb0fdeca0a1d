package main

import (
	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/systems"
	"gonum.org/v1/gonum/spatial/r2"
)

// Places of the map the worker walks between (the at fact's values).
const (
	Nowhere = iota
	Forge   // where axes are
	Forest  // where wood is
	Bench   // where planks are made
	Depot   // where planks are delivered
	NumPlaces
)

var placeNames = [NumPlaces]string{"nowhere", "forge", "forest", "bench", "depot"}

// Facts of the worker's world state.
type Facts struct {
	At, Axe, Wood, Planks, Delivered goap.Fact
}

// Tuning.
const (
	ArriveWithin = 0.8 // cells from a place's centre that count as there
	ChopTime     = 1.0 // seconds per chop
	HandTime     = 3.0 // seconds to gather one wood by hand
	CraftTime    = 1.0 // seconds per plank
	AxeLife      = 3   // chops an axe lasts
)

// Places is where each place is on the map (cells), set by the scenario.
type Places [NumPlaces]r2.Vec

// Worker is the example's own component: what the scenario counts per worker.
type Worker struct {
	Chops     int // chops with the current axe
	Delivered int // deliveries so far
	Broken    int // axes broken
}

// Domain builds the gather-craft-deliver domain: walk between places, take an axe at the
// forge, chop wood with it (2 wood a chop) or gather by hand (1 wood, much slower), make
// a plank from 2 wood at the bench, deliver 2 planks at the depot. worker returns the
// agent's Worker component (nil in benchmarks without one); places the map's places.
func Domain(places *Places, worker func(a *systems.Agent) *Worker) (*goap.Domain, Facts, error) {
	b := goap.NewBuilder("gather-craft-deliver")
	f := Facts{At: b.Fact("at"), Axe: b.Fact("axe"), Wood: b.Fact("wood"), Planks: b.Fact("planks"), Delivered: b.Fact("delivered")}
	walk := func(to int) goap.Operator {
		return func(c *goap.Context) goap.Status {
			a := systems.PlanAgent(c.Agent)
			if a == nil { // planned outside the ECS (benchmarks)
				return goap.Success
			}
			goal := places[to]
			if r2.Norm(r2.Sub(a.Position.Vec, goal)) <= ArriveWithin {
				a.Intent.Move = false
				return goap.Success
			}
			a.Intent.Move, a.Intent.Goal = true, goal
			return goap.Running
		}
	}
	wait := func(seconds float64, done func(c *goap.Context) goap.Status) goap.Operator {
		return func(c *goap.Context) goap.Status {
			if c.Time-c.Start < seconds-1e-9 {
				return goap.Running
			}
			if done != nil {
				return done(c)
			}
			return goap.Success
		}
	}
	for to := Forge; to < NumPlaces; to++ {
		b.Action(goap.Action{Name: "GoTo" + title(placeNames[to]), Cost: 2,
			Pre:     []goap.Cond{{Fact: f.At, Op: goap.Ne, Value: int16(to)}},
			Effects: []goap.Effect{{Fact: f.At, Value: int16(to)}}, Run: walk(to),
			Halt: func(c *goap.Context) {
				if a := systems.PlanAgent(c.Agent); a != nil {
					a.Intent.Move = false
				}
			}})
	}
	b.Action(goap.Action{Name: "TakeAxe", Cost: 1,
		Pre:     []goap.Cond{{Fact: f.At, Op: goap.Eq, Value: Forge}, {Fact: f.Axe, Op: goap.Eq, Value: 0}},
		Effects: []goap.Effect{{Fact: f.Axe, Value: 1}},
		Run: func(c *goap.Context) goap.Status {
			if a := systems.PlanAgent(c.Agent); a != nil {
				if w := worker(a); w != nil {
					w.Chops = 0
				}
			}
			return goap.Success
		}})
	b.Action(goap.Action{Name: "Chop", Cost: 1,
		Pre:     []goap.Cond{{Fact: f.At, Op: goap.Eq, Value: Forest}, {Fact: f.Axe, Op: goap.Eq, Value: 1}, {Fact: f.Wood, Op: goap.Lt, Value: 4}},
		Effects: []goap.Effect{{Fact: f.Wood, Value: 2, Add: true}},
		Run: wait(ChopTime, func(c *goap.Context) goap.Status {
			a := systems.PlanAgent(c.Agent)
			if a == nil {
				return goap.Success
			}
			w := worker(a)
			if w == nil {
				return goap.Success
			}
			w.Chops++
			if w.Chops >= AxeLife { // the axe breaks on this chop: no wood from it
				w.Broken++
				c.State[f.Axe] = 0
				return goap.Failure
			}
			return goap.Success
		})})
	b.Action(goap.Action{Name: "GatherByHand", Cost: 6,
		Pre:     []goap.Cond{{Fact: f.At, Op: goap.Eq, Value: Forest}, {Fact: f.Wood, Op: goap.Lt, Value: 4}},
		Effects: []goap.Effect{{Fact: f.Wood, Value: 1, Add: true}}, Run: wait(HandTime, nil)})
	b.Action(goap.Action{Name: "CraftPlank", Cost: 1,
		Pre:     []goap.Cond{{Fact: f.At, Op: goap.Eq, Value: Bench}, {Fact: f.Wood, Op: goap.Ge, Value: 2}, {Fact: f.Planks, Op: goap.Lt, Value: 2}},
		Effects: []goap.Effect{{Fact: f.Wood, Value: -2, Add: true}, {Fact: f.Planks, Value: 1, Add: true}},
		Run:     wait(CraftTime, nil)})
	b.Action(goap.Action{Name: "Deliver", Cost: 1,
		Pre:     []goap.Cond{{Fact: f.At, Op: goap.Eq, Value: Depot}, {Fact: f.Planks, Op: goap.Ge, Value: 2}},
		Effects: []goap.Effect{{Fact: f.Planks, Value: -2, Add: true}, {Fact: f.Delivered, Value: 1}},
		Run: func(c *goap.Context) goap.Status {
			if a := systems.PlanAgent(c.Agent); a != nil {
				if w := worker(a); w != nil {
					w.Delivered++
				}
			}
			return goap.Success
		}})
	b.Goal(goap.Goal{Name: "DeliverPlanks", Priority: 1, Want: []goap.Cond{{Fact: f.Delivered, Op: goap.Eq, Value: 1}}})
	// A delivery is an order filled: the next think starts on a new one.
	b.Sense(func(c *goap.Context) { c.State[f.Delivered] = 0 })
	d, err := b.Build()
	return d, f, err
}

func title(s string) string { return string(s[0]-'a'+'A') + s[1:] }
