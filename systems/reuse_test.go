package systems_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A level restart: the same system values initialized, run and finalized on one world,
// then initialized on a second world, run exactly as fresh systems do there.

// reuseFixture builds a world from a seed and the systems that run it. keep lists the
// indices of systems bound to their world (test fixtures such as respawn) that a
// restart takes from the new build rather than from the first one.
type reuseFixture struct {
	build func(t *testing.T, seed uint64) (*arche.World, []ecs.System)
	keep  []int
	// first, if set, checks the systems after the first world's run (that they hold
	// something of it that a restart must drop).
	first func(t *testing.T, sys []ecs.System)
}

// assertReuse runs a fixture on a first world (seed 1, for 37 frames: the systems keep
// caches, queues and counters of it), then frames frames on world 2 (seed 2) with fresh
// systems, and on worlds 3 and 4 (copies of world 2) with the first world's systems
// again. All must end with world 2's state hash and the fresh systems' counters.
func assertReuse(t *testing.T, f reuseFixture, frames int) {
	t.Helper()
	var stats []map[string]any // per run, the exported fields of the systems after it
	run := func(w *arche.World, sys []ecs.System, frames int) uint64 {
		s := ecs.NewScheduler(sys...)
		s.Initialize(w)
		s.Run(w, frames)
		s.Finalize(w)
		stats = append(stats, exported(sys))
		return systems.StateHash(w)
	}
	w1, first := f.build(t, 1)
	run(w1, first, 37)
	if f.first != nil {
		f.first(t, first)
	}
	w2, fresh := f.build(t, 2)
	want := run(w2, fresh, frames)
	reused := append([]ecs.System(nil), first...)
	for i, name := range []string{"second", "third"} {
		w, sys := f.build(t, 2)
		for _, k := range f.keep {
			reused[k] = sys[k]
		}
		assert.Equal(t, want, run(w, reused, frames), "systems reused on a %s world", name)
		assert.Equal(t, stats[1], stats[2+i], "the systems' counters count from Initialize (%s world)", name)
	}
}

func crowdFixture(workers int, avoid systems.Avoidance) reuseFixture {
	return reuseFixture{build: func(t *testing.T, seed uint64) (*arche.World, []ecs.System) {
		c := newCrowdAvoiding(t, 300, seed, workers, true, avoid)
		c.PathQueue.Budget = 5 // expansions a frame: searches are left pending at the end of a run
		sys := c.systems()
		require.Equal(t, ecs.System(c.Respawn), sys[7])
		d := &systems.Diagnostics{Every: 7}
		return c.World, append(sys, d)
	}, keep: []int{7}, // after Clock, LOD, Spatial, Perception, Decision, PathQueue, Combat
		first: func(t *testing.T, sys []ecs.System) {
			assert.Positive(t, sys[5].(*systems.PathQueue).Waiting, "requests left in the queue")
		}}
}

func TestSystemsReusedOnASecondWorldRunLikeFreshOnes(t *testing.T) {
	t.Run("crowd", func(t *testing.T) { assertReuse(t, crowdFixture(2, systems.AvoidSeparation), 90) })
	t.Run("crowd ORCA one worker", func(t *testing.T) { assertReuse(t, crowdFixture(1, systems.AvoidORCA), 90) })
	t.Run("swarm", func(t *testing.T) {
		assertReuse(t, reuseFixture{build: func(t *testing.T, seed uint64) (*arche.World, []ecs.System) {
			s := newSwarm(t, 300, seed+8)
			return s.World, s.systems()
		}}, 90)
	})
	t.Run("planners", func(t *testing.T) {
		assertReuse(t, reuseFixture{build: plannerWorld}, 60)
	})
	t.Run("utility and fsm", func(t *testing.T) {
		assertReuse(t, reuseFixture{build: utilityFSMWorld}, 60)
	})
}

// plannerWorld: 100 HTN and 100 GOAP agents (seed 1: 90 of each).
func plannerWorld(t *testing.T, seed uint64) (*arche.World, []ecs.System) {
	n := 110 - 10*int(seed)
	world := arche.NewWorld()
	w := &world
	hreg, hid := guardHTN(t)
	greg, gid := fetchGOAP(t)
	arche.AddResource(w, hreg)
	arche.AddResource(w, greg)
	hs, err := systems.NewSpawner(w, systems.HTNThinker{Registry: hreg, Domain: hid})
	require.NoError(t, err)
	hs.Seed = 11 * seed
	hs.SpawnBatch(n, func(i int, a *systems.Spawned) { a.Position.Vec = r2.Vec{X: float64(i)} })
	gs, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: greg, Domain: gid, Interval: 0.2})
	require.NoError(t, err)
	gs.Seed = 12 * seed
	gs.SpawnBatch(n, func(i int, a *systems.Spawned) { a.Position.Vec = r2.Vec{Y: float64(i)} })
	return w, []ecs.System{ecs.NewClockSystem(0.05), &systems.HTN{Workers: 2, Log: true}, &systems.GOAP{Log: true}}
}

// utilityFSMWorld: 150 agents with a utility reasoner, 150 with a state machine (seed
// 1: 140 of each), and a budget on each system.
func utilityFSMWorld(t *testing.T, seed uint64) (*arche.World, []ecs.System) {
	n := 160 - 10*int(seed)
	world := arche.NewWorld()
	w := &world
	r, err := utility.New("hurt", utility.Policy{Hysteresis: 0.1},
		utility.Action{Name: "flee", Considerations: []utility.Consideration{{Name: "hurt",
			Input: func(agent any) float64 {
				a := systems.UtilityAgent(agent)
				return a.Health.Current / a.Health.Max
			}, Curve: utility.InverseQuadratic()}},
			Act: func(agent any) {
				a := systems.UtilityAgent(agent)
				a.Intent.Move, a.Intent.Goal = true, r2.Vec{X: 1, Y: 2}
				a.Health.Current += 7 // recovers while fleeing
			}},
		utility.Action{Name: "hold", Weight: 0.5, Act: func(agent any) {
			a := systems.UtilityAgent(agent)
			a.Intent.Move = false
			a.Health.Current -= float64(1 + a.Rand.Intn(9))
		}},
	)
	require.NoError(t, err)
	b := fsm.NewBuilder("guard")
	idle := b.State("Idle", fsm.Hooks{Update: func(c *fsm.Context) fsm.StateID {
		StateAgent(c).Health.Current -= c.DT * 10
		return fsm.None
	}})
	rest := b.State("Rest", fsm.Hooks{Update: func(c *fsm.Context) fsm.StateID {
		StateAgent(c).Health.Current += c.DT * 30
		return fsm.None
	}})
	b.When(idle, func(c *fsm.Context) bool { return StateAgent(c).Health.Current <= 20 }, rest)
	b.When(rest, func(c *fsm.Context) bool { return StateAgent(c).Health.Current >= 90 }, idle)
	machine, err := b.Build()
	require.NoError(t, err)

	um := generic.NewMap6[components.UtilityBrain, components.Think, components.Position, components.Intent,
		components.Health, components.Rand](w)
	for i := range n {
		e := um.New()
		br, th, _, _, hp, rnd := um.Get(e)
		*br = components.UtilityBrain{Reasoner: r, State: r.NewState()}
		*th = components.Think{Interval: 0.125, Next: float64(i%4) / 32}
		*hp = components.Health{Current: float64(1 + i%100), Max: 100}
		rnd.Rand = steer.NewRand(uint64(i) + seed)
	}
	fm := generic.NewMap5[components.StateMachine, components.Think, components.Position, components.Intent,
		components.Health](w)
	for i := range n {
		e := fm.New()
		sm, th, _, _, hp := fm.Get(e)
		sm.Machine = machine
		*th = components.Think{Interval: 0.25, Next: float64(i%8) / 32}
		*hp = components.Health{Current: float64(30 + i%70), Max: 100}
	}
	return w, []ecs.System{ecs.NewClockSystem(1.0 / 32), &systems.Utility{Workers: 2, Budget: 30}, &systems.FSM{Budget: 25}}
}

// exported returns the exported fields of each system (counters, reports and
// settings), by system and field name.
func exported(sys []ecs.System) map[string]any {
	out := map[string]any{}
	for i, s := range sys {
		v := reflect.ValueOf(s).Elem()
		for k := range v.NumField() {
			f := v.Type().Field(k)
			if !f.IsExported() {
				continue
			}
			name := fmt.Sprintf("%d %T.%s", i, s, f.Name)
			if fv := v.Field(k); fv.Kind() == reflect.Pointer && !fv.IsNil() && fv.Elem().Kind() == reflect.Struct {
				// a system's own object (FlowField.Cache): its exported counters; its
				// unexported state holds the grid's Version, which differs from grid to grid
				for j := range fv.Elem().NumField() {
					if fv.Elem().Type().Field(j).IsExported() {
						out[name+"."+fv.Elem().Type().Field(j).Name] = fv.Elem().Field(j).Interface()
					}
				}
				continue
			}
			out[name] = v.Field(k).Interface()
		}
	}
	return out
}

// StateAgent is systems.StateAgent, short.
func StateAgent(c *fsm.Context) *systems.Agent { return systems.StateAgent(c) }
