package systems_test

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// sway keeps two foes about 5 cells from a guard, one east and one south, their
// distances swaying ±0.3 cells in opposite phase (period 0.8 s): two foes at about
// the same distance, the nearer in turn.
type sway struct {
	guard, east, south arche.Entity
	pos                generic.Map1[components.Position]
}

func (s *sway) Initialize(w *arche.World) { s.pos = generic.NewMap1[components.Position](w) }
func (s *sway) Finalize(*arche.World)     {}
func (s *sway) Update(w *arche.World) {
	g := s.pos.Get(s.guard).Vec
	d := 0.3 * math.Sin(2*math.Pi*ecs.ClockOf(w).Time/0.8)
	s.pos.Get(s.east).Vec = r2.Add(g, r2.Vec{X: 5 + d})
	s.pos.Get(s.south).Vec = r2.Add(g, r2.Vec{Y: 5 - d})
}

// TestFirstGuardTreeKeepsItsTarget: the newcomer's guard tree as the README writes
// it (ReactiveSequence(SeesFoe, Chase), Chase copying Perception.Target into a
// pursue Intent while Visible), spawned through the bundles with their defaults,
// between two foes at about the same distance whose order swaps every 0.4 s. With
// the Combatant's default TargetMargin (1 cell) the guard pursues one foe throughout
// and Diagnose reports no intent_flip_flop; with none (TargetMargin < 0: the nearest
// at every think) it hops between the two and is reported.
func TestFirstGuardTreeKeepsItsTarget(t *testing.T) {
	for _, margin := range []float64{0, -1} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(64, 64))
		sees := bt.Condition("SeesFoe", func(c *bt.Context) bool { return systems.AgentOf(c).Perception.Visible })
		chase := bt.Action("Chase", func(c *bt.Context) bt.Status {
			a := systems.AgentOf(c)
			if !a.Perception.Visible {
				return bt.Failure
			}
			a.Intent.Mode, a.Intent.Target = components.IntentPursue, a.Perception.Target
			return bt.Running
		})
		tree, err := bt.Compile("guard", bt.ReactiveSequence(sees, chase))
		require.NoError(t, err)
		guards, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree},
			systems.Combatant{Team: 1, TargetMargin: margin})
		require.NoError(t, err)
		foes, err := systems.NewSpawner(w, systems.Mover{}, systems.Target{Team: 2})
		require.NoError(t, err)
		sw := &sway{guard: guards.Spawn(r2.Vec{X: 10.5, Y: 10.5}, nil)}
		sw.east = foes.Spawn(r2.Vec{X: 15.5, Y: 10.5}, nil)
		sw.south = foes.Spawn(r2.Vec{X: 10.5, Y: 15.5}, nil)
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), sw, &systems.Spatial{}, &systems.Perception{}, &systems.Decision{},
			&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
		require.NoError(t, s.InitializeChecked(w))
		targets := map[arche.Entity]int{}
		intent := generic.NewMap1[components.Intent](w)
		for range 3 * 60 {
			s.Run(w, 1)
			targets[intent.Get(sw.guard).Target]++
		}
		rep := systems.Diagnose(w)
		s.Finalize(w)
		if margin < 0 {
			assert.Equal(t, 1, rep.Counts[systems.CauseIntentFlipFlop], "no margin: %s", rep)
			assert.Contains(t, rep.String(), "give the Perception a TargetMargin")
			assert.Greater(t, min(targets[sw.east], targets[sw.south]), 30, "no margin: the nearest in turn: %v", targets)
			continue
		}
		assert.Zero(t, rep.Counts[systems.CauseIntentFlipFlop], "%s", rep)
		delete(targets, arche.Entity{}) // before the first think
		assert.Len(t, targets, 1, "the first target throughout: %v", targets)
	}
}
