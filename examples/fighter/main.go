// Command fighter runs a fighter whose behavior tree has a combat branch in which a
// utility reasoner chooses the attack: melee when the enemy is close, ranged when it is
// at a distance and there is ammunition, reload when the magazine is empty and there is
// room to do it. The tree runs through systems.Decision at 10 Hz; the choice is made by
// hybrid.UtilitySelector, which halts the abandoned attack when the choice changes. It
// prints every change of attack with its scores, and what the attacks do.
//
//	go run ./examples/fighter
//
// Script: an enemy walks in from 9 cells, fights at close range, backs off from 11 s,
// and leaves sight at 16 s.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/hybrid"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/examples/internal/scene"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Tuning.
const (
	Step       = 0.1 // seconds per frame
	Magazine   = 3
	ShotEvery  = 0.5 // seconds
	ReloadTime = 1.5 // seconds
	SwingEvery = 0.8 // seconds
	SightRange = 12.0
)

// Fighter is the fighter's own state: what it knows of the enemy, its ammunition, and
// its utility state for the attack choice (every score of the last decision).
type Fighter struct {
	EnemyDist float64 // cells
	Visible   bool
	Ammo      int
	Attack    utility.State
	Hits      int
}

// Actions of the attack reasoner, in order; the selector's children follow it.
const (
	Melee = iota
	Ranged
	Reload
)

type game struct {
	out      io.Writer
	fighters generic.Map[Fighter]
	attack   *utility.Reasoner
}

func (g *game) fighter(agent any) *Fighter {
	return g.fighters.Get(systems.UtilityAgent(agent).Entity)
}

func (g *game) say(a *systems.Agent, format string, args ...any) {
	fmt.Fprintf(g.out, "%5.1fs  "+format+"\n", append([]any{a.Clock.Time}, args...)...)
}

// AttackReasoner builds the utility choice of attack.
func (g *game) AttackReasoner() (*utility.Reasoner, error) {
	dist := func(agent any) float64 { return g.fighter(agent).EnemyDist }
	ammo := func(agent any) float64 { return float64(g.fighter(agent).Ammo) }
	return utility.New("attack", utility.Policy{Hysteresis: 0.15},
		utility.Action{Name: "melee", Considerations: []utility.Consideration{
			{Name: "close", Input: dist, Range: utility.Range{Min: 0, Max: 6}, Curve: utility.Logistic(-12, 0.35)},
		}},
		utility.Action{Name: "ranged", Considerations: []utility.Consideration{
			{Name: "at range", Input: dist, Range: utility.Range{Min: 0, Max: 12}, Curve: utility.Normal(0.55, 0.25)},
			{Name: "loaded", Input: ammo, Range: utility.Range{Min: 0, Max: Magazine}, Curve: utility.Smoothstep(0, 0.34)},
		}},
		utility.Action{Name: "reload", Weight: 0.9, Considerations: []utility.Consideration{
			{Name: "empty", Input: ammo, Range: utility.Range{Min: 0, Max: Magazine}, Curve: utility.InverseQuadratic()},
			{Name: "room", Input: dist, Range: utility.Range{Min: 1, Max: 5}, Curve: utility.Linear(1, 0)},
		}},
	)
}

// Tree builds the fighter's tree:
//
//	ReactiveSelector
//	├── ReactiveSequence "combat"
//	│   ├── Condition EnemyVisible
//	│   └── UtilitySelector "attack"   (the reasoner picks the child)
//	│       ├── Action Swing
//	│       ├── Action Shoot
//	│       └── Action Reload
//	└── Action Guard
func (g *game) Tree() (*bt.Tree, error) {
	state := func(c *bt.Context) (*utility.State, utility.Source) {
		a := systems.AgentOf(c)
		var src utility.Source
		if a.Rand != nil {
			src = &a.Rand.Rand
		}
		return &g.fighters.Get(a.Entity).Attack, src
	}
	halted := func(name string) func(*bt.Context) {
		return func(c *bt.Context) { g.say(systems.AgentOf(c), "  bt: %s halted", name) }
	}
	return bt.Compile("fighter", bt.ReactiveSelector(
		bt.ReactiveSequence(
			bt.Condition("EnemyVisible", func(c *bt.Context) bool { return g.fighter(c.Agent).Visible }),
			hybrid.UtilitySelector("attack", g.attack, state,
				bt.Action("Swing", g.every(SwingEvery, "swing", nil)).OnHalt(halted("swing")),
				bt.Action("Shoot", g.every(ShotEvery, "shoot", func(f *Fighter) { f.Ammo-- })).OnHalt(halted("shoot")),
				bt.Action("Reload", g.reload).OnHalt(halted("reload")),
			),
		).Named("combat"),
		bt.Action("Guard", func(c *bt.Context) bt.Status { return bt.Running }),
	))
}

// every returns an attack that strikes at once and then every period seconds.
func (g *game) every(period float64, verb string, use func(*Fighter)) func(*bt.Context) bt.Status {
	return func(c *bt.Context) bt.Status {
		a := systems.AgentOf(c)
		m := c.Node()
		if c.Time < m.Timer {
			return bt.Running
		}
		m.Timer = c.Time + period - 1e-9
		f := g.fighters.Get(a.Entity)
		if use != nil {
			use(f)
		}
		f.Hits++
		g.say(a, "  bt: %s (ammo %d)", verb, f.Ammo)
		return bt.Running
	}
}

func (g *game) reload(c *bt.Context) bt.Status {
	a := systems.AgentOf(c)
	m := c.Node()
	if m.Count == 0 {
		m.Count, m.Timer = 1, c.Time+ReloadTime-1e-9
		g.say(a, "  bt: reloading")
	}
	if c.Time < m.Timer {
		return bt.Running
	}
	g.fighters.Get(a.Entity).Ammo = Magazine
	g.say(a, "  bt: reloaded")
	return bt.Success
}

// Narrator prints each change of attack choice with its scores, after the decision.
type Narrator struct {
	g      *game
	filter *generic.Filter1[Fighter]
	clock  *ecs.Clock
}

// Initialize builds the filter.
func (s *Narrator) Initialize(w *arche.World) {
	s.filter = generic.NewFilter1[Fighter]()
	s.clock = ecs.ClockOf(w)
}

// Update prints the changes.
func (s *Narrator) Update(w *arche.World) {
	q := s.filter.Query(w)
	for q.Next() {
		st := &q.Get().Attack
		if st.Decisions == 0 || st.Choice == st.Previous {
			continue
		}
		fmt.Fprintf(s.g.out, "%5.1fs  attack: %s → %s   melee %.2f ranged %.2f reload %.2f\n", s.clock.Time,
			s.g.attack.ActionName(st.Previous), s.g.attack.ActionName(st.Choice),
			st.Scores[Melee], st.Scores[Ranged], st.Scores[Reload])
		st.Previous = st.Choice // printed once
	}
}

// Finalize does nothing.
func (s *Narrator) Finalize(w *arche.World) {}

// Script moves the enemy.
type Script struct {
	filter *generic.Filter1[Fighter]
	clock  *ecs.Clock
}

// Initialize builds the filter.
func (s *Script) Initialize(w *arche.World) {
	s.filter = generic.NewFilter1[Fighter]()
	s.clock = ecs.ClockOf(w)
}

// Update moves the enemy: in at 1 cell/s to 1 cell, out from 11 s at 2 cells/s.
func (s *Script) Update(w *arche.World) {
	now, dt := s.clock.Time, s.clock.DT
	q := s.filter.Query(w)
	for q.Next() {
		f := q.Get()
		switch {
		case now >= 11:
			f.EnemyDist += 2 * dt
		case f.EnemyDist > 1:
			f.EnemyDist -= dt
		}
		f.Visible = f.EnemyDist <= SightRange
	}
}

// Finalize does nothing.
func (s *Script) Finalize(w *arche.World) {}

// Run plays the script for 18 s and writes the log to out. A fault of setup found by a
// system's Initialize (a missing resource, an unusable setting) is returned as an
// *ecs.SetupError.
func Run(out io.Writer) error {
	sc, err := build(out)
	if err != nil {
		return err
	}
	return sc.Play(180)
}

// build sets the script up: the world, the fighter, the systems (not initialized) and
// the last line of the log.
func build(out io.Writer) (*scene.Scene, error) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16)) // systems.Decision reads the map
	g := &game{out: out, fighters: generic.NewMap[Fighter](w)}
	var err error
	if g.attack, err = g.AttackReasoner(); err != nil {
		return nil, err
	}
	tree, err := g.Tree()
	if err != nil {
		return nil, err
	}
	fighters, err := systems.NewSpawner(w, systems.Thinker{Tree: tree, Interval: 0.1},
		systems.With(Fighter{EnemyDist: 9, Visible: true, Ammo: Magazine}))
	if err != nil {
		return nil, err
	}
	fighters.Seed = 1
	e := fighters.Spawn(r2.Vec{}, func(a *systems.Spawned) {
		systems.Component[Fighter](a).Attack = g.attack.NewState() // its own scores
	})

	s := ecs.NewScheduler(ecs.NewClockSystem(Step), &systems.Decision{}, &Narrator{g: g}, &Script{})
	return &scene.Scene{World: w, Sched: s, Report: func() error {
		f := g.fighters.Get(e)
		_, err := fmt.Fprintf(out, "attacks %d, ammo %d, last choice %s\n", f.Hits, f.Ammo, g.attack.ActionName(f.Attack.Choice))
		return err
	}}, nil
}

func main() {
	if err := Run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fighter:", err)
		os.Exit(1)
	}
}
