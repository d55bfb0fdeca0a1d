package systems_test

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/archai-go/archai/ai/bt"
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

// colonyFood and colonyBed are where a colonist eats and sleeps.
var colonyFood, colonyBed = r2.Vec{X: 4.5, Y: 4.5}, r2.Vec{X: 20.5, Y: 4.5}

// colonyWorld is n colonists thinking at the default 10 Hz on a 60 Hz clock, each
// with a hunger that rises 5 a second, under a tree that eats (goal food, hunger
// falling 40 a second) while hungry and sleeps (goal bed) otherwise, with a
// Diagnostics system checking every second into out. With keepOn the tree is the
// README's fix: hungry means above 70 to start and until below 30 once eating (a
// flag per colonist); without it, the newcomer's tree: ReactiveSequence(hunger > 70,
// Eat), which gives Eat up as soon as it lowers hunger to 70.
func colonyWorld(t *testing.T, n int, keepOn bool, out *bytes.Buffer) (*arche.World, *ecs.Scheduler) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(32, 16))
	hunger := map[arche.Entity]float64{}
	eating := map[arche.Entity]bool{}
	hungry := bt.Condition("hungry", func(ctx *bt.Context) bool {
		a := systems.AgentOf(ctx)
		hunger[a.Entity] += 5 * ctx.DT
		if keepOn {
			eating[a.Entity] = hunger[a.Entity] > 70 || eating[a.Entity] && hunger[a.Entity] > 30
			return eating[a.Entity]
		}
		return hunger[a.Entity] > 70
	})
	eat := bt.Action("eat", func(ctx *bt.Context) bt.Status {
		a := systems.AgentOf(ctx)
		a.Intent.Move, a.Intent.Goal = true, colonyFood
		hunger[a.Entity] -= 40 * ctx.DT
		return bt.Running
	})
	sleep := bt.Action("sleep", func(ctx *bt.Context) bt.Status {
		a := systems.AgentOf(ctx)
		a.Intent.Move, a.Intent.Goal = true, colonyBed
		return bt.Running
	})
	tree, err := bt.Compile("colonist", bt.ReactiveSelector(bt.ReactiveSequence(hungry, eat), sleep))
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree})
	require.NoError(t, err)
	for i := range n {
		e := sp.Spawn(r2.Vec{X: 1.5 + float64(i), Y: 1.5}, nil)
		hunger[e] = 60 + float64(i) // hungry within 2.2 s
	}
	s := ecs.NewScheduler(append(walkingWith(&systems.Decision{}), &systems.Diagnostics{Every: 60, Out: out})...)
	require.NoError(t, s.InitializeChecked(w))
	t.Cleanup(func() { s.Finalize(w) })
	return w, s
}

// walkingWith is a 60 Hz clock, the decision system and the systems that walk Movers.
func walkingWith(decide ecs.System) []ecs.System {
	return []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{}, decide,
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{}}
}

// TestDiagnoseReportsABehaviorTreeIntentThatFlipFlops: the newcomer's colony of the
// README, whose ReactiveSequence(hunger > 70, Eat) gives Eat up the moment it works,
// sends each colonist to the food for one think and to bed for the next seven (its
// goal back and forth every 0.1 and 0.7 s), and nothing reported it: the tree does
// what it says. Diagnose now counts every colonist under intent_flip_flop, naming the
// two goals, and the periodic Diagnostics line names it too; the counting allocates
// nothing. The README's fix (eat until below 30) makes no flip-flop.
func TestDiagnoseReportsABehaviorTreeIntentThatFlipFlops(t *testing.T) {
	var out bytes.Buffer
	w, s := colonyWorld(t, 12, false, &out)
	s.Run(w, 10*60)
	rep := systems.Diagnose(w)
	assert.Equal(t, 12, rep.Counts[systems.CauseIntentFlipFlop], rep.String())
	assert.Equal(t, 12, rep.Misconfigured, rep.String())
	assert.Equal(t, "intent_flip_flop", systems.CauseIntentFlipFlop.String())
	msg := rep.String()
	assert.Contains(t, msg, "its Intent went back and forth between goal (")
	assert.Contains(t, msg, "goal (4.5, 4.5)")
	assert.Contains(t, msg, "goal (20.5, 4.5)")
	assert.Contains(t, msg, "as its Decision system ran its brain")
	assert.Contains(t, msg, "bt.Sequence")
	assert.Contains(t, msg, "(e.g. 1.5 cells to leave, 1 to arrive)")
	assert.Contains(t, out.String(), "intent_flip_flop")
	assert.Zero(t, testing.AllocsPerRun(120, func() { s.Update(w) }))

	var fixed bytes.Buffer
	w, s = colonyWorld(t, 12, true, &fixed)
	s.Run(w, 60*60)
	rep = systems.Diagnose(w)
	assert.Zero(t, rep.Counts[systems.CauseIntentFlipFlop], rep.String())
	assert.Zero(t, rep.Total(), rep.String())
	assert.NotContains(t, fixed.String(), "intent_flip_flop")
}

// TestIntentFlipFlopClearsWhenStable: colonists whose hunger stops rising (fed
// elsewhere) settle in bed; utility.FlipWindow (2 s) after their last flip-flop they
// are no longer counted.
func TestIntentFlipFlopClearsWhenStable(t *testing.T) {
	var out bytes.Buffer
	w, s := colonyWorld(t, 3, false, &out)
	s.Run(w, 5*60)
	require.Equal(t, 3, systems.Diagnose(w).Counts[systems.CauseIntentFlipFlop])
	// take the tree's hunger away: a tree that sleeps only
	sleepOnly, err := bt.Compile("sleeper", bt.Action("sleep", func(ctx *bt.Context) bt.Status {
		a := systems.AgentOf(ctx)
		a.Intent.Move, a.Intent.Goal = true, colonyBed
		return bt.Running
	}))
	require.NoError(t, err)
	q := w.Query(arche.All(arche.ComponentID[components.Brain](w)))
	for q.Next() {
		b := (*components.Brain)(q.Get(arche.ComponentID[components.Brain](w)))
		b.ID, b.Tree = sleepOnly.Name(), sleepOnly
	}
	s.Run(w, 60) // 1 s: within FlipWindow of the last flip-flop (each made one 0.8 s apart)
	assert.Equal(t, 3, systems.Diagnose(w).Counts[systems.CauseIntentFlipFlop])
	s.Run(w, 80) // 2.33 s
	rep := systems.Diagnose(w)
	assert.Zero(t, rep.Counts[systems.CauseIntentFlipFlop], rep.String())
}

// TestIntentThatFollowsAMovingTargetIsNoFlipFlop: a chaser whose goal is a point
// moving a little at every think (its foe's position) changes its Intent at every
// think and never goes back to a goal it left: it is not counted. Nor is a guard
// that patrols between two posts, turning every 1.5 s.
func TestIntentThatFollowsAMovingTargetIsNoFlipFlop(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(32, 16))
	chase := bt.Action("chase", func(ctx *bt.Context) bt.Status {
		a := systems.AgentOf(ctx)
		x := 10 + 0.5*float64(int(ctx.Time*10)%2) // hovering: 10, 10.5, 10, ... yet each a new point
		a.Intent.Move, a.Intent.Goal = true, r2.Vec{X: x + ctx.Time/100, Y: 5.5}
		return bt.Running
	})
	patrol := bt.Action("patrol", func(ctx *bt.Context) bt.Status {
		a := systems.AgentOf(ctx)
		a.Intent.Move, a.Intent.Goal = true, colonyFood
		if int(ctx.Time/1.5)%2 == 1 {
			a.Intent.Goal = colonyBed
		}
		return bt.Running
	})
	for _, leaf := range []*bt.Node{chase, patrol} {
		tree, err := bt.Compile("walker", leaf)
		require.NoError(t, err)
		sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree})
		require.NoError(t, err)
		for i := range 4 {
			sp.Spawn(r2.Vec{X: 1.5 + float64(i), Y: 1.5}, nil)
		}
	}
	s := ecs.NewScheduler(walkingWith(&systems.Decision{})...)
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)
	for range 20 {
		s.Run(w, 60)
		rep := systems.Diagnose(w)
		require.Zero(t, rep.Total(), rep.String())
	}
}

// TestAUtilityFlipFlopIsCountedOnce: defenders whose reasoner's choice flip-flops
// (and whose Act sends them back and forth between two posts) are counted under
// utility_flip_flop, whose note is the better one, and not again under
// intent_flip_flop.
func TestAUtilityFlipFlopIsCountedOnce(t *testing.T) {
	var inRange bool
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(32, 8))
	r, err := utility.New("defender", utility.Policy{},
		utility.Action{Name: "Shoot", Weight: 2, Considerations: []utility.Consideration{{Name: "in range", Input: func(any) float64 {
			if inRange {
				return 1
			}
			return 0
		}}}, Act: func(agent any) {
			a := agent.(*systems.Agent)
			a.Intent.Move, a.Intent.Goal = true, colonyFood
		}},
		utility.Action{Name: "Guard", Weight: 0.3, Act: func(agent any) {
			a := agent.(*systems.Agent)
			a.Intent.Move, a.Intent.Goal = true, colonyBed
		}})
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Reasoner: r})
	require.NoError(t, err)
	for i := range 5 {
		sp.Spawn(r2.Vec{X: 1.5 + float64(i), Y: 1.5}, nil)
	}
	s := ecs.NewScheduler(walkingWith(&systems.Utility{})...)
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)
	for f := range 3 * 60 {
		inRange = f%12 < 6
		s.Update(w)
	}
	rep := systems.Diagnose(w)
	assert.Equal(t, 5, rep.Counts[systems.CauseUtilityFlipFlop], rep.String())
	assert.Zero(t, rep.Counts[systems.CauseIntentFlipFlop], rep.String())
	assert.Equal(t, 5, rep.Misconfigured, rep.String())
}

// TestThinkStays32Bytes: the Intent's marks sit in Think's padding, so the scan that
// finds the agents due reads as much as before.
func TestThinkStays32Bytes(t *testing.T) {
	assert.Equal(t, uintptr(32), unsafe.Sizeof(components.Think{}))
}
