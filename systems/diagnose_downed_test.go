package systems_test

import (
	"strings"
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

// TestDiagnoseReportsDownedAgentsStillActing is a newcomer's program: two
// Combatants whose tree strikes what it sees, the first spawned at 0 health. Before,
// the downed attacker killed its living foe within 2 s and Diagnose said nothing.
// Now Combat refuses its strikes (AttackersDown) and Diagnose counts it under
// downed_still_acting (its decision still runs), with a note naming the fixes; the
// living one is not counted. Taken off its brain (Think.Frozen) with its Intent
// cleared, it is no longer counted; a downed agent whose Intent asks to move is,
// whatever its brain.
func TestDiagnoseReportsDownedAgentsStillActing(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	fight, err := bt.Compile("fight", bt.Action("Strike", func(c *bt.Context) bt.Status {
		a := systems.AgentOf(c)
		if a.Perception.Visible {
			a.Intent.Attack = a.Perception.Target
		}
		return bt.Running
	}))
	require.NoError(t, err)
	var es [2]arche.Entity
	for i := range es {
		sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: fight}, systems.Combatant{Team: uint8(i + 1)})
		require.NoError(t, err)
		es[i] = sp.Spawn(r2.Vec{X: 7.5 + float64(i), Y: 7.5}, func(a *systems.Spawned) {
			if i == 0 {
				a.Health.Current = 0 // already down
			}
		})
	}
	combat := &systems.Combat{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Perception{}, &systems.Decision{},
		&systems.PathQueue{}, combat, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(w))
	asked := 0
	for range 120 {
		s.Update(w)
		asked += combat.AttackersDown
	}
	hp := generic.NewMap[components.Health](w)
	assert.Equal(t, 100.0, hp.Get(es[1]).Current, "the downed attacker struck its living foe")
	assert.Positive(t, asked, "Combat.AttackersDown counts its refused requests")

	r := systems.Diagnose(w)
	assert.Equal(t, 1, r.Counts[systems.CauseDownedStillActing], r.String())
	assert.Equal(t, es[0], r.Examples[systems.CauseDownedStillActing])
	assert.Equal(t, 1, r.Total(), r.String())
	assert.Equal(t, "downed_still_acting", systems.CauseDownedStillActing.String())
	msg := r.String()
	for _, want := range []string{"downed_still_acting 1", "Health.Current ≤ 0", "its decision still runs",
		"Commands.RemoveEntity", "Spawner.Recycle", "Spawner.Respawn", "clear its Intent"} {
		assert.True(t, strings.Contains(msg, want), "%q lacks %q", msg, want)
	}

	// taken off its brain, its Intent cleared: a corpse left in the world
	th := generic.NewMap[components.Think](w)
	in := generic.NewMap[components.Intent](w)
	th.Get(es[0]).Frozen = true
	*in.Get(es[0]) = components.Intent{}
	r = systems.Diagnose(w)
	assert.Zero(t, r.Total(), r.String())

	// a downed agent asked to move is acting, whatever its brain
	in.Get(es[0]).Move, in.Get(es[0]).Goal = true, r2.Vec{X: 2.5, Y: 2.5}
	r = systems.Diagnose(w)
	assert.Equal(t, 1, r.Counts[systems.CauseDownedStillActing], r.String())
	assert.Contains(t, r.String(), "its Intent asks to move")
	assert.NotContains(t, r.String(), "its decision still runs")

	// the Diagnostics system's check allocates nothing in steady state
	d := &systems.Diagnostics{Out: discard{}}
	d.Initialize(w)
	d.Check(w)
	assert.Zero(t, testing.AllocsPerRun(10, func() { d.Check(w) }))
	assert.Equal(t, 1, d.Report.Counts[systems.CauseDownedStillActing])
	s.Finalize(w)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// TestDiagnoseReportsDownedWanderersAndFlowFollowers is a newcomer's guards and
// intruders: intruders spawned with the Wanderer (or FlowFollower) and Target
// bundles, no brain. Struck down, they wandered (or followed their field) on at
// full speed, the guards whose Perception still showed them chased them for good,
// and Diagnose said "no misconfiguration": only a running decision or an Intent
// asking to move or strike was counted. A Wanderer or FlowFollower moves its agent
// whatever its Intent, so a downed one is counted too; a living one is not.
func TestDiagnoseReportsDownedWanderersAndFlowFollowers(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(32, 32))
	wand, err := systems.NewSpawner(w, systems.Wanderer{}, systems.Target{Team: 2})
	require.NoError(t, err)
	flow, err := systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 28, Y: 28}}, systems.Target{Team: 2})
	require.NoError(t, err)
	downW := wand.Spawn(r2.Vec{X: 5.5, Y: 5.5}, func(a *systems.Spawned) { a.Health.Current = 0 })
	wand.Spawn(r2.Vec{X: 9.5, Y: 5.5}, nil) // alive
	downF := flow.Spawn(r2.Vec{X: 5.5, Y: 20.5}, func(a *systems.Spawned) { a.Health.Current = -5 })
	flow.Spawn(r2.Vec{X: 9.5, Y: 20.5}, nil) // alive
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{}, &systems.FlowField{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(w))
	pos := generic.NewMap[components.Position](w)
	from := pos.Get(downW).Vec
	s.Run(w, 120)
	assert.Greater(t, r2.Norm(r2.Sub(pos.Get(downW).Vec, from)), 1.0, "the downed wanderer walks on (what is counted)")

	r := systems.Diagnose(w)
	assert.Equal(t, 2, r.Counts[systems.CauseDownedStillActing], r.String())
	assert.Equal(t, 2, r.Total(), r.String())
	assert.Contains(t, []arche.Entity{downW, downF}, r.Examples[systems.CauseDownedStillActing])
	msg := r.String()
	for _, want := range []string{"downed_still_acting 2", "it still wanders or follows its flow field",
		"Commands.RemoveEntity", "Spawner.Respawn", "remove that component too"} {
		assert.True(t, strings.Contains(msg, want), "%q lacks %q", msg, want)
	}

	d := &systems.Diagnostics{Out: discard{}}
	d.Initialize(w)
	d.Check(w)
	assert.Zero(t, testing.AllocsPerRun(10, func() { d.Check(w) }))
	assert.Equal(t, 2, d.Report.Counts[systems.CauseDownedStillActing])
	s.Finalize(w)
}
