package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// goBackAndForth sends a to bed if its goal is the food, else to the food, at each
// think: an Intent that flip-flops whatever brain writes it.
func goBackAndForth(a *systems.Agent) {
	goal := colonyFood
	if a.Intent.Move && a.Intent.Goal == colonyFood {
		goal = colonyBed
	}
	a.Intent.Move, a.Intent.Goal = true, goal
}

// flippingWorld is 4 Movers whose brain, run by decide, is built by spawn, on the
// 60 Hz walking frame, run 3 s; it returns Diagnose's report.
func flippingWorld(t *testing.T, thinker systems.Thinker, decide ecs.System) systems.Report {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(32, 16))
	sp, err := systems.NewSpawner(w, systems.Mover{}, thinker)
	require.NoError(t, err)
	for i := range 4 {
		sp.Spawn(r2.Vec{X: 1.5 + float64(i), Y: 1.5}, nil)
	}
	s := ecs.NewScheduler(walkingWith(decide)...)
	require.NoError(t, s.InitializeChecked(w))
	t.Cleanup(func() { s.Finalize(w) })
	s.Run(w, 3*60)
	return systems.Diagnose(w)
}

// TestIntentFlipFlopAdviceFitsTheBrain: intent_flip_flop advised a behavior-tree fix
// (bt.ReactiveSequence, bt.Sequence) whatever the brain. A utility reasoner whose one
// action's Act sends its agent back and forth (its choice never changes, so it is no
// utility_flip_flop) is now advised the reasoner's hysteresis
// (utility.Policy.WithHysteresis) and an Act kept on to a second threshold; a state
// machine whose state does it, a transition back only past a margin. Each note also
// names the commonest cause with any brain, an arrival within 1 cell that separation
// undoes, and its fix.
func TestIntentFlipFlopAdviceFitsTheBrain(t *testing.T) {
	const arrival = "give arrival a tolerance larger than the push (e.g. 1.5 cells to leave, 1 to arrive)"

	r, err := utility.New("walker", utility.Policy{}, utility.Action{Name: "Walk", Act: func(agent any) {
		goBackAndForth(agent.(*systems.Agent))
	}})
	require.NoError(t, err)
	rep := flippingWorld(t, systems.Thinker{Reasoner: r}, &systems.Utility{})
	require.Equal(t, 4, rep.Counts[systems.CauseIntentFlipFlop], rep.String())
	assert.Zero(t, rep.Counts[systems.CauseUtilityFlipFlop], rep.String())
	msg := rep.String()
	assert.Contains(t, msg, "as its Utility system ran its brain")
	assert.Contains(t, msg, "utility.Policy{}.WithHysteresis(0.15)")
	assert.Contains(t, msg, "keep an Act on until a second threshold")
	assert.Contains(t, msg, arrival)
	assert.NotContains(t, msg, "bt.")

	b := fsm.NewBuilder("walker")
	b.State("Walk", fsm.Hooks{Update: func(ctx *fsm.Context) fsm.StateID {
		goBackAndForth(systems.StateAgent(ctx))
		return fsm.None
	}})
	m, err := b.Build()
	require.NoError(t, err)
	rep = flippingWorld(t, systems.Thinker{Machine: m}, &systems.FSM{})
	require.Equal(t, 4, rep.Counts[systems.CauseIntentFlipFlop], rep.String())
	msg = rep.String()
	assert.Contains(t, msg, "as its FSM system ran its brain")
	assert.Contains(t, msg, "transition back is taken only past a margin")
	// this machine has no Eat nor Sleep: the rows quoted are an example, said so
	assert.Contains(t, msg, "(e.g. Eat when hunger > 70")
	assert.Contains(t, msg, arrival)
	assert.NotContains(t, msg, "bt.")
	assert.NotContains(t, msg, "WithHysteresis")
}

// TestIntentFlipFlopBetweenTwoTargetsAdvisesKeepingTheTarget: a guard tree as the
// README writes it (ReactiveSequence(SeesFoe, Chase), Chase copying
// Perception.Target into Intent.Target) on a crowd of two teams hopped between two
// foes at about the same distance, the nearest in turn, and intent_flip_flop told it
// of a condition its own action undoes (hunger > 70 over Eat) and two thresholds,
// which such a tree has not. Two Intents that differ only in their target entity
// are now advised to keep the current target while it stays in sight and switch
// only to one nearer by a margin, whatever the brain.
func TestIntentFlipFlopBetweenTwoTargetsAdvisesKeepingTheTarget(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(32, 16))
	foes, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	a := foes.Spawn(r2.Vec{X: 20.5, Y: 2.5}, nil)
	b := foes.Spawn(r2.Vec{X: 20.5, Y: 12.5}, nil)
	chase := bt.Action("Chase", func(c *bt.Context) bt.Status {
		ag := systems.AgentOf(c)
		target := a // the nearest foe in turn, as two at the same distance come out
		if ag.Intent.Target == a {
			target = b
		}
		ag.Intent.Mode, ag.Intent.Target = components.IntentPursue, target
		return bt.Running
	})
	tree, err := bt.Compile("guard", chase)
	require.NoError(t, err)
	guards, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree})
	require.NoError(t, err)
	for i := range 4 {
		guards.Spawn(r2.Vec{X: 1.5 + float64(i), Y: 7.5}, nil)
	}
	s := ecs.NewScheduler(walkingWith(&systems.Decision{})...)
	require.NoError(t, s.InitializeChecked(w))
	t.Cleanup(func() { s.Finalize(w) })
	s.Run(w, 3*60)
	rep := systems.Diagnose(w)
	require.Equal(t, 4, rep.Counts[systems.CauseIntentFlipFlop], rep.String())
	msg := rep.String()
	assert.Contains(t, msg, "went back and forth between pursue entity")
	assert.Contains(t, msg, "keep the current target while it stays in sight")
	assert.NotContains(t, msg, "hunger > 70")
	assert.NotContains(t, msg, "tolerance larger than the push")
}
