// Command hamlet runs a hamlet whose villagers live by a hierarchical state machine
// with behavior trees inside its states, and whose wolves choose by utility: the
// decision models the live debugger shows state by state and score by score.
//
//	go run ./examples/hamlet [-seconds S] [-seed N]
//	go run ./examples/hamlet -serve localhost:8080 [-speed X]
//
// Villagers (package ai/fsm through systems.FSM):
//
//	Day
//	├── Work
//	│   ├── Chop    tree "chop": walk to the woods, chop for 1.5 s, fell
//	│   └── Haul    tree "haul": walk to the store, unload for 0.5 s
//	└── Flee        a wolf within 5 cells: run from it until none is within 8
//	Night           tree "sleep": walk home, sleep (from 20:00 to 06:00)
//
// Chop goes to Haul when its tree succeeds, Haul back to Chop (hybrid.TreeState's
// done). Wolves (package ai/utility through systems.Utility) hunt (Compensated:
// hungry × prey near), rest (a weighted sum of tired and full) or roam (a constant
// 0.3), with hysteresis 0.35; a hunting wolf that reaches a villager eats (its hunger
// drops) and the villager flees.
//
// With -serve it runs in real time (or -speed times real time) until interrupted and
// serves the live debugger (package systems/debugview): click a villager to see its
// active states (Day › Work › Chop), the tree inside the state with its live node
// statuses and its state changes in the log; click a wolf to see every option's score
// and each consideration's input, curve output and compensated factor.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/examples/internal/scene"
	"github.com/archai-go/archai/examples/internal/serve"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Tuning.
const (
	Step        = 0.05 // seconds per frame
	HourSeconds = 3.0  // seconds of simulation time per hour of the hamlet's day
	StartHour   = 7.0
	Villagers   = 6
	Wolves      = 2
	FleeWithin  = 5.0 // cells: a wolf this near makes a villager flee
	SafeBeyond  = 8.0 // cells: fleeing ends when no wolf is this near
	BiteWithin  = 1.2 // cells
	Arrive      = 1.0 // cells
)

// Villager is a villager's own state: its places and what it knows of the wolves.
type Villager struct {
	Home, Woods, Store r2.Vec
	Wolf               arche.Entity // the nearest wolf
	WolfDist           float64      // cells
	Logs, Loads        int          // trees felled, loads hauled
}

// Chores holds the memory of the trees the villager runs inside its states.
type Chores struct {
	Chop, Haul, Sleep hybrid.TreeRun
}

// Wolf is a wolf's needs, in [0, 1], and its nearest prey.
type Wolf struct {
	Hunger, Fatigue float64
	Prey            arche.Entity
	PreyDist        float64 // cells
	Den             r2.Vec
	Meals           int
	Decisions       uint64 // the wolf's decisions seen, to count its changes of mind
}

// hour returns the time of day in hours at simulation time t.
func hour(t float64) float64 { return math.Mod(StartHour+t/HourSeconds, 24) }

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hamlet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seconds := fs.Float64("seconds", 60, "simulated seconds")
	seed := fs.Uint64("seed", 7, "seed of the map and the places")
	serveAddr := fs.String("serve", "", "run in real time until interrupted and serve the live debugger at this address (e.g. localhost:8080)")
	speed := fs.Float64("speed", 1, "-serve: pace in multiples of real time (0: unpaced)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if !(*seconds > 0) {
		fmt.Fprintln(stderr, "hamlet: -seconds must be positive")
		return 2
	}
	h, err := Build(*seed)
	if err != nil {
		fmt.Fprintln(stderr, "hamlet:", err)
		return 1
	}
	if *serveAddr != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return serve.Run("hamlet", ctx, h.W, h.Sched, *serveAddr, *speed, stdout, stderr)
	}
	if err := h.Play(*seconds, stdout); err != nil {
		fmt.Fprintln(stderr, "hamlet:", err)
		return 1
	}
	return 0
}

// Play runs the hamlet for seconds of simulated time and writes the report to out. A
// fault of setup found by a system's Initialize (a missing resource, an unusable
// setting) is returned as an *ecs.SetupError, with nothing run.
func (h *Hamlet) Play(seconds float64, out io.Writer) error {
	sc := scene.Scene{World: h.W, Sched: h.Sched, Report: func() error { return h.Report(out) }}
	return sc.Play(int(math.Round(seconds / Step)))
}

// Hamlet is the built world.
type Hamlet struct {
	W                  *arche.World
	Sched              *ecs.Scheduler
	grid               *grid.Grid
	Villagers, Wolves  []arche.Entity
	Machine            *fsm.Machine
	Reasoner           *utility.Reasoner
	villagers          generic.Map[Villager]
	wolves             generic.Map[Wolf]
	chores             generic.Map[Chores]
	machines           generic.Map[components.StateMachine]
	brains             generic.Map[components.UtilityBrain]
	transitions, picks int
}

// Build makes the hamlet on a generated 40×40 map: the world and its systems (not
// initialized).
func Build(seed uint64) (*Hamlet, error) {
	world := arche.NewWorld()
	w := &world
	g := scenario.GenerateMap(40, seed)
	arche.AddResource(w, g)
	h := &Hamlet{W: w, grid: g, villagers: generic.NewMap[Villager](w), wolves: generic.NewMap[Wolf](w),
		chores: generic.NewMap[Chores](w), machines: generic.NewMap[components.StateMachine](w),
		brains: generic.NewMap[components.UtilityBrain](w)}
	var err error
	if h.Machine, err = h.villagerMachine(); err != nil {
		return nil, err
	}
	if h.Reasoner, err = h.wolfReasoner(); err != nil {
		return nil, err
	}
	// the store away from the wolves' dens (below): a villager comes no nearer a
	// resting wolf than FleeWithin to unload
	woods, store := openNear(g, 8, 8), openNear(g, 30, 14)
	vs, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Machine: h.Machine, Interval: 0.1},
		systems.With(Villager{}), systems.With(Chores{}))
	if err != nil {
		return nil, err
	}
	vs.Seed = seed
	for i := range Villagers {
		home := openNear(g, 16+float64(float64(i%3)*3), 18+float64(float64(i/3)*3))
		h.Villagers = append(h.Villagers, vs.Spawn(home, func(a *systems.Spawned) {
			*systems.Component[Villager](a) = Villager{Home: home, Woods: woods, Store: store, WolfDist: math.Inf(1)}
		}))
	}
	ws, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Reasoner: h.Reasoner, Interval: 0.2}, systems.With(Wolf{}))
	if err != nil {
		return nil, err
	}
	ws.Seed = seed + 1
	for i := range Wolves {
		den := openNear(g, 4+float64(float64(i)*30), 34)
		h.Wolves = append(h.Wolves, ws.Spawn(den, func(a *systems.Spawned) {
			*systems.Component[Wolf](a) = Wolf{Hunger: 0.3 + float64(0.2*float64(i)), Fatigue: 0.2, Den: den, PreyDist: math.Inf(1)}
		}))
	}
	h.Sched = ecs.NewScheduler(ecs.NewClockSystem(Step), &systems.Spatial{}, &Senses{h: h}, &systems.FSM{}, &systems.Utility{},
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	return h, nil
}

// onMap returns the centre of the open cell nearest p clamped to the map: a
// corner of a wolf's round that would fall off the map (a den near its edge)
// is brought back onto it.
func (h *Hamlet) onMap(p r2.Vec) r2.Vec {
	g := h.grid
	return openNear(g, min(max(p.X, 0.5), float64(g.Width())-0.5), min(max(p.Y, 0.5), float64(g.Height())-0.5))
}

// openNear returns the centre of the open cell nearest (x, y).
func openNear(g *grid.Grid, x, y float64) r2.Vec {
	c := g.CellAt(r2.Vec{X: x, Y: y})
	for r := int32(0); r < int32(max(g.Width(), g.Height())); r++ {
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				if n := (grid.Cell{X: c.X + dx, Y: c.Y + dy}); g.InBounds(n) && g.Passable(n) {
					return g.Center(n)
				}
			}
		}
	}
	return g.Center(c)
}

// goTo walks the agent to p: Running until within Arrive cells, then Success.
func goTo(a *systems.Agent, p r2.Vec) bt.Status {
	if r2.Norm(r2.Sub(a.Position.Vec, p)) <= Arrive {
		a.Intent.Move = false
		return bt.Success
	}
	a.Intent.Mode, a.Intent.Move, a.Intent.Goal = components.IntentGo, true, p
	return bt.Running
}

// villagerMachine builds the villagers' machine (see the package doc).
func (h *Hamlet) villagerMachine() (*fsm.Machine, error) {
	me := func(a *systems.Agent) *Villager { return h.villagers.Get(a.Entity) }
	leaf := func(name string, f func(a *systems.Agent, v *Villager) bt.Status) *bt.Node {
		return bt.Action(name, func(c *bt.Context) bt.Status { a := systems.AgentOf(c); return f(a, me(a)) })
	}
	chop, err := bt.Compile("chop", bt.Sequence(
		leaf("go to the woods", func(a *systems.Agent, v *Villager) bt.Status { return goTo(a, v.Woods) }),
		bt.Wait(1.5).Named("chop"),
		leaf("fell", func(a *systems.Agent, v *Villager) bt.Status { v.Logs++; return bt.Success }),
	).Named("chop"))
	if err != nil {
		return nil, err
	}
	haul, err := bt.Compile("haul", bt.Sequence(
		leaf("go to the store", func(a *systems.Agent, v *Villager) bt.Status { return goTo(a, v.Store) }),
		bt.Wait(0.5).Named("unload"),
		leaf("stack", func(a *systems.Agent, v *Villager) bt.Status { v.Loads++; return bt.Success }),
	).Named("haul"))
	if err != nil {
		return nil, err
	}
	sleep, err := bt.Compile("sleep", bt.Sequence(
		leaf("go home", func(a *systems.Agent, v *Villager) bt.Status { return goTo(a, v.Home) }),
		leaf("sleep", func(*systems.Agent, *Villager) bt.Status { return bt.Running }),
	).Named("sleep"))
	if err != nil {
		return nil, err
	}
	run := func(f func(*Chores) *hybrid.TreeRun) func(*fsm.Context) *hybrid.TreeRun {
		return func(c *fsm.Context) *hybrid.TreeRun { return f(h.chores.Get(systems.StateAgent(c).Entity)) }
	}
	b := fsm.NewBuilder("villager")
	var chopSt, haulSt fsm.StateID
	day := b.State("Day", fsm.Hooks{})
	work := b.Substate(day, "Work", fsm.Hooks{})
	chopSt = b.Substate(work, "Chop", hybrid.TreeState(chop, run(func(c *Chores) *hybrid.TreeRun { return &c.Chop }),
		func(*fsm.Context, bt.Status) fsm.StateID { return haulSt }))
	haulSt = b.Substate(work, "Haul", hybrid.TreeState(haul, run(func(c *Chores) *hybrid.TreeRun { return &c.Haul }),
		func(*fsm.Context, bt.Status) fsm.StateID { return chopSt }))
	flee := b.Substate(day, "Flee", fsm.Hooks{
		Update: func(c *fsm.Context) fsm.StateID {
			a := systems.StateAgent(c)
			a.Intent.Mode, a.Intent.Target, a.Intent.Move = components.IntentFlee, me(a).Wolf, false
			return fsm.None
		},
		Exit: func(c *fsm.Context) {
			a := systems.StateAgent(c)
			a.Intent.Mode, a.Intent.Target = components.IntentGo, arche.Entity{}
		},
	})
	night := b.State("Night", hybrid.TreeState(sleep, run(func(c *Chores) *hybrid.TreeRun { return &c.Sleep }), nil))
	isNight := func(c *fsm.Context) bool { hr := hour(c.Time); return hr >= 20 || hr < 6 }
	wolfNear := func(c *fsm.Context) bool { return me(systems.StateAgent(c)).WolfDist <= FleeWithin }
	b.When(day, isNight, night)
	b.When(night, func(c *fsm.Context) bool { return !isNight(c) }, day)
	b.When(work, wolfNear, flee)
	b.When(flee, func(c *fsm.Context) bool { return me(systems.StateAgent(c)).WolfDist > SafeBeyond }, work)
	b.Observe(func(*fsm.Context, fsm.StateID, fsm.StateID) { h.transitions++ }) // FSM runs one worker: no race
	return b.Build()
}

// wolfReasoner builds the wolves' reasoner (see the package doc).
func (h *Hamlet) wolfReasoner() (*utility.Reasoner, error) {
	wolf := func(f func(*Wolf) float64) func(any) float64 {
		return func(agent any) float64 { return f(h.wolves.Get(systems.UtilityAgent(agent).Entity)) }
	}
	hungry := wolf(func(x *Wolf) float64 { return x.Hunger })
	return utility.New("wolf", utility.Policy{Hysteresis: 0.35},
		utility.Action{Name: "hunt", Act: h.hunt, Considerations: []utility.Consideration{
			{Name: "hungry", Input: hungry, Curve: utility.Logistic(10, 0.45)},
			{Name: "prey near", Input: wolf(func(x *Wolf) float64 { return x.PreyDist }), Range: utility.Range{Min: 25, Max: 0}, Curve: utility.Linear(0.8, 0.2)},
			{Name: "not tired", Input: wolf(func(x *Wolf) float64 { return x.Fatigue }), Curve: utility.InverseQuadratic()},
		}},
		utility.Action{Name: "rest", Act: h.rest, Combine: utility.WeightedSum, Considerations: []utility.Consideration{
			{Name: "tired", Input: wolf(func(x *Wolf) float64 { return x.Fatigue }), Curve: utility.Exponential(2)},
			{Name: "full", Input: hungry, Curve: utility.Linear(-1, 1), Weight: 2},
		}},
		utility.Action{Name: "roam", Weight: 0.3, Act: h.roam},
	)
}

func (h *Hamlet) hunt(agent any) {
	a := systems.UtilityAgent(agent)
	wf := h.wolves.Get(a.Entity)
	a.Intent.Mode, a.Intent.Target, a.Intent.Move = components.IntentPursue, wf.Prey, false
	if wf.Prey.IsZero() {
		a.Intent.Mode = components.IntentGo
	}
}

func (h *Hamlet) rest(agent any) {
	a := systems.UtilityAgent(agent)
	a.Intent.Mode, a.Intent.Target = components.IntentGo, arche.Entity{}
	goToDen := r2.Norm(r2.Sub(a.Position.Vec, h.wolves.Get(a.Entity).Den)) > Arrive
	a.Intent.Move, a.Intent.Goal = goToDen, h.wolves.Get(a.Entity).Den
}

func (h *Hamlet) roam(agent any) {
	a := systems.UtilityAgent(agent)
	wf := h.wolves.Get(a.Entity)
	a.Intent.Mode, a.Intent.Target = components.IntentGo, arche.Entity{}
	if !a.Intent.Move || r2.Norm(r2.Sub(a.Position.Vec, a.Intent.Goal)) <= Arrive {
		// the next corner of a square round the den, clockwise
		k := int(a.Clock.Time/8) % 4
		off := [4]r2.Vec{{X: -6, Y: -6}, {X: 6, Y: -6}, {X: 6, Y: 6}, {X: -6, Y: 6}}[k]
		a.Intent.Move, a.Intent.Goal = true, h.onMap(r2.Add(wf.Den, off))
	}
}

// Senses, before the decisions, finds each villager's nearest wolf and each wolf's
// nearest villager, lets a hunting wolf within BiteWithin of its prey eat, and moves
// the wolves' needs: hunting and roaming tire and starve them, resting rests them.
type Senses struct {
	h     *Hamlet
	clock *ecs.Clock
	pos   generic.Map[components.Position]
}

// Initialize looks up the clock.
func (s *Senses) Initialize(w *arche.World) {
	s.clock = ecs.ClockOf(w)
	s.pos = generic.NewMap[components.Position](w)
}

// Update senses and feeds.
func (s *Senses) Update(w *arche.World) {
	h, dt := s.h, s.clock.DT
	for _, ve := range h.Villagers {
		v := h.villagers.Get(ve)
		v.Wolf, v.WolfDist = arche.Entity{}, math.Inf(1)
		for _, we := range h.Wolves {
			if d := r2.Norm(r2.Sub(s.pos.Get(ve).Vec, s.pos.Get(we).Vec)); d < v.WolfDist {
				v.Wolf, v.WolfDist = we, d
			}
		}
	}
	for _, we := range h.Wolves {
		wf := h.wolves.Get(we)
		wf.Prey, wf.PreyDist = arche.Entity{}, math.Inf(1)
		for _, ve := range h.Villagers {
			if d := r2.Norm(r2.Sub(s.pos.Get(ve).Vec, s.pos.Get(we).Vec)); d < wf.PreyDist {
				wf.Prey, wf.PreyDist = ve, d
			}
		}
		switch h.brains.Get(we).State.Choice {
		case 0: // hunt
			wf.Hunger, wf.Fatigue = clamp01(wf.Hunger+float64(0.01*dt)), clamp01(wf.Fatigue+float64(0.04*dt))
			if wf.PreyDist <= BiteWithin {
				wf.Hunger = clamp01(wf.Hunger - 0.6)
				wf.Meals++
			}
		case 1: // rest
			wf.Hunger, wf.Fatigue = clamp01(wf.Hunger+float64(0.02*dt)), clamp01(wf.Fatigue-float64(0.08*dt))
		default:
			wf.Hunger, wf.Fatigue = clamp01(wf.Hunger+float64(0.03*dt)), clamp01(wf.Fatigue+float64(0.01*dt))
		}
		if c := h.brains.Get(we).State; c.Decisions != wf.Decisions {
			if c.Choice != c.Previous && c.Decisions > 1 {
				h.picks++
			}
			wf.Decisions = c.Decisions
		}
	}
}

// Finalize does nothing.
func (s *Senses) Finalize(w *arche.World) {}

func clamp01(x float64) float64 { return max(0, min(1, x)) }

// Report writes what the hamlet did, and returns the diagnostics of misconfigured
// agents as an error.
func (h *Hamlet) Report(out io.Writer) error {
	logs, loads := 0, 0
	for _, e := range h.Villagers {
		v := h.villagers.Get(e)
		logs, loads = logs+v.Logs, loads+v.Loads
		sm := h.machines.Get(e)
		fmt.Fprintf(out, "villager %d: %s, %s felled, %s hauled\n", e.ID(), h.Machine.FullName(sm.Memory.Active), plural(v.Logs, "log"), plural(v.Loads, "load"))
	}
	for _, e := range h.Wolves {
		wf, st := h.wolves.Get(e), h.brains.Get(e).State
		fmt.Fprintf(out, "wolf %d: %s, hunger %.2f, fatigue %.2f, %d meals\n", e.ID(), h.Reasoner.ActionName(st.Choice), wf.Hunger, wf.Fatigue, wf.Meals)
	}
	fmt.Fprintf(out, "%d logs, %d loads, %d state transitions, %d changes of mind\n", logs, loads, h.transitions, h.picks)
	if r := systems.Diagnose(h.W); r.Total() > 0 {
		return fmt.Errorf("%s", r)
	}
	return nil
}

// plural writes n and the noun, with an s unless n is 1 ("1 load", "2 loads").
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
