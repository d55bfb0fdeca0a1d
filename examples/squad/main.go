// Command squad runs a squad of four whose members plan with a hierarchical task network
// (package ai/htn, through systems.HTN), loaded from squad.json: the leader takes cover
// and suppresses the enemy position; the others hold until suppression starts, then
// flank (a plan of higher priority: the running Hold is replaced) and assault from the
// sides; when the enemy is down everyone advances. The leader reloads when its magazine
// is empty. The squad's shared state (the enemy, its health, who suppresses) is an
// entity of its own that the members reference (components.SquadMember); a squad system
// updates it after the members think, so members only write their own components.
//
//	go run ./examples/squad [-seconds S] [-seed N] [-map FILE.map]
//	go run ./examples/squad -serve localhost:8080 [-speed X]
//
// With -serve it runs in real time (or -speed times real time) until interrupted and
// serves the live debugger (package systems/debugview): click a member to see its plan,
// its believed facts and its squad, and its plan transitions in the log.
//
// The map is generated from the seed (a walled town) unless -map names a MovingAI map.
// The log shows each member's new plans and the squad's events.
package main

import (
	"context"
	_ "embed"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"

	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ai/steer"
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

//go:embed squad.json
var domainFile []byte

// Tuning.
const (
	Step         = 0.05 // seconds per frame
	Members      = 4
	EnemyHealth  = 100.0
	AssaultDPS   = 6.0 // health per second each assaulting member deals within AssaultRange
	AssaultRange = 9.0 // cells
	FireEvery    = 0.5 // seconds between the suppressor's bursts (one round each)
	ReloadTime   = 2.0 // seconds
	FlankRadius  = 6.0 // cells from the enemy to the flanking points
	ArriveWithin = 0.8 // cells
)

// Facts of squad.json, in its order.
const (
	FactSlot = iota
	FactAmmo
	FactSuppressing
	FactEnemyDown
	FactInCover
	FactAtFlank
)

// SquadState is the squad's shared state, a component of the squad's own entity.
type SquadState struct {
	Enemy       r2.Vec // cells
	EnemyHealth float64
	DownAt      float64 // simulation time the enemy went down; 0 while up
	Suppressing int     // members suppressing in the last frame
	Cover       r2.Vec  // the suppressor's cover
	Flank       [Members]r2.Vec
	Start       r2.Vec
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("squad", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seconds := fs.Float64("seconds", 60, "simulated seconds")
	seed := fs.Uint64("seed", 5, "seed of the map and the positions")
	mapFile := fs.String("map", "", "a MovingAI .map file instead of the generated map")
	serveAddr := fs.String("serve", "", "run in real time until interrupted and serve the live debugger at this address (e.g. localhost:8080)")
	speed := fs.Float64("speed", 1, "-serve: pace in multiples of real time (0: unpaced)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if !(*seconds > 0) {
		fmt.Fprintln(stderr, "squad: -seconds must be positive")
		return 2
	}
	var g *grid.Grid
	if *mapFile != "" {
		var err error
		if g, err = grid.LoadMap(*mapFile); err != nil {
			fmt.Fprintln(stderr, "squad:", err)
			return 1
		}
	} else {
		g = scenario.GenerateMap(40, *seed)
	}
	if *serveAddr != "" {
		sc, err := build(stdout, g, *seed, *seconds)
		if err != nil {
			fmt.Fprintln(stderr, "squad:", err)
			return 1
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return serve.Run("squad", ctx, sc.World, sc.Sched, *serveAddr, *speed, stdout, stderr)
	}
	if err := Run(stdout, g, *seed, *seconds); err != nil {
		fmt.Fprintln(stderr, "squad:", err)
		return 1
	}
	return 0
}

// game is what the operators and the sensor need besides the systems.Agent view.
type game struct {
	squads  generic.Map[SquadState]
	members generic.Map[components.SquadMember]
}

func (g *game) squadOf(a *systems.Agent) (*SquadState, components.SquadMember) {
	m := *g.members.Get(a.Entity)
	return g.squads.Get(m.Squad), m
}

// moveTo walks a to p; Success once there.
func moveTo(a *systems.Agent, p r2.Vec) htn.Status {
	if r2.Norm(r2.Sub(a.Position.Vec, p)) <= ArriveWithin {
		a.Intent.Move = false
		return htn.Success
	}
	a.Intent.Move, a.Intent.Goal = true, p
	return htn.Running
}

// Registry registers the operators and the sensor of squad.json and loads it.
func (g *game) Registry() (*htn.Registry, htn.ID, error) {
	r := &htn.Registry{}
	stop := func(c *htn.Context) { systems.PlanAgent(c.Agent).Intent.Move = false }
	ops := []struct {
		name string
		run  htn.Operator
	}{
		{"Advance", func(c *htn.Context) htn.Status {
			a := systems.PlanAgent(c.Agent)
			sq, _ := g.squadOf(a)
			moveTo(a, sq.Enemy)
			return htn.Running // hold the taken position
		}},
		{"Reload", func(c *htn.Context) htn.Status {
			systems.PlanAgent(c.Agent).Intent.Move = false
			if c.Time-c.Start < ReloadTime-1e-9 {
				return htn.Running
			}
			return htn.Success
		}},
		{"TakeCover", func(c *htn.Context) htn.Status {
			a := systems.PlanAgent(c.Agent)
			sq, _ := g.squadOf(a)
			return moveTo(a, sq.Cover)
		}},
		{"Suppress", func(c *htn.Context) htn.Status {
			a := systems.PlanAgent(c.Agent)
			a.Intent.Move = false
			// one round per burst: the believed ammo counts down as it fires
			if bursts := int((c.Time - c.Start + 1e-9) / FireEvery); float64(bursts) > c.Memory[0] {
				c.Memory[0] = float64(bursts)
				c.State[FactAmmo]--
			}
			if c.State[FactAmmo] <= 0 {
				return htn.Success
			}
			return htn.Running
		}},
		{"MoveToFlank", func(c *htn.Context) htn.Status {
			a := systems.PlanAgent(c.Agent)
			sq, m := g.squadOf(a)
			return moveTo(a, sq.Flank[m.Slot])
		}},
		{"Assault", func(c *htn.Context) htn.Status {
			systems.PlanAgent(c.Agent).Intent.Move = false
			return htn.Running // the squad system deals the damage
		}},
		{"Hold", func(c *htn.Context) htn.Status {
			systems.PlanAgent(c.Agent).Intent.Move = false
			return htn.Running
		}},
	}
	for _, op := range ops {
		if err := r.RegisterOperator(op.name, op.run, stop); err != nil {
			return nil, 0, err
		}
	}
	if err := r.RegisterSensor("SquadSensor", func(c *htn.Context) {
		a := systems.PlanAgent(c.Agent)
		sq, m := g.squadOf(a)
		c.State[FactSlot] = int32(m.Slot)
		c.State[FactSuppressing] = b2i(sq.Suppressing > 0)
		c.State[FactEnemyDown] = b2i(sq.EnemyHealth <= 0)
	}); err != nil {
		return nil, 0, err
	}
	id, err := r.LoadJSON("squad.json", domainFile)
	return r, id, err
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// Run plays the scenario on g for seconds and writes the log to out. A fault of setup
// found by a system's Initialize (a missing resource, an unusable setting) is returned
// as an *ecs.SetupError.
func Run(out io.Writer, g *grid.Grid, seed uint64, seconds float64) error {
	sc, err := build(out, g, seed, seconds)
	if err != nil {
		return err
	}
	return sc.Play(int(seconds/Step + 0.5))
}

// build sets the scenario up on g: the world, its squad, the systems (not initialized)
// and the outcome after seconds.
func build(out io.Writer, g *grid.Grid, seed uint64, seconds float64) (*scene.Scene, error) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)
	gm := &game{squads: generic.NewMap[SquadState](w), members: generic.NewMap[components.SquadMember](w)}
	reg, id, err := gm.Registry()
	if err != nil {
		return nil, err
	}
	arche.AddResource(w, reg)
	st, err := layout(g, seed)
	if err != nil {
		return nil, err
	}
	squadMap := generic.NewMap1[SquadState](w)
	squad := squadMap.NewWith(&st)
	var initial htn.State
	initial[FactAmmo] = 6
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.HTNThinker{Registry: reg, Domain: id, State: initial},
		systems.With(components.SquadMember{Squad: squad}))
	if err != nil {
		return nil, err
	}
	sp.Seed = seed
	sp.SpawnBatch(Members, func(i int, a *systems.Spawned) {
		a.Position.Vec = r2.Add(st.Start, r2.Vec{X: float64(float64(i%2) * 0.8), Y: float64(float64(i/2) * 0.8)})
		systems.Component[components.SquadMember](a).Slot = uint8(i)
	})
	fmt.Fprintf(out, "map %dx%d: squad at (%.1f, %.1f), enemy at (%.1f, %.1f), cover at (%.1f, %.1f)\n",
		g.Width(), g.Height(), st.Start.X, st.Start.Y, st.Enemy.X, st.Enemy.Y, st.Cover.X, st.Cover.Y)
	d := reg.Domain(id)
	narrator := &Narrator{Out: out, Domain: d}
	s := ecs.NewScheduler(ecs.NewClockSystem(Step), &systems.Spatial{}, &systems.HTN{}, &Squad{Squad: squad},
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}, narrator)
	return &scene.Scene{World: w, Sched: s, Report: func() error { return report(out, w, gm, squad, seconds) }}, nil
}

// report writes where the squad and the enemy are after seconds, and returns the
// diagnostics of misconfigured agents as an error.
func report(out io.Writer, w *arche.World, gm *game, squad arche.Entity, seconds float64) error {
	final := gm.squads.Get(squad)
	at := 0
	q := generic.NewFilter1[components.Position]().With(generic.T[components.SquadMember]()).Query(w)
	for q.Next() {
		if r2.Norm(r2.Sub(q.Get().Vec, final.Enemy)) < 3 {
			at++
		}
	}
	if final.EnemyHealth > 0 {
		fmt.Fprintf(out, "after %.0f s the enemy holds with %.0f health; %d members at its position\n", seconds, final.EnemyHealth, at)
	} else {
		fmt.Fprintf(out, "enemy down at %.2f s; after %.0f s %d members at its position\n", final.DownAt, seconds, at)
	}
	if r := systems.Diagnose(w); r.Total() > 0 {
		return fmt.Errorf("%s", r)
	}
	return nil
}

// layout picks the squad's start, the enemy (far from the start), the suppressor's
// cover (about halfway) and the flanking points around the enemy: open cells connected
// to the start, drawn from seed.
func layout(g *grid.Grid, seed uint64) (SquadState, error) {
	r := steer.NewRand(seed ^ 0x5a0ad)
	var open []grid.Cell
	for y := range g.Height() {
		for x := range g.Width() {
			if c := (grid.Cell{X: int32(x), Y: int32(y)}); g.Passable(c) {
				open = append(open, c)
			}
		}
	}
	if len(open) == 0 {
		return SquadState{}, fmt.Errorf("the map has no open cell")
	}
	start := open[int(r.Float64()*float64(len(open)))]
	var enemy grid.Cell
	best := -1.0
	for range 200 {
		c := open[int(r.Float64()*float64(len(open)))]
		if dist := r2.Norm(r2.Sub(g.Center(c), g.Center(start))); dist > best && g.Connected(start, c) {
			best, enemy = dist, c
		}
	}
	nearest := func(p r2.Vec) r2.Vec { // the open cell connected to start nearest to p
		bestD := math.Inf(1)
		var out grid.Cell
		for _, c := range open {
			if d := r2.Norm(r2.Sub(g.Center(c), p)); d < bestD && g.Connected(start, c) {
				bestD, out = d, c
			}
		}
		return g.Center(out)
	}
	st := SquadState{Start: g.Center(start), Enemy: g.Center(enemy), EnemyHealth: EnemyHealth}
	dir := r2.Sub(st.Enemy, st.Start)
	st.Cover = nearest(r2.Add(st.Start, r2.Vec{X: float64(0.55 * dir.X), Y: float64(0.55 * dir.Y)}))
	back := math.Atan2(-dir.Y, -dir.X) // from the enemy towards the squad
	for slot, turn := range [Members]float64{0, 1.3, -1.3, math.Pi} {
		a := back + turn
		st.Flank[slot] = nearest(r2.Add(st.Enemy, r2.Vec{X: float64(FlankRadius * math.Cos(a)), Y: float64(FlankRadius * math.Sin(a))}))
	}
	return st, nil
}

// Squad updates the squad's shared state after the members think: who suppresses, and
// the damage the assaulting members deal.
type Squad struct {
	Squad  arche.Entity
	states generic.Map[SquadState]
	filter *generic.Filter3[components.HTNPlanner, components.SquadMember, components.Position]
	clock  *ecs.Clock
	tasks  [2]htn.TaskID // Suppress, Assault
}

// Initialize builds the filter.
func (s *Squad) Initialize(w *arche.World) {
	s.states = generic.NewMap[SquadState](w)
	s.filter = generic.NewFilter3[components.HTNPlanner, components.SquadMember, components.Position]()
	s.clock = ecs.ClockOf(w)
	reg := ecs.Resource[htn.Registry](w)
	d := reg.Domain(1)
	s.tasks[0], _ = d.TaskIndex("Suppress")
	s.tasks[1], _ = d.TaskIndex("Assault")
}

// Update counts the suppressors and applies the assault's damage.
func (s *Squad) Update(w *arche.World) {
	sq := s.states.Get(s.Squad)
	sq.Suppressing = 0
	q := s.filter.Query(w)
	for q.Next() {
		p, m, pos := q.Get()
		if m.Squad != s.Squad || !p.Run.Started {
			continue
		}
		switch p.Run.Current() {
		case s.tasks[0]:
			sq.Suppressing++
		case s.tasks[1]:
			if sq.EnemyHealth > 0 && r2.Norm(r2.Sub(pos.Vec, sq.Enemy)) <= AssaultRange {
				sq.EnemyHealth -= float64(AssaultDPS * s.clock.DT)
				if sq.EnemyHealth <= 0 {
					sq.DownAt = s.clock.Time + s.clock.DT
				}
			}
		}
	}
}

// Finalize does nothing.
func (s *Squad) Finalize(w *arche.World) {}

// Narrator logs each member's plans as they are adopted, and the squad's events.
type Narrator struct {
	Out      io.Writer
	Domain   *htn.Domain
	filter   *generic.Filter2[components.HTNPlanner, components.SquadMember]
	squads   generic.Map[SquadState]
	clock    *ecs.Clock
	plans    [Members]uint32
	replaced [Members]uint32
	supp     int
	down     bool
}

// Initialize builds the filter.
func (n *Narrator) Initialize(w *arche.World) {
	n.filter = generic.NewFilter2[components.HTNPlanner, components.SquadMember]()
	n.squads = generic.NewMap[SquadState](w)
	n.clock = ecs.ClockOf(w)
}

// Update logs what changed in the frame.
func (n *Narrator) Update(w *arche.World) {
	now := n.clock.Time + n.clock.DT
	q := n.filter.Query(w)
	var squad arche.Entity
	for q.Next() {
		p, m := q.Get()
		squad = m.Squad
		if p.Run.Plans == n.plans[m.Slot] {
			continue
		}
		n.plans[m.Slot] = p.Run.Plans
		var tasks []string
		for _, t := range p.Run.Plan.TaskList() {
			tasks = append(tasks, n.Domain.TaskName(t))
		}
		why := ""
		if p.Run.Replaced != n.replaced[m.Slot] {
			n.replaced[m.Slot] = p.Run.Replaced
			why = " (replaces the running plan)"
		}
		fmt.Fprintf(n.Out, "%6.2fs  member %d plans %-9s %s%s\n", now, m.Slot, methodName(&p.Run.Plan)+":",
			strings.Join(tasks, " "), why)
	}
	if squad.IsZero() {
		return
	}
	sq := n.squads.Get(squad)
	if (sq.Suppressing > 0) != (n.supp > 0) {
		if sq.Suppressing > 0 {
			fmt.Fprintf(n.Out, "%6.2fs  suppressing fire on the enemy\n", now)
		} else {
			fmt.Fprintf(n.Out, "%6.2fs  suppression stops\n", now)
		}
	}
	n.supp = sq.Suppressing
	if sq.EnemyHealth <= 0 && !n.down {
		n.down = true
		fmt.Fprintf(n.Out, "%6.2fs  the enemy is down\n", now)
	}
}

// methodName names the root method of a plan (the first entry of its MTR).
func methodName(p *htn.Plan) string {
	if p.MTRLen == 0 {
		return "?"
	}
	return rootMethods[p.MTR[0]]
}

var rootMethods = [...]string{"Advance", "Reload", "Suppress", "Flank", "Hold"}

// Finalize does nothing.
func (n *Narrator) Finalize(w *arche.World) {}
