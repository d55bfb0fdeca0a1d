package scenario

import (
	"errors"
	"runtime"

	"github.com/archai-go/archai/ai/bt"
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

// Config configures the guard scenario.
type Config struct {
	Agents        int               // guards plus intruders; 10,000 if zero
	IntruderEvery int               // one agent in IntruderEvery is an intruder; 8 if zero
	Seed          uint64            // seeds the map (if generated) and every agent's random source
	Grid          *grid.Grid        // the map; a generated MapSizeFor(Agents) map if nil
	DT            float64           // seconds per frame; 1/60 if zero
	PathBudget    int               // path-search node expansions per frame; systems.DefaultPathBudget if zero
	Workers       int               // goroutines for the hash sort, perception, decision, path following, steering, ORCA and movement; 0 means GOMAXPROCS
	ThinkBudget   int               // most decisions per frame; 0 means no limit
	LOD           bool              // throttle thinking by distance to Focus (systems.DefaultLODLevels)
	Focus         []r2.Vec          // focus points for LOD, cells; the map centre if empty
	Avoid         systems.Avoidance // local avoidance of every agent; separation by default
	DrawOrder     bool              // create the agents in the order they are drawn, not in tile order (to measure what SpawnTile's order saves)
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
	PathJoin   *systems.PathJoin // waits for the PathQueue's searches, which run beside Combat
	Casualties *Casualties
	PathFollow *systems.PathFollow
	Steer      *systems.Steer
	Avoidance  ecs.System // the local-avoidance system between Steer and Movement (ORCA); nil with separation
	Movement   *systems.Movement
}

// NewGuards builds the guard scenario in a new world. It returns an error if
// the map has no passable cell. The agents' first thinks are staggered over
// one interval by blocks of storage order (see staggerByStorage); a fallen
// intruder's replacement keeps its think phase.
func NewGuards(cfg Config) (*Guards, error) {
	cfg = cfg.defaults()
	g, err := cfg.gridOrGenerated()
	if err != nil {
		return nil, err
	}
	world := arche.NewWorld()
	w := &world
	s, sp, err := buildGuards(cfg, w, g)
	if err != nil {
		return nil, err
	}
	// draw every agent first, then create them in tile order, so that
	// neighbours sit next to each other in Arche's columns (spatial.TileOrder)
	rng := steer.NewRand(cfg.Seed ^ 0x5eed)
	pos := make([]r2.Vec, cfg.Agents)
	seeds := make([]uint64, cfg.Agents)
	for i := range cfg.Agents {
		p, ok := randomOpenCell(g, &rng)
		if !ok {
			return nil, errors.New("scenario: the map has no passable cell")
		}
		pos[i], seeds[i] = p, rng.Uint64()
	}
	order, err := spatial.TileOrder(pos, SpawnTile, nil)
	if err != nil {
		return nil, err
	}
	if cfg.DrawOrder {
		for i := range order {
			order[i] = int32(i)
		}
	}
	for _, i := range order {
		if int(i)%cfg.IntruderEvery == cfg.IntruderEvery-1 {
			sp.intruder(pos[i], seeds[i])
		} else {
			sp.guard(pos[i], seeds[i])
		}
	}
	staggerByStorage(w, 0, cfg.DT)
	return s, nil
}

// defaults fills in cfg's zero fields.
func (cfg Config) defaults() Config {
	if cfg.Agents <= 0 {
		cfg.Agents = 10000
	}
	if cfg.IntruderEvery <= 0 {
		cfg.IntruderEvery = 8
	}
	if cfg.DT <= 0 {
		cfg.DT = 1.0 / 60
	}
	return cfg
}

// gridOrGenerated returns cfg.Grid, or the map generated for its Agents and Seed
// (an error for more than MaxAgents).
func (cfg Config) gridOrGenerated() (*grid.Grid, error) {
	if cfg.Grid != nil {
		return cfg.Grid, nil
	}
	return generateFor(cfg.Agents, cfg.Seed)
}

// buildGuards adds the grid to w and builds the scenario's trees, systems and
// spawners over it, spawning nobody (NewGuards spawns, ResumeGuards loads).
func buildGuards(cfg Config, w *arche.World, g *grid.Grid) (*Guards, *spawner, error) {
	arche.AddResource(w, g)
	s := &Guards{World: w, Grid: g, Stats: &Stats{}}
	var err error
	if s.GuardTree, err = GuardTree(w, s.Stats); err != nil {
		return nil, nil, err
	}
	if s.IntruderTree, err = IntruderTree(w, s.Stats); err != nil {
		return nil, nil, err
	}
	s.Clock = ecs.NewClockSystem(cfg.DT)
	s.Spatial = &systems.Spatial{}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	s.Spatial.Workers = workers
	if cfg.LOD {
		focus := cfg.Focus
		if len(focus) == 0 {
			focus = []r2.Vec{{X: float64(g.Width()) / 2, Y: float64(g.Height()) / 2}}
		}
		s.LOD = &systems.LOD{Points: focus}
	}
	s.Perception = &systems.Perception{Workers: workers}
	s.Decision = &systems.Decision{Workers: workers, Budget: cfg.ThinkBudget}
	// the searches run on a helper beside Combat, which reads no Path
	s.PathQueue = &systems.PathQueue{Budget: cfg.PathBudget, Workers: workers, Overlap: true}
	s.PathJoin = s.PathQueue.Join()
	s.Combat = &systems.Combat{Workers: workers}
	s.PathFollow = &systems.PathFollow{Workers: workers}
	s.Steer = &systems.Steer{Workers: workers}
	s.Movement = &systems.Movement{Workers: workers}
	if cfg.Avoid == systems.AvoidORCA {
		s.Avoidance = &systems.ORCA{Workers: workers}
	}

	sp, err := newSpawner(w, g, s.GuardTree, s.IntruderTree, cfg.Avoid)
	if err != nil {
		return nil, nil, err
	}
	s.Casualties = &Casualties{spawner: sp, combat: s.Combat}
	return s, sp, nil
}

// Systems returns the scenario's systems in frame order.
func (s *Guards) Systems() []ecs.System {
	out := []ecs.System{s.Clock}
	if s.LOD != nil {
		out = append(out, s.LOD)
	}
	out = append(out, s.Spatial, s.Perception, s.Decision, s.PathQueue, s.Combat, s.PathJoin, s.Casualties, s.PathFollow, s.Steer)
	if s.Avoidance != nil {
		out = append(out, s.Avoidance)
	}
	return append(out, s.Movement)
}

// spawner creates guards and intruders through the public bundles of package
// systems: one systems.Spawner per kind.
type spawner struct {
	g                 *grid.Grid
	guards, intruders *systems.Spawner
}

// motion is the movement tuning of both kinds but their speed.
func motion(speed float64, avoid systems.Avoidance) systems.Motion {
	return systems.Motion{MaxSpeed: speed, MaxForce: MaxForce, Radius: AgentRadius,
		Wall: 1, Separation: 1, SeparationRadius: 3 * AgentRadius, Avoid: avoid}
}

func newSpawner(w *arche.World, g *grid.Grid, guardTree, intruderTree *bt.Tree, avoid systems.Avoidance) (*spawner, error) {
	guards, err := systems.NewSpawner(w,
		systems.Mover{Motion: motion(GuardSpeed, avoid)},
		systems.Thinker{Tree: guardTree},
		systems.Combatant{Team: TeamGuards, SightRange: GuardSight, Damage: GuardDamage, Range: StrikeRange},
		systems.With(components.LOD{}), systems.With(Guard{}))
	if err != nil {
		return nil, err
	}
	intruders, err := systems.NewSpawner(w,
		systems.Mover{Motion: motion(IntruderSpeed, avoid)},
		systems.Thinker{Tree: intruderTree},
		systems.Combatant{Team: TeamIntruders, SightRange: GuardSight, Damage: IntruderDamage, Range: StrikeRange},
		systems.With(components.LOD{}), systems.With(Intruder{}))
	if err != nil {
		return nil, err
	}
	return &spawner{g: g, guards: guards, intruders: intruders}, nil
}

func (sp *spawner) guard(home r2.Vec, seed uint64) arche.Entity {
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
	sp.guards.Seed = seed
	return sp.guards.Spawn(home, func(a *systems.Spawned) {
		*systems.Component[Guard](a) = Guard{Home: home, Route: route}
	})
}

// intruder spawns an intruder at pos, its Rand seeded with seed.
func (sp *spawner) intruder(pos r2.Vec, seed uint64) arche.Entity {
	sp.intruders.Seed = seed
	return sp.intruders.Spawn(pos, nil)
}

// Casualties handles agents whose health reached 0: a guard is carried home
// and restored to full health (its tree carries on and re-plans from there);
// an intruder is replaced by a new one entering at a random open cell, so the
// population stays constant. The new intruder reuses the fallen one's entity
// and buffers (systems.Spawner.Respawn), so no entity is removed: removing
// agents from an Arche v0.15.3 world can corrupt the buffers of others (see
// Respawn). Guards that targeted the fallen intruder lose it when they next
// perceive: the new one stands elsewhere.
type Casualties struct {
	GuardsDown, IntrudersDown int // totals

	spawner *spawner
	// combat, if not nil, is the scenario's Combat, run just before: its
	// Downed are this frame's casualties (only strikes take health in the
	// scenario, and every casualty is handled in the frame it falls), so
	// Casualties reads no agent's Health but on its first Update after
	// Initialize (a loaded world), when it reads them all.
	combat  *systems.Combat
	scanned bool // the first Update's scan of every Health is done
	clock   *ecs.Clock
	health  *generic.Filter1[components.Health]
	agents  generic.Map7[components.Health, components.Position, components.Velocity, components.Intent, components.Path, components.Rand, components.Brain]
	guards  generic.Map[Guard]
	thinks  generic.Map[components.Think]
	next    float64                // the fallen intruder's Think.Next, for keep
	keep    func(*systems.Spawned) // sets the newcomer's Think.Next to next; made once
	down    []arche.Entity
	ctx     bt.Context

	finalized bool // Finalize ran, and Initialize not since: Update panics (lifecycle.go)
}

// Name implements ecs.Namer.
func (s *Casualties) Name() string { return "casualties" }

// Initialize builds the filter.
func (s *Casualties) Initialize(w *arche.World) {
	s.clock = ecs.ClockOf(w)
	s.health = generic.NewFilter1[components.Health]().
		With(generic.T[components.Position](), generic.T[components.Velocity](), generic.T[components.Intent](),
			generic.T[components.Path](), generic.T[components.Rand](), generic.T[components.Brain]())
	s.agents = generic.NewMap7[components.Health, components.Position, components.Velocity, components.Intent, components.Path, components.Rand, components.Brain](w)
	s.guards = generic.NewMap[Guard](w)
	s.thinks = generic.NewMap[components.Think](w)
	s.keep = func(a *systems.Spawned) { a.Think.Next = s.next }
	s.scanned = false // a new (or loaded) world: read every Health once
	s.finalized = false
}

// Update handles this frame's casualties: Combat's Downed (or, without a
// Combat and on the first Update, one light pass over the agents' Health
// finds them), then each is handled on its own (what happens to one does not
// depend on the others, nor on their order).
//
// Panics if called before Initialize, or after Finalize with no Initialize since
// (lifecycle.go).
func (s *Casualties) Update(w *arche.World) {
	mustInitialized(s.health != nil, s.finalized, "Casualties")
	if s.combat != nil && s.scanned {
		for _, e := range s.combat.Downed {
			s.handle(e)
		}
		return
	}
	s.scanned = true
	q := s.health.Query(w)
	if n := q.Count(); cap(s.down) < n { // everyone may fall: grown once
		s.down = make([]arche.Entity, 0, n+n/4)
	}
	s.down = s.down[:0]
	for q.Next() {
		if q.Get().Current <= 0 {
			s.down = append(s.down, q.Entity())
		}
	}
	for _, e := range s.down {
		s.handle(e)
	}
}

// handle carries a fallen guard home or replaces a fallen intruder.
func (s *Casualties) handle(e arche.Entity) {
	hp, pos, vel, in, path, rng, brain := s.agents.Get(e)
	if g := s.guards.Get(e); g != nil {
		s.GuardsDown++
		*hp = components.Health{Current: hp.Max, Max: hp.Max}
		pos.Vec, vel.Vec = g.Home, r2.Vec{}
		*in = components.Intent{}
		path.State, path.Want, path.Waypoints = components.PathNone, false, path.Waypoints[:0]
		g.Recovering = false
		return
	}
	s.IntrudersDown++
	// its tree is abandoned: halt it (the intruder tree has no halt hooks
	// that need the agent view), then a new intruder enters in its place
	s.ctx.Time = s.clock.Time
	brain.Tree.Halt(&brain.Memory, &s.ctx)
	seed := rng.Uint64()
	r := steer.NewRand(seed)
	at, ok := randomOpenCell(s.spawner.g, &r)
	if !ok {
		at = pos.Vec
	}
	s.spawner.intruders.Seed = seed
	// the newcomer keeps the fallen one's think phase (see staggerByStorage)
	s.next = s.thinks.Get(e).Next
	if err := s.spawner.intruders.Respawn(e, at, s.keep); err != nil {
		panic(err) // every intruder is made by this spawner
	}
}

// Finalize drops the filter: Update panics until the next Initialize.
func (s *Casualties) Finalize(w *arche.World) {
	if s.health != nil { // not if never initialized, or finalized already
		s.health, s.finalized = nil, true
	}
}
