package scenario

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Runtime chaos, then a save: between frames a program writes awkward values into its
// agents (positions, velocities, goals and speeds NaN, infinite, huge, negative or zero;
// goals and path goals off the grid; a Path.Next below 0 or past the waypoints; an
// Attack or Target of any agent), removes agents and edits the grid (walls, costs of
// 1e30 and 1e-30). The systems must run on without a panic, and a save taken after
// such frames must load and continue as the run that went on. This found a PathFollow
// panic on a negative Path.Next and two states their own LoadState refused (requests
// and flow fields with a goal off the grid). Health is left alone: the scenario's
// Casualties takes only Combat's strikes as casualties, by design.

var awkwardFloats = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300, 0, -5, 1e-300}

// sortedAgents returns the entities with a C, in ID order (so the chaos does not depend
// on storage order).
func sortedAgents[C any](w *arche.World) []arche.Entity {
	var ents []arche.Entity
	q := generic.NewFilter1[C]().Query(w)
	for q.Next() {
		ents = append(ents, q.Entity())
	}
	slices.SortFunc(ents, func(a, b arche.Entity) int { return cmp.Compare(a.ID(), b.ID()) })
	return ents
}

func componentOf[C any](w *arche.World, e arche.Entity) *C {
	id := arche.ComponentID[C](w)
	if !w.Has(e, id) {
		return nil
	}
	return (*C)(w.Get(e, id))
}

func editCells(g *grid.Grid, rng *steer.Rand, n int) {
	costs := []float32{grid.Blocked, 1, 2, 1e30, 1e-30}
	for range n {
		c := grid.Cell{X: int32(rng.Intn(g.Width())), Y: int32(rng.Intn(g.Height()))}
		g.SetCost(c, costs[rng.Intn(len(costs))])
	}
}

func guardChaos(w *arche.World, g *grid.Grid, rng *steer.Rand) {
	ents := sortedAgents[components.Position](w)
	awkward := func() float64 { return awkwardFloats[rng.Intn(len(awkwardFloats))] }
	for k, e := range ents {
		switch rng.Intn(60) {
		case 0:
			if k > 3 && rng.Intn(2) == 0 {
				w.RemoveEntity(e)
				systems.ArenaOf(w).Release(e)
			}
		case 1:
			componentOf[components.Position](w, e).X = awkward()
		case 2:
			componentOf[components.Velocity](w, e).Y = awkward()
		case 3:
			if in := componentOf[components.Intent](w, e); in != nil {
				in.Move, in.Goal = true, r2.Vec{X: awkward(), Y: float64(rng.Intn(2000) - 1000)}
				in.SpeedFactor = awkward()
			}
		case 4:
			if in := componentOf[components.Intent](w, e); in != nil {
				in.Attack, in.Target = ents[rng.Intn(len(ents))], ents[rng.Intn(len(ents))]
				in.Mode = components.IntentMode(rng.Intn(int(components.IntentEvade) + 1))
			}
		case 5:
			if p := componentOf[components.Path](w, e); p != nil {
				p.Next = []int{-1, -100, math.MinInt, math.MaxInt, len(p.Waypoints), len(p.Waypoints) + 1}[rng.Intn(6)]
			}
		case 6:
			if p := componentOf[components.Path](w, e); p != nil {
				p.Want, p.Goal = true, grid.Cell{X: int32(rng.Intn(200) - 100), Y: []int32{math.MinInt32, 3, 500}[rng.Intn(3)]}
				p.Priority = int8(rng.Intn(256) - 128)
			}
		case 7:
			if kin := componentOf[components.Kinematics](w, e); kin != nil {
				*[]*float64{&kin.MaxSpeed, &kin.MaxForce, &kin.Radius}[rng.Intn(3)] = awkward()
			}
		case 8:
			if th := componentOf[components.Think](w, e); th != nil {
				*[]*float64{&th.Interval, &th.Next, &th.Last}[rng.Intn(3)] = awkward()
			}
		case 9:
			if wp := componentOf[components.Weapon](w, e); wp != nil {
				*[]*float64{&wp.Damage, &wp.Range, &wp.Cooldown}[rng.Intn(3)] = awkward()
			}
		}
	}
	editCells(g, rng, 5)
}

// inDomain puts back in its domain the one value of guardChaos that Save and Load
// refuse by design (see save's TestSaveRefusesWhatLoadRefuses): a Path.Next below 0
// that PathFollow has not met yet (an agent it did not steer off its fast path, or
// that did not move). It returns how many it put back.
func inDomain(w *arche.World) int {
	n := 0
	q := generic.NewFilter1[components.Path]().Query(w)
	for q.Next() {
		if p := q.Get(); p.Next < 0 {
			p.Next = 0
			n++
		}
	}
	return n
}

// negativeNext reports whether any Path.Next is below 0.
func negativeNext(w *arche.World) bool {
	q := generic.NewFilter1[components.Path]().Query(w)
	for q.Next() {
		if q.Get().Next < 0 {
			q.Close()
			return true
		}
	}
	return false
}

func TestGuardsResumeAfterRuntimeChaos(t *testing.T) {
	refused := 0
	for _, cfg := range []Config{{Agents: 300, Seed: 1, Workers: 1, PathBudget: 50, ThinkBudget: 20, LOD: true},
		{Agents: 300, Seed: 2, Workers: 2, Avoid: systems.AvoidORCA}, {Agents: 300, Seed: 3, Workers: 2, PathBudget: 30}} {
		cfg.Grid = GenerateMap(48, cfg.Seed)
		full, err := NewGuards(cfg)
		require.NoError(t, err)
		sched := ecs.NewScheduler(full.Systems()...)
		sched.Initialize(full.World)
		rng := steer.NewRand(cfg.Seed)
		for range 60 {
			guardChaos(full.World, full.Grid, &rng)
			keepRoutes(full.World)
			sched.Update(full.World)
		}
		had := negativeNext(full.World)
		if had {
			// Save refuses what Load would, naming it, and writes nothing
			data, err := save.Save(full.World, nil, full.SaveStates()...)
			require.ErrorIs(t, err, save.ErrDomain, "seed %d", cfg.Seed)
			require.ErrorContains(t, err, "components.Path.Next: ")
			require.ErrorContains(t, err, ", a waypoint index below 0")
			require.Nil(t, data)
			refused++
		}
		require.Equal(t, had, inDomain(full.World) > 0)
		data, err := save.Save(full.World, nil, full.SaveStates()...)
		require.NoError(t, err)
		saved := full.Grid.Clone()
		sched.Run(full.World, 40)
		sched.Finalize(full.World)
		want := systems.StateHash(full.World)
		cfg.Grid = saved
		s, restore, err := ResumeGuards(cfg, data)
		require.NoError(t, err, "seed %d", cfg.Seed)
		require.Equal(t, want, resumedHash(t, s.World, s.Systems(), restore, 40), "seed %d", cfg.Seed)
	}
	require.Positive(t, refused, "the chaos left a Path.Next below 0 at some save")
}

func swarmChaos(w *arche.World, g *grid.Grid, rng *steer.Rand) {
	cell := func() grid.Cell {
		switch rng.Intn(4) {
		case 0:
			return grid.Cell{X: int32(rng.Intn(g.Width())), Y: int32(rng.Intn(g.Height()))}
		case 1:
			return grid.Cell{X: math.MinInt32, Y: math.MaxInt32}
		case 2:
			return grid.Cell{X: -1, Y: int32(rng.Intn(g.Height()))}
		default:
			return grid.Cell{X: int32(g.Width()), Y: 3}
		}
	}
	awkward := func() float64 { return awkwardFloats[rng.Intn(len(awkwardFloats))] }
	for k, e := range sortedAgents[components.FlowFollower](w) {
		ff := componentOf[components.FlowFollower](w, e)
		switch rng.Intn(30) {
		case 0:
			ff.Goal = cell()
		case 1:
			ff.Active, ff.Has = cell(), rng.Intn(2) == 0
		case 2:
			ff.Follow, ff.Following, ff.Arrived = r2.Vec{X: awkward(), Y: 3}, true, true
		case 3:
			if k > 3 {
				w.RemoveEntity(e)
				systems.ArenaOf(w).Release(e)
			}
		case 4:
			ff.Aim, ff.Steer, ff.Cell = r2.Vec{X: awkward(), Y: 3}, true, cell()
		}
	}
	if rng.Intn(3) == 0 {
		systems.SetFlowGoal(w, cell(), cell())
	}
	editCells(g, rng, 3)
}

func TestSwarmResumeAfterRuntimeChaos(t *testing.T) {
	for i, cfg := range []SwarmConfig{{Agents: 200, Seed: 1, Workers: 1, GoalEvery: 0.3, Budget: 100},
		{Agents: 200, Seed: 2, Workers: 2, GoalEvery: 0.2, Budget: 40}, {Agents: 200, Seed: 3, Workers: 2, GoalEvery: 0.2}} {
		sectors := []int{0, 8, 64}[i] // 64: one sector larger than the 40² map
		cfg.Grid = GenerateMap(40, cfg.Seed)
		full, err := NewSwarm(cfg)
		require.NoError(t, err)
		full.Flow.Sectors = sectors
		sched := ecs.NewScheduler(full.Systems()...)
		sched.Initialize(full.World)
		rng := steer.NewRand(cfg.Seed)
		for range 60 {
			swarmChaos(full.World, full.Grid, &rng)
			sched.Update(full.World)
		}
		data, err := save.Save(full.World, nil, full.SaveStates()...)
		require.NoError(t, err)
		saved := full.Grid.Clone()
		sched.Run(full.World, 40)
		sched.Finalize(full.World)
		want := systems.StateHash(full.World)
		cfg.Grid = saved
		s, restore, err := ResumeSwarm(cfg, data)
		require.NoError(t, err, "config %d", i)
		s.Flow.Sectors = sectors
		require.Equal(t, want, resumedHash(t, s.World, s.Systems(), restore, 40), "config %d", i)
	}
}
