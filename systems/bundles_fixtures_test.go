package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// The benchmark fixtures of package systems, built from the public bundles (the
// package's tests do not import cmd/...): a guard-like crowd of two teams that wander,
// chase and fight along paths, and a swarm that follows a flow field.

// fixtureMap returns a side×side map (side grows with the crowd, about 0.15 agents per
// cell, at least 64) with a walled border and rectangular buildings on about a fifth of
// the area, made from seed.
func fixtureMap(agents int, seed uint64) *grid.Grid {
	side := max(64, int(math.Ceil(math.Sqrt(float64(agents)/0.15)/16))*16)
	g := grid.New(side, side)
	block := func(x, y int) { g.SetCost(grid.Cell{X: int32(x), Y: int32(y)}, grid.Blocked) }
	for i := range side {
		block(i, 0)
		block(i, side-1)
		block(0, i)
		block(side-1, i)
	}
	r := steer.NewRand(seed)
	for covered := 0; covered < side*side/5; {
		w, h := 3+r.Intn(8), 3+r.Intn(8)
		x0, y0 := 2+r.Intn(side-4-w), 2+r.Intn(side-4-h)
		for y := y0; y < y0+h; y++ {
			for x := x0; x < x0+w; x++ {
				block(x, y)
			}
		}
		covered += w * h
	}
	return g
}

// openCell returns the centre of a random passable cell of g.
func openCell(g *grid.Grid, r *steer.Rand) r2.Vec {
	for {
		c := grid.Cell{X: int32(r.Intn(g.Width())), Y: int32(r.Intn(g.Height()))}
		if g.Passable(c) {
			return g.Center(c)
		}
	}
}

// crowd is the guard-like fixture.
type crowd struct {
	World *arche.World
	Grid  *grid.Grid

	Clock      *ecs.ClockSystem
	LOD        *systems.LOD // nil unless asked for
	Spatial    *systems.Spatial
	Perception *systems.Perception
	Decision   *systems.Decision
	PathQueue  *systems.PathQueue
	Combat     *systems.Combat
	PathJoin   *systems.PathJoin // nil unless the queue overlaps Combat (PathQueue.Overlap)
	Respawn    *respawn
	PathFollow *systems.PathFollow
	Steer      *systems.Steer
	ORCA       *systems.ORCA // nil unless the crowd avoids with ORCA
	Movement   *systems.Movement
}

func (c *crowd) systems() []ecs.System {
	out := []ecs.System{c.Clock}
	if c.LOD != nil {
		out = append(out, c.LOD)
	}
	out = append(out, c.Spatial, c.Perception, c.Decision, c.PathQueue, c.Combat)
	if c.PathJoin != nil {
		out = append(out, c.PathJoin)
	}
	out = append(out, c.Respawn, c.PathFollow, c.Steer)
	if c.ORCA != nil {
		out = append(out, c.ORCA)
	}
	return append(out, c.Movement)
}

// fighterTree: fight a foe in range, chase a visible one, else walk to a random goal
// within 12 cells and wait there a second.
func fighterTree() (*bt.Tree, error) {
	inRange := func(ctx *bt.Context) bool {
		a := systems.AgentOf(ctx)
		return a.Perception.Visible && a.Perception.Distance <= 1.5 && a.World.Alive(a.Perception.Target)
	}
	strike := func(ctx *bt.Context) bt.Status {
		a := systems.AgentOf(ctx)
		a.Intent.Attack = a.Perception.Target
		moveIntent(a, a.Perception.TargetAt)
		return bt.Success
	}
	chase := func(ctx *bt.Context) bt.Status {
		a := systems.AgentOf(ctx)
		moveIntent(a, a.Perception.TargetAt)
		return bt.Running
	}
	pick := func(ctx *bt.Context) bt.Status {
		a := systems.AgentOf(ctx)
		for range 8 {
			d := r2.Vec{X: float64(a.Rand.Intn(25) - 12), Y: float64(a.Rand.Intn(25) - 12)}
			if c := a.Grid.CellAt(r2.Add(a.Position.Vec, d)); a.Grid.Passable(c) {
				moveIntent(a, a.Grid.Center(c))
				return bt.Success
			}
		}
		return bt.Failure
	}
	walk := func(ctx *bt.Context) bt.Status {
		a := systems.AgentOf(ctx)
		if r2.Norm(r2.Sub(a.Intent.Goal, a.Position.Vec)) < 0.75 {
			a.Intent.Move = false
			return bt.Success
		}
		if a.Path.State == components.PathUnreachable && a.Path.Goal == a.Grid.CellAt(a.Intent.Goal) {
			a.Intent.Move = false
			return bt.Failure
		}
		return bt.Running
	}
	return bt.Compile("fighter", bt.ReactiveSelector(
		bt.Sequence(bt.Condition("InRange", inRange), bt.Cooldown(1, bt.Action("Strike", strike))),
		bt.ReactiveSequence(bt.Condition("CanSee", func(ctx *bt.Context) bool { return systems.AgentOf(ctx).Perception.Visible }),
			bt.Action("Chase", chase)),
		bt.Sequence(bt.Action("Pick", pick), bt.Action("Walk", walk), bt.Wait(1)),
	))
}

func moveIntent(a *systems.Agent, goal r2.Vec) {
	a.Intent.Move, a.Intent.Goal, a.Intent.SpeedFactor = true, goal, 1
}

// newCrowd spawns n agents of two teams (one in four on team 1) on a fixture map.
func newCrowd(tb testing.TB, n int, seed uint64, workers int, lod bool) *crowd {
	tb.Helper()
	return newCrowdAvoiding(tb, n, seed, workers, lod, systems.AvoidSeparation)
}

// newCrowdAvoiding is newCrowd with the given local avoidance (with AvoidORCA, the ORCA
// system runs between Steer and Movement).
func newCrowdAvoiding(tb testing.TB, n int, seed uint64, workers int, lod bool, avoid systems.Avoidance) *crowd {
	tb.Helper()
	g := fixtureMap(n, seed)
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)
	tree, err := fighterTree()
	require.NoError(tb, err)
	c := &crowd{World: w, Grid: g,
		Clock:      ecs.NewClockSystem(1.0 / 60),
		Spatial:    &systems.Spatial{},
		Perception: &systems.Perception{Workers: workers},
		Decision:   &systems.Decision{Workers: workers},
		PathQueue:  &systems.PathQueue{},
		Combat:     &systems.Combat{},
		PathFollow: &systems.PathFollow{Workers: workers},
		Steer:      &systems.Steer{Workers: workers},
		Movement:   &systems.Movement{Workers: workers},
		Respawn:    &respawn{grid: g},
	}
	if avoid == systems.AvoidORCA {
		c.ORCA = &systems.ORCA{Workers: workers}
	}
	if lod {
		c.LOD = &systems.LOD{Points: []r2.Vec{{X: float64(g.Width()) / 2, Y: float64(g.Height()) / 2}}}
	}
	for team := range c.Respawn.spawners {
		sp, err := systems.NewSpawner(w,
			systems.Mover{Motion: systems.Motion{MaxSpeed: 3, MaxForce: 12, Avoid: avoid}},
			systems.Thinker{Tree: tree},
			systems.Combatant{Team: uint8(team), Damage: 25},
			systems.With(components.LOD{}))
		require.NoError(tb, err)
		c.Respawn.spawners[team] = sp
	}
	r := steer.NewRand(seed)
	for i := range n {
		sp := c.Respawn.spawners[boolInt(i%4 == 3)]
		sp.Seed = r.Uint64()
		sp.Spawn(openCell(g, &r), nil)
	}
	return c
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// respawn replaces the agents whose health reached 0: each one's tree is halted and a
// new agent of its team enters at a random open cell, in the fallen one's entity
// (Spawner.Respawn: no removal, buffers reused).
type respawn struct {
	Replaced int // agents replaced since Initialize

	spawners [2]*systems.Spawner
	grid     *grid.Grid
	clock    *ecs.Clock
	filter   *generic.Filter4[components.Health, components.Faction, components.Rand, components.Brain]
	ctx      bt.Context
}

func (s *respawn) Initialize(w *arche.World) {
	s.clock = ecs.ClockOf(w)
	s.filter = generic.NewFilter4[components.Health, components.Faction, components.Rand, components.Brain]()
}

func (s *respawn) Update(w *arche.World) {
	q := s.filter.Query(w)
	for q.Next() {
		hp, fac, rnd, brain := q.Get()
		if hp.Current > 0 {
			continue
		}
		s.ctx.Time = s.clock.Time
		brain.Tree.Halt(&brain.Memory, &s.ctx) // no halt hooks need the agent view
		seed := rnd.Uint64()
		r := steer.NewRand(seed)
		sp := s.spawners[fac.Team]
		sp.Seed = seed
		if err := sp.Respawn(q.Entity(), openCell(s.grid, &r), nil); err != nil {
			panic(err)
		}
		s.Replaced++
	}
}

func (s *respawn) Finalize(w *arche.World) {}

// swarm is the flow-field fixture: agents that follow one flow field to a goal.
type swarm struct {
	World    *arche.World
	Clock    *ecs.ClockSystem
	Spatial  *systems.Spatial
	Flow     *systems.FlowField
	Follow   *systems.PathFollow
	Steer    *systems.Steer
	Movement *systems.Movement
}

func (s *swarm) systems() []ecs.System {
	return []ecs.System{s.Clock, s.Spatial, s.Flow, s.Follow, s.Steer, s.Movement}
}

// newSwarm spawns n flow followers with the bundle's defaults, heading for one goal.
func newSwarm(tb testing.TB, n int, seed uint64) *swarm {
	tb.Helper()
	g := fixtureMap(n, seed)
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)
	r := steer.NewRand(seed)
	goal := g.CellAt(openCell(g, &r))
	sp, err := systems.NewSpawner(w, systems.FlowFollower{Goal: goal})
	require.NoError(tb, err)
	sp.SpawnBatch(n, func(_ int, a *systems.Spawned) { a.Position.Vec = openCell(g, &r) })
	return &swarm{World: w, Clock: ecs.NewClockSystem(1.0 / 60), Spatial: &systems.Spatial{CellSize: 1},
		Flow: &systems.FlowField{}, Follow: &systems.PathFollow{}, Steer: &systems.Steer{}, Movement: &systems.Movement{}}
}
