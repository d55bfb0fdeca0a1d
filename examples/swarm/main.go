// Command swarm runs a crowd that follows a shared flow field to a goal that
// moves every few seconds (Emerson, Game AI Pro ch. 23), with separation and
// wall avoidance, and writes an animated GIF of the crowd and the field.
//
//	go run ./examples/swarm [-agents N] [-seconds S] [-seed N] [-map FILE.map] [-gif swarm.gif]
//	go run ./examples/swarm -serve localhost:8080 [-speed X]
//
// With -serve it runs in real time (or -speed times real time) until
// interrupted and serves the live debugger (package systems/debugview) at
// that address: click an agent to see its flow field.
//
// Every second it prints how many agents are near the goal, how many have
// arrived and stopped there, and how many are inside a wall (always 0).
package main

import (
	"context"
	"flag"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"os/signal"

	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/examples/internal/serve"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems/render"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("swarm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	agents := fs.Int("agents", 10000, "number of agents")
	seconds := fs.Float64("seconds", 20, "simulated seconds at 60 frames per second")
	seed := fs.Uint64("seed", 1, "seed of the map, the agents and the goals")
	mapFile := fs.String("map", "", "a MovingAI .map file instead of the generated map")
	gifPath := fs.String("gif", "swarm.gif", "write an animated GIF here (empty: none)")
	serveAddr := fs.String("serve", "", "run in real time until interrupted and serve the live debugger at this address (e.g. localhost:8080) instead of writing a GIF")
	speed := fs.Float64("speed", 1, "-serve: pace in multiples of real time (0: unpaced)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *agents <= 0 || !(*seconds > 0) {
		fmt.Fprintln(stderr, "swarm: -agents and -seconds must be positive")
		return 2
	}
	var g *grid.Grid
	if *mapFile != "" {
		var err error
		if g, err = grid.LoadMap(*mapFile); err != nil {
			fmt.Fprintln(stderr, "swarm:", err)
			return 1
		}
	}
	sw, err := scenario.NewSwarm(scenario.SwarmConfig{Agents: *agents, Seed: *seed, Grid: g, GoalEvery: 5})
	if err != nil {
		fmt.Fprintln(stderr, "swarm:", err)
		return 1
	}
	g = sw.Grid
	sched := ecs.NewScheduler(sw.Systems()...)
	if *serveAddr != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return serve.Run("swarm", ctx, sw.World, sched, *serveAddr, *speed, stdout, stderr)
	}
	if err := sched.InitializeChecked(sw.World); err != nil { // a fault of setup (*ecs.SetupError): one line, exit 1
		fmt.Fprintln(stderr, "swarm:", err)
		return 1
	}
	defer sched.Finalize(sw.World)

	scale := max(1, 512/max(g.Width(), g.Height()))
	background := render.Map(g, scale)
	agentsF := generic.NewFilter2[components.Position, components.FlowFollower]()
	var frames []*image.Paletted
	fmt.Fprintf(stdout, "%d agents on a %dx%d map, goal moves every 5 s\n", *agents, g.Width(), g.Height())
	fmt.Fprintf(stdout, "near: within %.0f cells of the goal; arrived: stopped in the crowd gathered there, along the field\n", scenario.NearGoal)
	fmt.Fprintf(stdout, "%5s %12s %10s %9s %9s\n", "time", "goal", "near", "arrived", "in walls")
	total := int(*seconds * 60)
	for f := 1; f <= total; f++ {
		sched.Update(sw.World)
		if f%60 == 0 {
			arrived, walls := 0, 0
			q := agentsF.Query(sw.World)
			for q.Next() {
				p, ff := q.Get()
				if ff.Arrived {
					arrived++
				}
				if !g.Passable(g.CellAt(p.Vec)) {
					walls++
				}
			}
			goal := sw.Director.Goal
			fmt.Fprintf(stdout, "%4.0fs %12s %10d %9d %9d\n", float64(f)/60, fmt.Sprintf("(%d,%d)", goal.X, goal.Y),
				sw.Director.Near, arrived, walls)
		}
		if *gifPath != "" && f%6 == 0 {
			frames = append(frames, draw(background, scale, sw, agentsF))
		}
	}
	if *gifPath != "" {
		if err := render.WriteGIF(*gifPath, frames, 10); err != nil {
			fmt.Fprintln(stderr, "swarm:", err)
			return 1
		}
		fmt.Fprintf(stdout, "wrote %s (%d frames)\n", *gifPath, len(frames))
	}
	return 0
}

// legend names the colours of draw's frames.
var legend = []render.Item{
	{Colour: render.Blue, Label: "agent"}, {Colour: render.Green, Label: "arrived"},
	{Colour: render.Red, Label: "goal"}, {Colour: render.Faint, Label: "flow field"},
}

// draw renders the field's directions (every few cells), the agents and the
// goal, captioned with the simulation time and the legend.
func draw(background *image.Paletted, scale int, sw *scenario.Swarm, f *generic.Filter2[components.Position, components.FlowFollower]) *image.Paletted {
	img := render.Clone(background)
	g := sw.Grid
	if field, ready := sw.Flow.Cache.Request(sw.Director.Goal); ready { // drawn once built, without forcing the build
		step := max(4, g.Width()/48)
		for y := step / 2; y < g.Height(); y += step {
			for x := step / 2; x < g.Width(); x += step {
				c := grid.Cell{X: int32(x), Y: int32(y)}
				d := field.Direction(c)
				if d.X == 0 && d.Y == 0 {
					continue
				}
				p := g.Center(c)
				render.Line(img, scale, p, r2.Add(p, r2.Vec{X: float64(float64(step) * 0.45 * d.X), Y: float64(float64(step) * 0.45 * d.Y)}), render.Faint)
			}
		}
	}
	q := f.Query(sw.World)
	for q.Next() {
		p, ff := q.Get()
		c := render.Blue
		if ff.Arrived {
			c = render.Green
		}
		render.Dot(img, scale, p.Vec, max(1, scale/2), c)
	}
	goal := g.Center(sw.Director.Goal)
	for a := 0.0; a < 2*math.Pi; a += 0.2 {
		render.Dot(img, scale, r2.Add(goal, r2.Scale(2, r2.Vec{X: math.Cos(a), Y: math.Sin(a)})), scale, render.Red)
	}
	return render.Caption(img, ecs.ClockOf(sw.World).Time, legend...)
}
