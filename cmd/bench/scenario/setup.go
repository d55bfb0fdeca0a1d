package scenario

import (
	"errors"
	"runtime"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Config configures the guard scenario.
type Config struct {
	Agents        int        // guards plus intruders; 10,000 if zero
	IntruderEvery int        // one agent in IntruderEvery is an intruder; 8 if zero
	Seed          uint64     // seeds the map (if generated) and every agent's random source
	Grid          *grid.Grid // the map; a generated MapSizeFor(Agents) map if nil
	DT            float64    // seconds per frame; 1/60 if zero
	PathBudget    int        // path-search node expansions per frame; systems.DefaultPathBudget if zero
	Workers       int        // goroutines for perception, decision, steering and movement; 0 means GOMAXPROCS
	ThinkBudget   int        // most decisions per frame; 0 means no limit
	LOD           bool       // throttle thinking by distance to Focus (systems.DefaultLODLevels)
	Focus         []r2.Vec   // focus points for LOD, cells; the map centre if empty
}

// Guards is a ready-to-run guard scenario: the world, its map and the
// systems in frame order (run them with an ecs.Scheduler, or add them to an
// arche-model model).
type Guards struct {
	World *arche.World
	Grid  *grid.Grid
	Stats *Stats

	GuardTree, IntruderTree *bt.Tree

	Clock      *ecs.ClockSystem
	LOD        *systems.LOD // nil unless Config.LOD
	Spatial    *systems.Spatial
	Perception *systems.Perception
	Decision   *systems.Decision
	PathQueue  *systems.PathQueue
	Combat     *systems.Combat
	Casualties *Casualties
	Steer      *systems.Steer
	Movement   *systems.Movement
}

// NewGuards builds the guard scenario in a new world. It returns an error if
// the map has no passable cell.
func NewGuards(cfg Config) (*Guards, error) {
	if cfg.Agents <= 0 {
		cfg.Agents = 10000
	}
	if cfg.IntruderEvery <= 0 {
		cfg.IntruderEvery = 8
	}
	if cfg.DT <= 0 {
		cfg.DT = 1.0 / 60
	}
	g := cfg.Grid
	if g == nil {
		g = GenerateMap(MapSizeFor(cfg.Agents), cfg.Seed)
	}
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)

	s := &Guards{World: w, Grid: g, Stats: &Stats{}}
	var err error
	if s.GuardTree, err = GuardTree(w, s.Stats); err != nil {
		return nil, err
	}
	if s.IntruderTree, err = IntruderTree(w, s.Stats); err != nil {
		return nil, err
	}
	s.Clock = ecs.NewClockSystem(cfg.DT)
	s.Spatial = &systems.Spatial{}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if cfg.LOD {
		focus := cfg.Focus
		if len(focus) == 0 {
			focus = []r2.Vec{{X: float64(g.Width()) / 2, Y: float64(g.Height()) / 2}}
		}
		s.LOD = &systems.LOD{Points: focus}
	}
	s.Perception = &systems.Perception{Workers: workers}
	s.Decision = &systems.Decision{Workers: workers, Budget: cfg.ThinkBudget}
	s.PathQueue = &systems.PathQueue{Budget: cfg.PathBudget}
	s.Combat = &systems.Combat{}
	s.Steer = &systems.Steer{Workers: workers}
	s.Movement = &systems.Movement{Workers: workers}

	sp := newSpawner(w, g, s.GuardTree, s.IntruderTree)
	s.Casualties = &Casualties{spawner: sp}
	rng := steer.NewRand(cfg.Seed ^ 0x5eed)
	for i := range cfg.Agents {
		pos, ok := randomOpenCell(g, &rng)
		if !ok {
			return nil, errors.New("scenario: the map has no passable cell")
		}
		if i%cfg.IntruderEvery == cfg.IntruderEvery-1 {
			sp.intruder(pos, rng.Uint64(), 0, nil)
		} else {
			sp.guard(pos, rng.Uint64())
		}
	}
	return s, nil
}

// Systems returns the scenario's systems in frame order.
func (s *Guards) Systems() []ecs.System {
	out := []ecs.System{s.Clock}
	if s.LOD != nil {
		out = append(out, s.LOD)
	}
	return append(out, s.Spatial, s.Perception, s.Decision, s.PathQueue, s.Combat, s.Casualties, s.Steer, s.Movement)
}

// spawner creates guards and intruders.
type spawner struct {
	w                       *arche.World
	g                       *grid.Grid
	guardTree, intruderTree *bt.Tree
	guardIDs, intruderIDs   []arche.ID
	guards                  generic.Map[Guard]
}

func newSpawner(w *arche.World, g *grid.Grid, guardTree, intruderTree *bt.Tree) *spawner {
	common := []arche.ID{
		arche.ComponentID[components.Position](w), arche.ComponentID[components.Velocity](w),
		arche.ComponentID[components.Kinematics](w), arche.ComponentID[components.Steering](w),
		arche.ComponentID[components.SteeringWeights](w), arche.ComponentID[components.Faction](w),
		arche.ComponentID[components.Health](w), arche.ComponentID[components.Rand](w),
		arche.ComponentID[components.Brain](w), arche.ComponentID[components.Think](w),
		arche.ComponentID[components.Intent](w), arche.ComponentID[components.Perception](w),
		arche.ComponentID[components.Path](w), arche.ComponentID[components.Weapon](w),
		arche.ComponentID[components.Progress](w), arche.ComponentID[components.LOD](w),
	}
	return &spawner{
		w: w, g: g, guardTree: guardTree, intruderTree: intruderTree,
		guardIDs:    append(append([]arche.ID{}, common...), arche.ComponentID[Guard](w)),
		intruderIDs: append(append([]arche.ID{}, common...), arche.ComponentID[Intruder](w)),
		guards:      generic.NewMap[Guard](w),
	}
}

// recycled is what a removed intruder leaves for its replacement: buffers
// that would otherwise be allocated again.
type recycled struct {
	memory    bt.Memory
	waypoints []grid.Cell
}

func (sp *spawner) agent(e arche.Entity, pos r2.Vec, seed uint64, team uint8, speed, damage float64, tree *bt.Tree, now float64, reuse *recycled) {
	w := sp.w
	*(*components.Position)(w.Get(e, arche.ComponentID[components.Position](w))) = components.Position{Vec: pos}
	*(*components.Kinematics)(w.Get(e, arche.ComponentID[components.Kinematics](w))) = components.Kinematics{MaxSpeed: speed, MaxForce: MaxForce, Radius: AgentRadius}
	*(*components.SteeringWeights)(w.Get(e, arche.ComponentID[components.SteeringWeights](w))) = components.SteeringWeights{Wall: 1, Separation: 1, SeparationRadius: 3 * AgentRadius}
	*(*components.Faction)(w.Get(e, arche.ComponentID[components.Faction](w))) = components.Faction{Team: team}
	*(*components.Health)(w.Get(e, arche.ComponentID[components.Health](w))) = components.Health{Current: 100, Max: 100}
	rng := components.Rand{Rand: steer.NewRand(seed)}
	*(*components.Think)(w.Get(e, arche.ComponentID[components.Think](w))) = components.Think{
		Interval: systems.DefaultThinkInterval, Next: now + rng.Float64()*systems.DefaultThinkInterval, Last: now}
	*(*components.Rand)(w.Get(e, arche.ComponentID[components.Rand](w))) = rng
	brain := components.Brain{Tree: tree}
	waypoints := []grid.Cell(nil)
	if reuse != nil {
		brain.Memory, waypoints = reuse.memory, reuse.waypoints[:0]
	} else {
		brain.Memory, waypoints = tree.NewMemory(), make([]grid.Cell, 0, 64)
	}
	*(*components.Brain)(w.Get(e, arche.ComponentID[components.Brain](w))) = brain
	*(*components.Perception)(w.Get(e, arche.ComponentID[components.Perception](w))) = components.Perception{SightRange: GuardSight}
	*(*components.Path)(w.Get(e, arche.ComponentID[components.Path](w))) = components.Path{Waypoints: waypoints}
	*(*components.Weapon)(w.Get(e, arche.ComponentID[components.Weapon](w))) = components.Weapon{Damage: damage, Range: StrikeRange}
}

func (sp *spawner) guard(home r2.Vec, seed uint64) arche.Entity {
	e := sp.w.NewEntity(sp.guardIDs...)
	sp.agent(e, home, seed, TeamGuards, GuardSpeed, GuardDamage, sp.guardTree, 0, nil)
	rng := steer.NewRand(seed ^ 0xa11ce)
	route := make([]r2.Vec, 0, PatrolPoints)
	for len(route) < PatrolPoints {
		found := false
		for range 16 {
			c := sp.g.CellAt(r2.Add(home, r2.Vec{
				X: float64(rng.Intn(2*PatrolRadius+1) - PatrolRadius),
				Y: float64(rng.Intn(2*PatrolRadius+1) - PatrolRadius)}))
			if sp.g.Passable(c) {
				route, found = append(route, sp.g.Center(c)), true
				break
			}
		}
		if !found {
			route = append(route, home)
		}
	}
	*sp.guards.Get(e) = Guard{Home: home, Route: route}
	return e
}

func (sp *spawner) intruder(pos r2.Vec, seed uint64, now float64, reuse *recycled) arche.Entity {
	e := sp.w.NewEntity(sp.intruderIDs...)
	sp.agent(e, pos, seed, TeamIntruders, IntruderSpeed, IntruderDamage, sp.intruderTree, now, reuse)
	return e
}

// Casualties handles agents whose health reached 0: a guard is carried home
// and restored to full health (its tree carries on and re-plans from there);
// an intruder is removed from the world (after the query loop, through
// ecs.Commands) and a new one enters at a random open cell, so the population
// stays constant. Path requests of removed intruders are dropped by the path
// queue; guards that targeted them see them gone through Arche's Alive check.
type Casualties struct {
	GuardsDown, IntrudersDown int // totals

	spawner *spawner
	clock   *ecs.Clock
	cmds    ecs.Commands
	filter  *generic.Filter7[components.Health, components.Position, components.Velocity, components.Intent, components.Path, components.Rand, components.Brain]
	guards  generic.Map[Guard]
	seeds   []uint64
	pool    []recycled // buffers of removed intruders, for their replacements
	ctx     bt.Context
}

// Name implements ecs.Namer.
func (s *Casualties) Name() string { return "casualties" }

// Initialize builds the filter.
func (s *Casualties) Initialize(w *arche.World) {
	s.clock = ecs.ClockOf(w)
	s.filter = generic.NewFilter7[components.Health, components.Position, components.Velocity, components.Intent, components.Path, components.Rand, components.Brain]()
	s.guards = generic.NewMap[Guard](w)
}

// Update handles this frame's casualties.
func (s *Casualties) Update(w *arche.World) {
	s.seeds = s.seeds[:0]
	q := s.filter.Query(w)
	for q.Next() {
		hp, pos, vel, in, path, rng, brain := q.Get()
		if hp.Current > 0 {
			continue
		}
		e := q.Entity()
		if g := s.guards.Get(e); g != nil {
			s.GuardsDown++
			*hp = components.Health{Current: hp.Max, Max: hp.Max}
			pos.Vec, vel.Vec = g.Home, r2.Vec{}
			*in = components.Intent{}
			path.State, path.Want, path.Waypoints = components.PathNone, false, path.Waypoints[:0]
			g.Recovering = false
			continue
		}
		s.IntrudersDown++
		// its tree is abandoned: halt it (the intruder tree has no halt hooks
		// that need the agent view) and keep the buffers for the replacement
		s.ctx.Time = s.clock.Time
		brain.Tree.Halt(&brain.Memory, &s.ctx)
		s.pool = append(s.pool, recycled{memory: brain.Memory, waypoints: path.Waypoints})
		s.cmds.RemoveEntity(e)
		s.seeds = append(s.seeds, rng.Uint64())
	}
	s.cmds.Apply(w)
	for _, seed := range s.seeds {
		r := steer.NewRand(seed)
		if pos, ok := randomOpenCell(s.spawner.g, &r); ok {
			var reuse *recycled
			if n := len(s.pool); n > 0 {
				reuse = &s.pool[n-1]
				s.pool = s.pool[:n-1]
			}
			s.spawner.intruder(pos, seed, s.clock.Time, reuse)
		}
	}
	clear(s.pool[len(s.pool):cap(s.pool)])
}

// Finalize does nothing.
func (s *Casualties) Finalize(w *arche.World) {}
