// Package tutorial is archai's guard scenario (package cmd/bench/scenario)
// written the way the common game-AI tutorials write it, for
// `cmd/bench -tutorial` to compare against: one object per agent holding its
// own behavior tree (node objects, running state in node fields), a
// string-keyed map[string]any blackboard, its own path found by A* the
// moment it wants one, and one loop that steps the agents in turn. It is not
// archai's API.
//
// What is the same as the scenario, so the two do the same work: the map
// (scenario.GenerateMap for the seed), where the agents start and the guards'
// patrol routes (the same random draws), the trees (the same nodes, leaves
// and tuning), the think rate (10 Hz, staggered by a random phase), the
// perception (the nearest foe within 8 cells in line of sight, once per
// think), the repath policy of systems.PathFollow (a path only when the goal
// is out of sight; a held path replaced when the goal's cell moves more than
// 2 + d/4 cells or out of the path end's sight; a stuck agent asks again),
// the steering (ai/steer's wall avoidance, separation and seek or arrive,
// with archai's weights), the integration and the wall rule of
// systems.Movement, combat and casualties.
//
// The path search is nav/grid's A* (grid.Search.Path, octile, no corner
// cutting), one Search shared by the loop and called by each agent for
// itself: each search expands exactly the nodes archai's PathQueue would
// for the same start and goal, so the two differ in how the work is
// organised, not in the search.
//
// What differs is the design: archai stores agents as components in Arche's
// columns, shares one compiled tree with per-agent node memory, keeps hot
// facts in plain fields, spreads perception, decisions, path following,
// steering and movement over workers, queues path requests within a
// per-frame budget (sharing equal ones) and keeps neighbours in a spatial
// hash; here every agent is a heap object with pointers to its nodes, facts
// are boxed in a map, searches run at once, and everything runs on one
// goroutine (a bucket grid of agent pointers finds the neighbours).
package tutorial

import (
	"math"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// Config configures a tutorial-style guard scenario.
type Config struct {
	Agents int        // guards plus intruders; one in 8 is an intruder
	Seed   uint64     // the map (if generated) and the agents, as scenario.Config.Seed
	Grid   *grid.Grid // the map; scenario.GenerateMap(scenario.MapSizeFor(Agents), Seed) if nil
	DT     float64    // seconds per frame; 1/60 if zero
}

// Counters are a run's work: the figures that must match archai's for the
// comparison to be fair.
type Counters struct {
	Thought   int // agents whose tree was ticked
	Perceived int // perceptions (once per think)
	Searches  int // A* searches
	Strikes   int // strikes landed
}

// World is the tutorial-style guard scenario: the map, the agents and the
// loop's clock.
type World struct {
	Grid   *grid.Grid
	Agents []*Agent
	Time   float64 // seconds of simulation time at the start of the frame
	DT     float64
	Frame  int
	Counters

	search  *grid.Search
	buckets [][]*Agent // agents by bucketSize×bucketSize block of cells
	bw, bh  int
	near    []r2.Vec
}

// bucketSize is the side of the neighbour grid's buckets, in cells.
const bucketSize = 4

const intruderEvery = 8

// New builds the scenario. It returns an error if the map has no open cell.
func New(cfg Config) (*World, error) {
	if cfg.Agents <= 0 {
		cfg.Agents = 10000
	}
	if cfg.DT <= 0 {
		cfg.DT = 1.0 / 60
	}
	g := cfg.Grid
	if g == nil {
		g = scenario.GenerateMap(scenario.MapSizeFor(cfg.Agents), cfg.Seed)
	}
	w := &World{Grid: g, DT: cfg.DT, search: grid.NewSearch(g)}
	w.bw, w.bh = (g.Width()+bucketSize-1)/bucketSize, (g.Height()+bucketSize-1)/bucketSize
	w.buckets = make([][]*Agent, w.bw*w.bh)
	rng := steer.NewRand(cfg.Seed ^ 0x5eed) // as scenario.NewGuards
	for i := range cfg.Agents {
		pos, ok := randomOpenCell(g, &rng)
		if !ok {
			return nil, errNoOpenCell
		}
		seed := rng.Uint64()
		a := &Agent{ID: i, world: w, Pos: pos}
		if i%intruderEvery == intruderEvery-1 {
			a.spawnIntruder(pos, seed)
		} else {
			a.spawnGuard(pos, seed)
		}
		w.Agents = append(w.Agents, a)
	}
	return w, nil
}

// Step runs one frame: every agent due to think perceives and ticks its
// tree, strikes land, the fallen are handled, and every agent follows its
// path, steers and moves.
func (w *World) Step() {
	w.Time = float64(w.Frame) * w.DT
	w.rebuildBuckets()
	for _, a := range w.Agents {
		if a.nextThink < w.Time+w.DT-1e-9 {
			a.perceive()
			a.think()
		}
	}
	for _, a := range w.Agents {
		a.strike()
	}
	for _, a := range w.Agents {
		if a.Health <= 0 {
			a.fall()
		}
	}
	for _, a := range w.Agents {
		a.move()
	}
	w.Frame++
}

func (w *World) rebuildBuckets() {
	for i := range w.buckets {
		w.buckets[i] = w.buckets[i][:0]
	}
	for _, a := range w.Agents {
		b := w.bucketOf(a.Pos)
		w.buckets[b] = append(w.buckets[b], a)
	}
}

func (w *World) bucketOf(p r2.Vec) int {
	x := min(max(int(p.X)/bucketSize, 0), w.bw-1)
	y := min(max(int(p.Y)/bucketSize, 0), w.bh-1)
	return y*w.bw + x
}

// each calls f for every agent in the buckets overlapping the disc of radius
// r around p.
func (w *World) each(p r2.Vec, r float64, f func(*Agent)) {
	x0, x1 := int(math.Floor((p.X-r)/bucketSize)), int(math.Floor((p.X+r)/bucketSize))
	y0, y1 := int(math.Floor((p.Y-r)/bucketSize)), int(math.Floor((p.Y+r)/bucketSize))
	for y := max(y0, 0); y <= min(y1, w.bh-1); y++ {
		for x := max(x0, 0); x <= min(x1, w.bw-1); x++ {
			for _, o := range w.buckets[y*w.bw+x] {
				f(o)
			}
		}
	}
}

// randomOpenCell is scenario's draw of a start cell: up to 1000 random
// cells, then the first open cell in row order.
func randomOpenCell(g *grid.Grid, r *steer.Rand) (r2.Vec, bool) {
	for range 1000 {
		c := grid.Cell{X: int32(r.Intn(g.Width())), Y: int32(r.Intn(g.Height()))}
		if g.Passable(c) {
			return g.Center(c), true
		}
	}
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < g.Width(); x++ {
			if c := (grid.Cell{X: int32(x), Y: int32(y)}); g.Passable(c) {
				return g.Center(c), true
			}
		}
	}
	return r2.Vec{}, false
}
