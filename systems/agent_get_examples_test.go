package systems_test

import (
	"fmt"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"gonum.org/v1/gonum/spatial/r2"
)

// Home is a component of the program's own: where a unit falls back to.
type Home struct{ At r2.Vec }

// A consideration and an action that read what the Agent view does not show:
// the agent's Weapon range, its team, and its Home (a component of the
// program's own), with systems.Get; the foe's team with systems.GetOf. One
// reasoner serves both teams: nothing is captured per team in closures.
func ExampleGet() {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(32, 32))
	var foe arche.Entity
	inRange := utility.Consideration{Name: "foe in range", Range: utility.Unit, Curve: utility.Linear(1, 0),
		Input: func(x any) float64 {
			a := systems.UtilityAgent(x)
			f := systems.GetOf[components.Position](a, foe)
			if f == nil || systems.GetOf[components.Faction](a, foe).Team == systems.Get[components.Faction](a).Team {
				return 0
			}
			if r2.Norm(r2.Sub(f.Vec, a.Position.Vec)) <= systems.Get[components.Weapon](a).Range {
				return 1
			}
			return 0
		}}
	strike := utility.Action{Name: "strike", Considerations: []utility.Consideration{inRange},
		Act: func(x any) { systems.UtilityAgent(x).Intent.Attack = foe }}
	fallBack := utility.Action{Name: "fall back", Weight: 0.5,
		Act: func(x any) {
			a := systems.UtilityAgent(x)
			a.Intent.Move, a.Intent.Goal = true, systems.Get[Home](a).At
		}}
	r, err := utility.New("soldier", utility.Policy{}, strike, fallBack)
	if err != nil {
		fmt.Println(err)
		return
	}
	soldiers, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r}, systems.Combatant{Range: 3}, systems.With(Home{}))
	if err != nil {
		fmt.Println(err)
		return
	}
	spawn := func(team uint8, pos, home r2.Vec) arche.Entity {
		return soldiers.Spawn(pos, func(a *systems.Spawned) {
			a.Faction.Team = team
			systems.Component[Home](a).At = home
		})
	}
	near := spawn(1, r2.Vec{X: 10.5, Y: 10.5}, r2.Vec{X: 2.5, Y: 2.5})
	far := spawn(1, r2.Vec{X: 20.5, Y: 10.5}, r2.Vec{X: 30.5, Y: 2.5})
	foe = spawn(2, r2.Vec{X: 12.5, Y: 10.5}, r2.Vec{X: 16.5, Y: 30.5})

	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.Utility{})
	s.Initialize(w)
	s.Update(w) // each thinks once within its first 0.1 s
	for _, e := range []arche.Entity{near, far} {
		ub := (*components.UtilityBrain)(w.Get(e, arche.ComponentID[components.UtilityBrain](w)))
		in := (*components.Intent)(w.Get(e, arche.ComponentID[components.Intent](w)))
		fmt.Printf("%s: attack foe %v, move to %v\n", r.ActionName(ub.State.Choice), in.Attack == foe, in.Goal)
	}
	// Output:
	// strike: attack foe true, move to {0 0}
	// fall back: attack foe false, move to {30.5 2.5}
}
