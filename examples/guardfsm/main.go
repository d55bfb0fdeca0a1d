// Command guardfsm runs a guard whose top-level mode is a state machine — Idle, Combat,
// Dead — with a behavior tree inside Combat (chase the intruder, fight it in range).
// The machine runs through systems.FSM at 10 Hz; the tree runs inside the Combat state
// with hybrid.TreeState, which halts it when the guard leaves Combat. It prints the
// mode transitions and what the tree does.
//
//	go run ./examples/guardfsm
//
// Script: a rat shows up at 2 s, and runs off when the guard gives chase (the running
// Chase is halted as the guard drops back to Idle); a brute shows up at 9 s and wins.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/examples/internal/scene"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Tuning.
const (
	Step        = 0.1  // seconds per frame
	SightRange  = 10.0 // cells
	StrikeRange = 1.5  // cells
	StrikeEvery = 1.0  // seconds between the guard's strikes
	GuardDamage = 25.0
	ChaseSpeed  = 2.0 // cells per second the guard closes while chasing
)

// Threat is what the guard knows about the intruder, written by the script.
type Threat struct {
	Name    string
	Visible bool
	Dist    float64 // cells
	HP      float64
	DPS     float64 // damage per second it deals within strike range
	Flees   bool    // runs off when chased
}

// Combat is the guard's memory of the tree it runs in the Combat state.
type Combat struct {
	hybrid.TreeRun
}

// guard is what the hooks and leaves need besides the systems.Agent view.
type guard struct {
	out     io.Writer
	threats generic.Map[Threat]
	combat  generic.Map[Combat]
}

func (g *guard) say(a *systems.Agent, format string, args ...any) {
	fmt.Fprintf(g.out, "%5.1fs  "+format+"\n", append([]any{a.Clock.Time}, args...)...)
}

// CombatTree builds the tree run inside Combat:
//
//	ReactiveSelector
//	├── ReactiveSequence
//	│   ├── Condition InRange
//	│   └── Action Fight      strike every second; halted when out of range
//	└── Action Chase          close in; halted when in range or Combat ends
func (g *guard) CombatTree() (*bt.Tree, error) {
	return bt.Compile("combat", bt.ReactiveSelector(
		bt.ReactiveSequence(
			bt.Condition("InRange", func(c *bt.Context) bool {
				return g.threats.Get(systems.AgentOf(c).Entity).Dist <= StrikeRange
			}),
			bt.Action("Fight", g.fight).
				OnHalt(func(c *bt.Context) { g.say(systems.AgentOf(c), "  bt: fight halted") }),
		),
		bt.Action("Chase", g.chase).
			OnStart(func(c *bt.Context) { g.say(systems.AgentOf(c), "  bt: chase starts") }).
			OnHalt(func(c *bt.Context) {
				a := systems.AgentOf(c)
				a.Intent.Move = false
				g.say(a, "  bt: chase halted")
			}),
	))
}

func (g *guard) chase(c *bt.Context) bt.Status {
	a := systems.AgentOf(c)
	a.Intent.Move = true // the script moves the guard: the decision layer writes intent only
	return bt.Running
}

func (g *guard) fight(c *bt.Context) bt.Status {
	a := systems.AgentOf(c)
	a.Intent.Move = false
	m := c.Node() // zeroed when Fight starts: the first strike is at once
	if c.Time < m.Timer {
		return bt.Running
	}
	m.Timer = c.Time + StrikeEvery - 1e-9 // simulation time of the next strike
	t := g.threats.Get(a.Entity)
	t.HP -= GuardDamage
	g.say(a, "  bt: strike! %s hp %.0f", t.Name, t.HP)
	if t.HP <= 0 {
		t.Visible = false
		g.say(a, "  %s is down", t.Name)
		return bt.Success
	}
	return bt.Running
}

// Machine builds the guard's modes.
func (g *guard) Machine(tree *bt.Tree) (*fsm.Machine, error) {
	threat := func(c *fsm.Context) *Threat { return g.threats.Get(systems.StateAgent(c).Entity) }
	b := fsm.NewBuilder("guard")
	idle := b.State("Idle", fsm.Hooks{Enter: func(c *fsm.Context) { systems.StateAgent(c).Intent.Move = false }})
	combat := b.State("Combat", hybrid.TreeState(tree,
		func(c *fsm.Context) *hybrid.TreeRun { return &g.combat.Get(systems.StateAgent(c).Entity).TreeRun },
		nil))
	dead := b.State("Dead", fsm.Hooks{Enter: func(c *fsm.Context) {
		a := systems.StateAgent(c)
		a.Intent.Move = false
		g.say(a, "  the guard falls")
	}})
	b.When(idle, func(c *fsm.Context) bool { return threat(c).Visible }, combat)
	b.When(combat, func(c *fsm.Context) bool { return !threat(c).Visible }, idle)
	b.When(fsm.Any, func(c *fsm.Context) bool { return systems.StateAgent(c).Health.Current <= 0 }, dead)
	var m *fsm.Machine
	b.Observe(func(c *fsm.Context, from, to fsm.StateID) {
		g.say(systems.StateAgent(c), "%s → %s", m.Name(from), m.Name(to))
	})
	m, err := b.Build()
	return m, err
}

// Script moves the intruders and the guard, and lets intruders hurt the guard. It runs
// after the FSM system, every frame.
type Script struct {
	Out    io.Writer
	filter *generic.Filter3[Threat, components.Intent, components.Health]
	clock  *ecs.Clock
}

// Initialize builds the filter.
func (s *Script) Initialize(w *arche.World) {
	s.filter = generic.NewFilter3[Threat, components.Intent, components.Health]()
	s.clock = ecs.ClockOf(w)
}

// Update advances the script by one frame.
func (s *Script) Update(w *arche.World) {
	now, dt := s.clock.Time, s.clock.DT
	q := s.filter.Query(w)
	for q.Next() {
		t, intent, hp := q.Get()
		switch {
		case near(now, 2):
			*t = Threat{Name: "rat", Visible: true, Dist: 6, HP: 25, DPS: 5, Flees: true}
			fmt.Fprintf(s.Out, "%5.1fs  a rat appears 6 cells away\n", now)
		case near(now, 9):
			*t = Threat{Name: "brute", Visible: true, Dist: 5, HP: 200, DPS: 30}
			fmt.Fprintf(s.Out, "%5.1fs  a brute appears 5 cells away\n", now)
		}
		if !t.Visible || hp.Current <= 0 {
			continue
		}
		if intent.Move {
			t.Dist -= ChaseSpeed * dt
		}
		if t.Flees && intent.Move {
			t.Dist += float64(3 * dt) // runs faster than the guard
		} else if !t.Flees && t.Dist > 1 {
			t.Dist -= 1 * dt
		}
		if t.Dist > SightRange {
			t.Visible = false
			fmt.Fprintf(s.Out, "%5.1fs  the %s is out of sight\n", now, t.Name)
		}
		if t.Dist <= StrikeRange {
			hp.Current -= float64(t.DPS * dt)
		}
	}
}

// Finalize does nothing.
func (s *Script) Finalize(w *arche.World) {}

func near(t, at float64) bool { return t > at-Step/2 && t <= at+Step/2 }

// Run plays the script for 20 s and writes the log to out. A fault of setup found by a
// system's Initialize (a missing resource, an unusable setting) is returned as an
// *ecs.SetupError.
func Run(out io.Writer) error {
	sc, err := build(out)
	if err != nil {
		return err
	}
	return sc.Play(200)
}

// build sets the script up: the world, the guard, the systems (not initialized) and the
// last line of the log.
func build(out io.Writer) (*scene.Scene, error) {
	world := arche.NewWorld()
	w := &world
	g := &guard{out: out, threats: generic.NewMap[Threat](w), combat: generic.NewMap[Combat](w)}
	tree, err := g.CombatTree()
	if err != nil {
		return nil, err
	}
	machine, err := g.Machine(tree)
	if err != nil {
		return nil, err
	}
	guards, err := systems.NewSpawner(w, systems.Thinker{Machine: machine, Interval: 0.1},
		systems.With(components.Health{Current: 100, Max: 100}), systems.With(Threat{}), systems.With(Combat{}),
		systems.With(components.OwnMotion{})) // Script moves it from its Intent, not archai's movement systems
	if err != nil {
		return nil, err
	}
	e := guards.Spawn(r2.Vec{}, nil)

	s := ecs.NewScheduler(ecs.NewClockSystem(Step), &systems.FSM{}, &Script{Out: out})
	return &scene.Scene{World: w, Sched: s, Report: func() error {
		state := generic.NewMap2[components.StateMachine, components.Health](w)
		sm, hp := state.Get(e)
		_, err := fmt.Fprintf(out, "final mode %s (previous %s), health %.0f\n",
			machine.Name(sm.Memory.Active), machine.Name(sm.Memory.Previous), hp.Current)
		return err
	}}, nil
}

func main() {
	if err := Run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "guardfsm:", err)
		os.Exit(1)
	}
}
