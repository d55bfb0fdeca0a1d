package systems_test

import (
	"fmt"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// A player orders one unit to move: the event reaches that unit's machine between
// frames, and the Enter hook of the state it leads to writes the unit's Intent
// through its agent view.
func ExampleFSM_Dispatch() {
	const moveOrder fsm.Event = 1
	b := fsm.NewBuilder("unit")
	idle := b.State("idle", fsm.Hooks{})
	moving := b.State("moving", fsm.Hooks{Enter: func(ctx *fsm.Context) {
		a := systems.StateAgent(ctx)
		a.Intent.Goal, a.Intent.Move = r2.Vec{X: 12.5, Y: 4.5}, true
	}})
	b.On(idle, moveOrder, moving)
	m, err := b.Build()
	if err != nil {
		panic(err)
	}

	world := arche.NewWorld()
	w := &world
	units := generic.NewMap4[components.StateMachine, components.Think, components.Position, components.Intent](w)
	unit := units.NewWith(&components.StateMachine{Machine: m}, &components.Think{Interval: 0.1},
		&components.Position{}, &components.Intent{})
	f := &systems.FSM{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), f)
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 10)

	took, err := f.Dispatch(w, unit, moveOrder) // between frames
	sm, _, _, in := units.Get(unit)
	fmt.Println(took, err, m.Name(sm.Memory.Active), in.Goal, in.Move)
	// Output: true <nil> moving {12.5 4.5} true
}
