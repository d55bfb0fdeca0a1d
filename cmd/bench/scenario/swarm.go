package scenario

import (
	"errors"
	"fmt"
	"math"
	"runtime"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/nav/spatial"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// SwarmConfig configures the swarm scenario.
type SwarmConfig struct {
	Agents    int               // 10,000 if zero
	Seed      uint64            // seeds the map (if generated), the spawns and the goals
	Grid      *grid.Grid        // the map; a generated MapSizeFor(Agents) map if nil
	DT        float64           // seconds per frame; 1/60 if zero
	Workers   int               // goroutines for the hash sort, flow sampling, path following, steering, ORCA and movement; 0 means GOMAXPROCS
	GoalEvery float64           // seconds between goal moves; 5 if zero or negative; NaN or infinite is an error (the goal never moved)
	Budget    int               // flow-field cells settled per frame; 0 builds a field at once
	Avoid     systems.Avoidance // local avoidance of every agent; separation by default
	DrawOrder bool              // create the agents in the order their positions are drawn, not in tile order (to measure what SpawnTile's order saves)
}

// Swarm is the swarm scenario: agents that all follow one flow field to a
// goal that moves every few seconds, with separation and wall avoidance.
type Swarm struct {
	World *arche.World
	Grid  *grid.Grid

	Clock    *ecs.ClockSystem
	Director *GoalDirector
	Spatial  *systems.Spatial
	Flow     *systems.FlowField
	Follow   *systems.PathFollow
	Steer    *systems.Steer
	Avoid    ecs.System // the local-avoidance system between Steer and Movement (ORCA); nil with separation
	Movement *systems.Movement
}

// Swarm tuning.
const (
	SwarmSpeed  = 4.0 // cells/s
	SwarmRadius = 0.3 // cells
	NearGoal    = 6.0 // cells; agents this close to the goal count as there
)

// SwarmHashCell is the side, in cells, of the buckets of the swarm's spatial
// hash. The counting sort that rebuilds the hash goes over every bucket (on
// the 832² map of 100,000 agents, 173,056 of side 2 against 692,224 of side
// 1), which costs more than the longer separation scans of larger buckets
// save (measured side by side at 100,000 agents); a separation query
// (2.5·SwarmRadius) reads at most 2×2 buckets.
const SwarmHashCell = 2.0

// SpawnTile is the side, in cells, of the tiles in whose order both
// scenarios create their agents (spatial.TileOrder): agents near each other
// get neighbouring places in Arche's columns, which the systems that visit
// agents in spatial order read nearly in sequence.
const SpawnTile = 8.0

// defaults fills in GoalEvery's default, or returns an error if it is NaN or
// infinite: the director's next move would be at a NaN or infinite time, so the
// goal would never move.
func (cfg *SwarmConfig) defaults() error {
	if math.IsNaN(cfg.GoalEvery) || math.IsInf(cfg.GoalEvery, 0) {
		return fmt.Errorf("scenario: SwarmConfig.GoalEvery is %v: want a finite number of seconds between goal moves (0: 5)", cfg.GoalEvery)
	}
	if cfg.GoalEvery <= 0 {
		cfg.GoalEvery = 5
	}
	return nil
}

// NewSwarm builds the swarm scenario in a new world. It returns an error if
// the map has no passable cell, if GoalEvery is NaN or infinite, or (with no
// Grid) CheckAgents' error.
func NewSwarm(cfg SwarmConfig) (*Swarm, error) {
	if cfg.Agents <= 0 {
		cfg.Agents = 10000
	}
	if cfg.DT <= 0 {
		cfg.DT = 1.0 / 60
	}
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	g := cfg.Grid
	if g == nil {
		var err error
		if g, err = generateFor(cfg.Agents, cfg.Seed); err != nil {
			return nil, err
		}
	}
	world := arche.NewWorld()
	w := &world
	rng := steer.NewRand(cfg.Seed ^ 0x5a4a)
	goal, ok := randomOpenCell(g, &rng)
	if !ok {
		return nil, errors.New("scenario: the map has no passable cell")
	}
	s := buildSwarm(cfg, w, g, workers, rng, g.CellAt(goal))
	agents, err := systems.NewSpawner(w, systems.FlowFollower{
		Motion: swarmMotion(cfg.Avoid),
		Goal:   s.Director.Goal,
	})
	if err != nil {
		return nil, err
	}
	pos, err := swarmPositions(g, &rng, cfg.Agents, cfg.DrawOrder)
	if err != nil {
		return nil, err
	}
	agents.SpawnBatch(cfg.Agents, func(k int, a *systems.Spawned) {
		a.Position.Vec = pos[k]
	})
	return s, nil
}

// swarmPositions draws n spawn positions (a random open cell each, jittered
// within it) and returns them in tile order (spatial.TileOrder with
// SpawnTile), the order the agents are created in, so that neighbours sit
// next to each other in Arche's columns; with drawOrder, in the order drawn.
func swarmPositions(g *grid.Grid, rng *steer.Rand, n int, drawOrder bool) ([]r2.Vec, error) {
	pos := make([]r2.Vec, n)
	for i := range pos {
		p, _ := randomOpenCell(g, rng)
		pos[i] = r2.Add(p, r2.Vec{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5})
	}
	if drawOrder {
		return pos, nil
	}
	order, err := spatial.TileOrder(pos, SpawnTile, nil)
	if err != nil {
		return nil, err
	}
	out := make([]r2.Vec, n)
	for k, i := range order {
		out[k] = pos[i]
	}
	return out, nil
}

// swarmMotion is the movement tuning of the swarm's agents.
func swarmMotion(avoid systems.Avoidance) systems.Motion {
	return systems.Motion{MaxSpeed: SwarmSpeed, MaxForce: 20, Radius: SwarmRadius,
		Wall: 1, Separation: 1.5, SeparationRadius: 2.5 * SwarmRadius, Avoid: avoid}
}

// buildSwarm adds the grid to w and builds the swarm's systems over it, the
// director starting from rng and goal; it spawns nobody.
func buildSwarm(cfg SwarmConfig, w *arche.World, g *grid.Grid, workers int, rng steer.Rand, goal grid.Cell) *Swarm {
	arche.AddResource(w, g)
	s := &Swarm{
		World:    w,
		Grid:     g,
		Clock:    ecs.NewClockSystem(cfg.DT),
		Director: &GoalDirector{Every: cfg.GoalEvery, rng: rng, Goal: goal},
		Spatial:  &systems.Spatial{CellSize: SwarmHashCell, Workers: workers},
		Flow:     &systems.FlowField{Budget: cfg.Budget, Workers: workers, Capacity: 2, Reserve: 2},
		Follow:   &systems.PathFollow{Workers: workers},
		Steer:    &systems.Steer{Workers: workers},
		Movement: &systems.Movement{Workers: workers},
	}
	if cfg.Avoid == systems.AvoidORCA {
		s.Avoid = &systems.ORCA{Workers: workers}
	}
	return s
}

// Systems returns the scenario's systems in frame order.
func (s *Swarm) Systems() []ecs.System {
	out := []ecs.System{s.Clock, s.Spatial, s.Director, s.Flow, s.Follow, s.Steer}
	if s.Avoid != nil {
		out = append(out, s.Avoid)
	}
	return append(out, s.Movement)
}

// GoalDirector moves the swarm's goal to a random open cell every Every
// seconds and counts the agents near it. It runs after the Spatial system
// (it counts with the frame's Neighbours hash, so the count costs the agents
// near the goal, not the whole crowd) and before FlowField.
type GoalDirector struct {
	Every float64   // seconds between moves
	Goal  grid.Cell // the current goal
	Moves int       // goal moves so far
	Near  int       // agents (in the Neighbours hash) within NearGoal cells of the goal at the start of the last frame

	rng    steer.Rand
	clock  *ecs.Clock
	grid   *grid.Grid
	nb     *systems.Neighbours
	next   float64
	filter *generic.Filter1[components.FlowFollower]

	finalized bool // Finalize ran, and Initialize not since: Update panics (lifecycle.go)
}

// Name implements ecs.Namer.
func (d *GoalDirector) Name() string { return "director" }

// Initialize finds the clock, grid and Neighbours.
//
// Panics if the world has no *systems.Neighbours resource: add the Spatial
// system before the GoalDirector.
func (d *GoalDirector) Initialize(w *arche.World) {
	d.clock = ecs.ClockOf(w)
	d.grid = ecs.Resource[grid.Grid](w)
	d.nb = ecs.Resource[systems.Neighbours](w)
	if d.nb == nil {
		panic("scenario: GoalDirector counts with the Neighbours resource: add the Spatial system before it")
	}
	d.next = d.clock.Time + d.Every
	d.filter, d.finalized = generic.NewFilter1[components.FlowFollower](), false
	q := d.filter.Query(w)
	q.Close() // compiles the filter now, not at the first move
}

// Update moves the goal when its time has come.
//
// Panics if called before Initialize, or after Finalize with no Initialize since
// (lifecycle.go).
func (d *GoalDirector) Update(w *arche.World) {
	mustInitialized(d.filter != nil, d.finalized, "GoalDirector")
	moved := false
	if d.clock.Time+float64(d.clock.DT/2) >= d.next {
		if p, ok := randomOpenCell(d.grid, &d.rng); ok {
			d.Goal = d.grid.CellAt(p)
			d.Moves++
			moved = true
		}
		d.next += d.Every
	}
	if moved {
		q := d.filter.Query(w)
		for q.Next() {
			q.Get().Goal = d.Goal
		}
	}
	d.Near = d.nb.Hash.Count(d.grid.Center(d.Goal), NearGoal)
}

// Finalize drops the filter: Update panics until the next Initialize.
func (d *GoalDirector) Finalize(w *arche.World) {
	if d.filter != nil { // not if never initialized, or finalized already
		d.filter, d.finalized = nil, true
	}
}
