// Command goap runs workers that plan with goal-oriented action planning (package
// ai/goap, through systems.GOAP): to deliver planks they walk to the forge for an axe,
// chop wood in the forest, make planks at the bench and carry them to the depot. An axe
// lasts three chops; when it breaks mid-chop the step fails and the worker replans
// (back to the forge for a new axe, or by hand if that were cheaper). The log shows each
// plan with its cost and each step as it starts (a log of transitions, not of ticks).
//
//	go run ./examples/goap [-gatherers N] [-seconds S] [-seed N] [-map FILE.map]
//	go run ./examples/goap -serve localhost:8080 [-speed X] [-gatherers N]
//
// -gatherers is the number of workers (agents) that gather wood; it is not
// cmd/bench's -workers (goroutines).
//
// With -serve it runs in real time (or -speed times real time) until interrupted and
// serves the live debugger (package systems/debugview): click a worker to see its goal,
// its plan with the current step, its believed facts, and its plan transitions in the log.
//
// The map is generated from the seed (a walled town) unless -map names a MovingAI map.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/archai-go/archai/ai/goap"
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

// Step is the frame's length in seconds.
const Step = 0.05

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("goap", flag.ContinueOnError)
	fs.SetOutput(stderr)
	gatherers := fs.Int("gatherers", 1, "number of workers gathering wood, agents (the log follows the first)")
	seconds := fs.Float64("seconds", 60, "simulated seconds")
	seed := fs.Uint64("seed", 3, "seed of the map and the places")
	mapFile := fs.String("map", "", "a MovingAI .map file instead of the generated map")
	serveAddr := fs.String("serve", "", "run in real time until interrupted and serve the live debugger at this address (e.g. localhost:8080)")
	speed := fs.Float64("speed", 1, "-serve: pace in multiples of real time (0: unpaced)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *gatherers <= 0 || !(*seconds > 0) {
		fmt.Fprintln(stderr, "goap: -gatherers and -seconds must be positive")
		return 2
	}
	var g *grid.Grid
	if *mapFile != "" {
		var err error
		if g, err = grid.LoadMap(*mapFile); err != nil {
			fmt.Fprintln(stderr, "goap:", err)
			return 1
		}
	} else {
		g = scenario.GenerateMap(32, *seed)
	}
	if *serveAddr != "" {
		sc, err := build(stdout, g, *seed, *gatherers, *seconds)
		if err != nil {
			fmt.Fprintln(stderr, "goap:", err)
			return 1
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return serve.Run("goap", ctx, sc.World, sc.Sched, *serveAddr, *speed, stdout, stderr)
	}
	if err := Run(stdout, g, *seed, *gatherers, *seconds); err != nil {
		fmt.Fprintln(stderr, "goap:", err)
		return 1
	}
	return 0
}

// Run plays the scenario on g for seconds and writes the log to out. A fault of setup
// found by a system's Initialize (a missing resource, an unusable setting) is returned
// as an *ecs.SetupError.
func Run(out io.Writer, g *grid.Grid, seed uint64, workers int, seconds float64) error {
	sc, err := build(out, g, seed, workers, seconds)
	if err != nil {
		return err
	}
	return sc.Play(int(seconds/Step + 0.5))
}

// build sets the scenario up on g: the world, the workers, the systems (not
// initialized) and the outcome after seconds.
func build(out io.Writer, g *grid.Grid, seed uint64, workers int, seconds float64) (*scene.Scene, error) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)
	places, err := pickPlaces(g, seed)
	if err != nil {
		return nil, err
	}
	ws := generic.NewMap[Worker](w)
	d, _, err := Domain(&places, func(a *systems.Agent) *Worker { return ws.Get(a.Entity) })
	if err != nil {
		return nil, err
	}
	reg := &goap.Registry{}
	id, err := reg.Add(d)
	if err != nil {
		return nil, err
	}
	arche.AddResource(w, reg)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.GOAPThinker{Registry: reg, Domain: id}, systems.With(Worker{}))
	if err != nil {
		return nil, err
	}
	sp.Seed = seed
	start := places[Depot]
	sp.SpawnBatch(workers, func(i int, a *systems.Spawned) { a.Position.Vec = start })
	for p := Forge; p < NumPlaces; p++ {
		fmt.Fprintf(out, "%-7s at (%4.1f, %4.1f)\n", placeNames[p], places[p].X, places[p].Y)
	}
	gs := &systems.GOAP{Log: true} // the narrator reads its Events
	narrator := &Narrator{Out: out, Domain: d, GOAP: gs}
	s := ecs.NewScheduler(ecs.NewClockSystem(Step), &systems.Spatial{}, gs, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}, narrator)
	return &scene.Scene{World: w, Sched: s, Report: func() error { return report(out, w, workers, narrator, seconds) }}, nil
}

// report writes the deliveries after seconds and returns the diagnostics of
// misconfigured agents as an error.
func report(out io.Writer, w *arche.World, workers int, narrator *Narrator, seconds float64) error {
	total, broken := 0, 0
	q := generic.NewFilter1[Worker]().Query(w)
	for q.Next() {
		wk := q.Get()
		total += wk.Delivered
		broken += wk.Broken
	}
	fmt.Fprintf(out, "%d worker(s) in %.0f s: %d deliveries, %d axes broken, %d plans made\n",
		workers, seconds, total, broken, narrator.Plans)
	if r := systems.Diagnose(w); r.Total() > 0 {
		return fmt.Errorf("%s", r)
	}
	return nil
}

// pickPlaces puts the forge, forest, bench and depot on open cells of g drawn from seed,
// at least a quarter of the map's side apart where the map allows.
func pickPlaces(g *grid.Grid, seed uint64) (Places, error) {
	var p Places
	r := steer.NewRand(seed ^ 0x5eed)
	side := float64(min(g.Width(), g.Height()))
	var first grid.Cell
	for i := Forge; i < NumPlaces; i++ {
		found := false
		for try := 0; try < 10000 && !found; try++ {
			c := grid.Cell{X: int32(r.Float64() * float64(g.Width())), Y: int32(r.Float64() * float64(g.Height()))}
			if !g.Passable(c) || (i > Forge && !g.Connected(first, c)) {
				continue
			}
			pos := g.Center(c)
			far := true
			for j := Forge; j < i && try < 5000; j++ {
				if r2.Norm(r2.Sub(pos, p[j])) < side/4 {
					far = false
				}
			}
			if far {
				p[i], found = pos, true
				if i == Forge {
					first = c
				}
			}
		}
		if !found {
			return p, fmt.Errorf("no open cell for the %s", placeNames[i])
		}
	}
	return p, nil
}

// Narrator logs the first worker's plans and steps as they change, after the frame,
// from the GOAP system's Events (GOAP.Log on): every step that starts is logged,
// also one that starts and completes within one think (TakeAxe right after
// GoToForge, Deliver right after GoToDepot), which a look at Run.Current after the
// frame would miss. The wood and planks shown are those at the end of the frame.
type Narrator struct {
	Out    io.Writer
	Domain *goap.Domain
	GOAP   *systems.GOAP // with Log set
	Plans  int           // plans made by every worker

	filter *generic.Filter2[components.GOAPPlanner, Worker]
	clock  *ecs.Clock
	first  arche.Entity
	broken int
	seen   map[arche.Entity]uint32
}

// Initialize builds the filter.
func (n *Narrator) Initialize(w *arche.World) {
	n.filter = generic.NewFilter2[components.GOAPPlanner, Worker]()
	n.clock = ecs.ClockOf(w)
	n.seen = map[arche.Entity]uint32{}
}

// Update logs what changed.
func (n *Narrator) Update(w *arche.World) {
	q := n.filter.Query(w)
	for q.Next() {
		p, wk := q.Get()
		e := q.Entity()
		n.Plans += int(p.Run.Plans - n.seen[e])
		n.seen[e] = p.Run.Plans
		if n.first.IsZero() {
			n.first = e
		}
		if e != n.first {
			continue
		}
		now := n.clock.Time + n.clock.DT
		if wk.Broken != n.broken {
			n.broken = wk.Broken
			fmt.Fprintf(n.Out, "%6.2fs  the axe breaks (chop %d)\n", now, AxeLife)
		}
		for _, ev := range n.GOAP.Events {
			if ev.Entity != e {
				continue
			}
			switch ev.Event.Kind {
			case goap.EventPlan, goap.EventReplace: // the frame's last plan is p.Run.Plan: one a think
				var steps []string
				for _, a := range p.Run.Plan.Actions() {
					steps = append(steps, n.Domain.ActionName(a))
				}
				fmt.Fprintf(n.Out, "%6.2fs  plan %d for %s, cost %g: %s\n", now, p.Run.Plans,
					n.Domain.GoalName(p.Run.Plan.Goal), p.Run.Plan.Cost, strings.Join(steps, " "))
			case goap.EventStart:
				fmt.Fprintf(n.Out, "%6.2fs    %s (wood %d, planks %d, deliveries %d)\n", now, n.Domain.ActionName(ev.Event.Action),
					p.State[2], p.State[3], wk.Delivered)
			}
		}
	}
}

// Finalize does nothing.
func (n *Narrator) Finalize(w *arche.World) {}
