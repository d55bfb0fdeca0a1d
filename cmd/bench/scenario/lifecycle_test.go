package scenario

import (
	"math"
	"testing"

	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The scenario's own systems, like every system of package systems and the
// ClockSystem: an Update before Initialize panics naming the system (it used to fail on
// a nil clock or filter), an Update after Finalize too (it used to run on, moving the
// swarm's goal or respawning intruders in a world the program had finished with), and
// a level restart (Initialize again) makes them run.
func TestScenarioSystemsPanicNamingThemselvesOutsideTheirLifecycle(t *testing.T) {
	before := func(name string) string {
		return "scenario: " + name + ".Update called before Initialize: call Initialize(w) on every system " +
			"(ecs.Scheduler.Initialize, or arche-model's model.Run) before the first Update"
	}
	after := func(name string) string {
		return "scenario: " + name + ".Update called after Finalize: call Initialize(w) again first (a level restart), or stop updating it"
	}
	empty := arche.NewWorld()
	assert.PanicsWithValue(t, before("GoalDirector"), func() { (&GoalDirector{Every: 1}).Update(&empty) })
	assert.PanicsWithValue(t, before("Casualties"), func() { (&Casualties{}).Update(&empty) })
	assert.NotPanics(t, func() { (&GoalDirector{}).Finalize(&empty) }, "Finalize before Initialize")
	assert.NotPanics(t, func() { (&Casualties{}).Finalize(&empty) }, "Finalize before Initialize")

	sw, err := NewSwarm(SwarmConfig{Agents: 50, Seed: 3, Workers: 1, GoalEvery: 0.05})
	require.NoError(t, err)
	gu, err := NewGuards(Config{Agents: 50, Seed: 3, Workers: 1})
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		sys  ecs.System
		w    *arche.World
		list []ecs.System
	}{{"GoalDirector", sw.Director, sw.World, sw.Systems()}, {"Casualties", gu.Casualties, gu.World, gu.Systems()}} {
		s := runSystems(c.w, c.list, 5)
		s.Finalize(c.w)
		moves := sw.Director.Moves
		assert.PanicsWithValue(t, after(c.name), func() { c.sys.Update(c.w) })
		assert.Equal(t, moves, sw.Director.Moves, "%s: the goal did not move", c.name)
		assert.NotPanics(t, func() { c.sys.Finalize(c.w) }, "%s: a second Finalize", c.name)
		assert.PanicsWithValue(t, after(c.name), func() { c.sys.Update(c.w) })
		s.Initialize(c.w)
		assert.NotPanics(t, func() { s.Run(c.w, 2) }, "%s: a level restart", c.name)
		s.Finalize(c.w)
	}
	assert.Greater(t, sw.Director.Moves, 0, "GoalEvery 0.05 s: the goal moved while running")
}

// A swarm whose GoalEvery is NaN or infinite used to run with a goal that never moved
// (the director's next move at a NaN or infinite time); it is an error, from NewSwarm
// and ResumeSwarm alike. Zero and negative take the default, 5 s.
func TestSwarmRefusesAGoalEveryNotFinite(t *testing.T) {
	for _, every := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := NewSwarm(SwarmConfig{Agents: 20, Seed: 1, GoalEvery: every})
		require.Error(t, err, "%v", every)
		assert.Contains(t, err.Error(), "scenario: SwarmConfig.GoalEvery is")
		_, _, err = ResumeSwarm(SwarmConfig{Agents: 20, Seed: 1, GoalEvery: every}, nil)
		require.Error(t, err, "%v", every)
		assert.Contains(t, err.Error(), "SwarmConfig.GoalEvery")
	}
	for _, every := range []float64{0, -3} {
		s, err := NewSwarm(SwarmConfig{Agents: 20, Seed: 1, GoalEvery: every})
		require.NoError(t, err)
		assert.Equal(t, 5.0, s.Director.Every)
	}
}
