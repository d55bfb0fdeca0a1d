package systems_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// discOverlap: how deep a disc at p of radius r overlaps blocked cells (or off-grid); <= 0 none.
func discOverlap(g *grid.Grid, p r2.Vec, r float64) float64 {
	worst := math.Inf(-1)
	x0, x1 := int(math.Floor(p.X-r))-1, int(math.Floor(p.X+r))+1
	y0, y1 := int(math.Floor(p.Y-r))-1, int(math.Floor(p.Y+r))+1
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			if g.Passable(grid.Cell{X: int32(x), Y: int32(y)}) {
				continue
			}
			dx := math.Max(0, math.Max(float64(x)-p.X, p.X-float64(x+1)))
			dy := math.Max(0, math.Max(float64(y)-p.Y, p.Y-float64(y+1)))
			worst = math.Max(worst, r-math.Hypot(dx, dy))
		}
	}
	return worst
}

// Doors of widths 1 to 4 open and close every 37 frames across the routes of 30 Movers of
// radii 0.3 to 1.4 with goals of their own: no agent's centre ever enters a blocked cell
// from an open one, and no wide agent's disc ever overlaps the walls deeper than it did
// before the frame (a door closing on it excepted); with separation alone and with ORCA.
func TestDoorsFlickeringAcrossMoversOfManyRadii(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 4; seed++ {
		orca := seed%2 == 0 // odd seeds: separation only; even: ORCA avoidance too
		r := rand.New(rand.NewPCG(seed, 1))
		world := arche.NewWorld()
		w := &world
		// rooms: 40x30 with walls and doors
		g := grid.New(40, 30)
		var doors [][]grid.Cell
		for x := int32(0); x < 40; x++ {
			if x%10 == 0 {
				continue
			}
			g.SetCost(grid.Cell{X: x, Y: 15}, grid.Blocked)
		}
		for y := int32(0); y < 30; y++ {
			g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
		}
		// doors of width 1..4
		for _, d := range []struct {
			x, y, wdt int32
			vert      bool
		}{{4, 15, 1, false}, {25, 15, 3, false}, {33, 15, 4, false}, {20, 5, 2, true}, {20, 22, 4, true}} {
			var cells []grid.Cell
			for k := int32(0); k < d.wdt; k++ {
				c := grid.Cell{X: d.x + k, Y: d.y}
				if d.vert {
					c = grid.Cell{X: d.x, Y: d.y + k}
				}
				g.SetCost(c, 1)
				cells = append(cells, c)
			}
			doors = append(doors, cells)
		}
		for k := 0; k < 30; k++ {
			g.SetCost(grid.Cell{X: int32(r.IntN(40)), Y: int32(r.IntN(30))}, grid.Blocked)
		}
		arche.AddResource(w, g)
		radii := []float64{0.3, 0.45, 0.6, 1.0, 1.4}
		type agent struct {
			e arche.Entity
			r float64
		}
		var agents []agent
		for _, rad := range radii {
			bundles := []systems.Bundle{systems.Mover{Motion: systems.Motion{Radius: rad}}}
			if orca {
				bundles = append(bundles, systems.Avoider{})
			}
			sp, err := systems.NewSpawner(w, bundles...)
			if err != nil {
				t.Fatal(err)
			}
			for k := 0; k < 6; k++ {
				var p, q r2.Vec
				for {
					p = r2.Vec{X: 0.5 + float64(r.IntN(40)), Y: 0.5 + float64(r.IntN(30))}
					if g.Passable(g.CellAt(p)) && g.Clearance(g.CellAt(p)) >= grid.ClearanceFor(rad) {
						break
					}
				}
				for {
					q = r2.Vec{X: 0.5 + float64(r.IntN(40)), Y: 0.5 + float64(r.IntN(30))}
					if g.Passable(g.CellAt(q)) {
						break
					}
				}
				e := sp.Spawn(p, func(a *systems.Spawned) { a.MoveTo(q) })
				agents = append(agents, agent{e, rad})
			}
		}
		list := []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{}, &systems.PathQueue{},
			&systems.PathFollow{}, &systems.Steer{}}
		if orca {
			list = append(list, &systems.ORCA{})
		}
		s := ecs.NewScheduler(append(list, &systems.Movement{})...)
		s.Initialize(w)
		pm := generic.NewMap2[components.Position, components.Path](w)
		prevCell := make([]grid.Cell, len(agents))
		prevOver := make([]float64, len(agents))
		for i, a := range agents {
			p, _ := pm.Get(a.e)
			prevCell[i] = g.CellAt(p.Vec)
			prevOver[i] = discOverlap(g, p.Vec, a.r)
		}
		for f := 0; f < 3600; f++ {
			edited := false
			if f < 2400 && f%37 == 0 {
				d := doors[r.IntN(len(doors))]
				closed := !g.Passable(d[0])
				for _, c := range d {
					if closed {
						g.SetCost(c, 1)
					} else {
						g.SetCost(c, grid.Blocked)
					}
				}
				edited = true
			}
			if edited {
				for i, a := range agents {
					p, _ := pm.Get(a.e)
					prevOver[i] = discOverlap(g, p.Vec, a.r)
				}
			}
			s.Update(w)
			for i, a := range agents {
				p, _ := pm.Get(a.e)
				c := g.CellAt(p.Vec)
				if c != prevCell[i] && !g.Passable(c) && g.Passable(prevCell[i]) {
					t.Fatalf("seed %d frame %d: agent %d (r %v) entered blocked %v from %v", seed, f, i, a.r, c, prevCell[i])
				}
				if a.r > 0.5 {
					o := discOverlap(g, p.Vec, a.r)
					if o > 1e-6 && o > prevOver[i]+1e-6 {
						t.Fatalf("seed %d frame %d: agent %d r %v overlap %v > %v at %v", seed, f, i, a.r, o, prevOver[i], p.Vec)
					}
					prevOver[i] = o
				}
				prevCell[i] = c
			}
		}
		s.Finalize(w)
	}
}
