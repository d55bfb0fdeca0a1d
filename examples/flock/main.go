// Command flock runs boids (Reynolds 1987): agents that keep apart
// (separation), match their neighbours' heading (alignment) and stay together
// (cohesion), wandering in a walled arena with pillars. It prints how ordered
// the flock is over time and can write an animated GIF.
//
//	go run ./examples/flock [-boids N] [-frames N] [-seed N] [-gif flock.gif]
//
// Polarisation is |mean of the boids' unit headings|: near 0 for a swarm
// milling in all directions, 1 for a flock all flying the same way.
package main

import (
	"flag"
	"fmt"
	"image"
	"io"
	"math"
	"os"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/render"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("flock", flag.ContinueOnError)
	fs.SetOutput(stderr)
	boids := fs.Int("boids", 1500, "number of boids")
	frames := fs.Int("frames", 900, "frames at dt = 1/60 s")
	seed := fs.Uint64("seed", 1, "random seed")
	gifPath := fs.String("gif", "", "write an animated GIF of the flock to this file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *boids <= 0 || *frames <= 0 {
		fmt.Fprintln(stderr, "flock: -boids and -frames must be positive")
		return 2
	}

	const size = 96
	g := arena(size)
	world := arche.NewWorld()
	arche.AddResource(&world, g)
	if err := spawn(&world, g, *boids, *seed); err != nil {
		fmt.Fprintln(stderr, "flock:", err)
		return 1
	}

	sched := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	if err := sched.InitializeChecked(&world); err != nil { // a fault of setup (*ecs.SetupError): one line, exit 1
		fmt.Fprintln(stderr, "flock:", err)
		return 1
	}
	defer sched.Finalize(&world)

	motion := generic.NewFilter2[components.Position, components.Velocity]()
	background := render.Map(g, 4)
	var gifFrames []*image.Paletted
	fmt.Fprintf(stdout, "%d boids, %dx%d arena\n", *boids, size, size)
	fmt.Fprintf(stdout, "%6s %13s %16s %10s\n", "time", "polarisation", "nearest (cells)", "in walls")
	for f := 1; f <= *frames; f++ {
		sched.Update(&world)
		if f%150 == 0 || f == *frames {
			pol, near, walls := measure(&world, g, motion)
			fmt.Fprintf(stdout, "%5.1fs %13.3f %16.3f %10d\n", float64(f)/60, pol, near, walls)
		}
		if *gifPath != "" && f%4 == 0 {
			img := render.Clone(background)
			q := motion.Query(&world)
			for q.Next() {
				p, v := q.Get()
				render.Line(img, 4, p.Vec, r2.Add(p.Vec, r2.Vec{X: float64(0.25 * v.X), Y: float64(0.25 * v.Y)}), render.Blue)
				render.Dot(img, 4, p.Vec, 2, render.Black)
			}
			gifFrames = append(gifFrames, render.Caption(img, float64(f)/60,
				render.Item{Colour: render.Black, Label: "boid"}, render.Item{Colour: render.Blue, Label: "velocity"}))
		}
	}
	if *gifPath != "" {
		if err := render.WriteGIF(*gifPath, gifFrames, 7); err != nil {
			fmt.Fprintln(stderr, "flock:", err)
			return 1
		}
		fmt.Fprintf(stdout, "wrote %s (%d frames)\n", *gifPath, len(gifFrames))
	}
	return 0
}

// arena is a walled square with a few pillars.
func arena(size int) *grid.Grid {
	g := grid.New(size, size)
	for i := 0; i < size; i++ {
		for _, c := range []grid.Cell{{X: int32(i), Y: 0}, {X: int32(i), Y: int32(size - 1)}, {X: 0, Y: int32(i)}, {X: int32(size - 1), Y: int32(i)}} {
			g.SetCost(c, grid.Blocked)
		}
	}
	for _, p := range [][2]int{{30, 30}, {66, 30}, {30, 66}, {66, 66}, {48, 48}} {
		for y := p[1] - 3; y <= p[1]+3; y++ {
			for x := p[0] - 3; x <= p[0]+3; x++ {
				g.SetCost(grid.Cell{X: int32(x), Y: int32(y)}, grid.Blocked)
			}
		}
	}
	return g
}

// spawn adds n boids at random open points, each heading in a random direction:
// wanderers (their own seeded random source each) with alignment and cohesion on.
func spawn(w *arche.World, g *grid.Grid, n int, seed uint64) error {
	boids, err := systems.NewSpawner(w, systems.Wanderer{
		Motion: systems.Motion{MaxSpeed: 6, MaxForce: 12, Radius: 0.3, Wall: 3, Separation: 1.5,
			SeparationRadius: 1, Alignment: 0.5, Cohesion: 0.3, NeighbourRadius: 3},
		WanderDistance: 2, WanderRadius: 0.6, Jitter: 0.3,
	}, systems.With(components.Faction{}))
	if err != nil {
		return err
	}
	r := steer.NewRand(seed)
	boids.Seed = r.Uint64()
	boids.SpawnBatch(n, func(_ int, a *systems.Spawned) {
		for {
			a.Position.Vec = r2.Vec{X: 2 + float64(r.Float64()*float64(g.Width()-4)), Y: 2 + float64(r.Float64()*float64(g.Height()-4))}
			if g.Passable(g.CellAt(a.Position.Vec)) {
				break
			}
		}
		heading := r.Float64() * 2 * math.Pi
		a.Velocity.Vec = r2.Vec{X: math.Cos(heading), Y: math.Sin(heading)}
	})
	return nil
}

// measure returns the polarisation, the mean distance to the nearest other
// boid (over a sample of boids, as of the last spatial hash), and how many
// boids are inside a wall.
func measure(w *arche.World, g *grid.Grid, f *generic.Filter2[components.Position, components.Velocity]) (float64, float64, int) {
	var sum r2.Vec
	walls, n := 0, 0
	q := f.Query(w)
	for q.Next() {
		p, v := q.Get()
		n++
		if s := r2.Norm(v.Vec); s > 0 {
			sum = r2.Add(sum, r2.Vec{X: float64(1 / s * v.X), Y: float64(1 / s * v.Y)})
		}
		if !g.Passable(g.CellAt(p.Vec)) {
			walls++
		}
	}
	nb := ecs.Resource[systems.Neighbours](w)
	near, counted := 0.0, 0
	var buf []int32
	for i, p := range nb.Positions {
		if i%10 != 0 { // a sample is enough for a mean
			continue
		}
		best := math.Inf(1)
		buf = nb.Hash.Query(p, 4, buf[:0])
		for _, id := range buf {
			if int(id) != i {
				best = math.Min(best, r2.Norm(r2.Sub(nb.Positions[id], p)))
			}
		}
		if !math.IsInf(best, 1) {
			near += best
			counted++
		}
	}
	if counted > 0 {
		near /= float64(counted)
	}
	return r2.Norm(sum) / float64(max(n, 1)), near, walls
}
