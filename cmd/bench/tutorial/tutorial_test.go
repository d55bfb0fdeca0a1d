package tutorial_test

import (
	"os"
	"testing"

	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/cmd/bench/tutorial"
	"github.com/archai-go/archai/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tutorial-style guards do the same work as archai's guard scenario on
// the same map, seed and think rate: decisions, perceptions and A* searches
// per frame within 5%, so cmd/bench -tutorial compares like with like.
func TestSameWorkAsTheScenario(t *testing.T) {
	const agents, frames = 1000, 120
	for _, seed := range []uint64{1, 7} {
		g, err := scenario.NewGuards(scenario.Config{Agents: agents, Seed: seed, Workers: 1})
		require.NoError(t, err)
		sched := ecs.NewScheduler(g.Systems()...)
		sched.Initialize(g.World)
		perceived := 0
		for range frames {
			sched.Update(g.World)
			perceived += g.Perception.Checked
		}
		sched.Finalize(g.World)

		w, err := tutorial.New(tutorial.Config{Agents: agents, Seed: seed})
		require.NoError(t, err)
		assert.Equal(t, g.Grid.Width(), w.Grid.Width(), "the same generated map")
		for range frames {
			w.Step()
		}
		t.Logf("seed %d: thought %d / %d, perceived %d / %d, searches %d / %d, strikes %d / %d", seed,
			g.Decision.TotalThought, w.Thought, perceived, w.Perceived, g.PathQueue.TotalSearches, w.Searches,
			g.Combat.TotalStrikes, w.Strikes)
		assert.InEpsilon(t, g.Decision.TotalThought, w.Thought, 0.05, "decisions")
		assert.InEpsilon(t, perceived, w.Perceived, 0.05, "perceptions")
		assert.InEpsilon(t, g.PathQueue.TotalSearches, w.Searches, 0.05, "A* searches")
		assert.Greater(t, w.Searches, frames/2, "the agents do search")
		assert.Greater(t, w.Strikes, 0, "the agents do fight")
		// every agent's tree runs 10 times a second
		assert.InEpsilon(t, agents*frames/6, w.Thought, 0.01)
	}
}

// A step keeps every agent on an open cell of the map.
func TestAgentsStayOnOpenCells(t *testing.T) {
	w, err := tutorial.New(tutorial.Config{Agents: 500, Seed: 3})
	require.NoError(t, err)
	for range 120 {
		w.Step()
	}
	for _, a := range w.Agents {
		require.True(t, w.Grid.Passable(w.Grid.CellAt(a.Pos)), "agent %d at %v", a.ID, a.Pos)
		require.Greater(t, a.Health, 0.0)
	}
}

// The same at 10,000 agents (ARCHAI_LONG=1; about 5 s).
func TestSameWorkAt10000(t *testing.T) {
	if os.Getenv("ARCHAI_LONG") == "" {
		t.Skip("ARCHAI_LONG=1 runs 10,000 agents for 120 frames in both designs")
	}
	const agents, frames = 10000, 120
	g, err := scenario.NewGuards(scenario.Config{Agents: agents, Seed: 1})
	require.NoError(t, err)
	sched := ecs.NewScheduler(g.Systems()...)
	sched.Initialize(g.World)
	perceived := 0
	for range frames {
		sched.Update(g.World)
		perceived += g.Perception.Checked
	}
	sched.Finalize(g.World)
	w, err := tutorial.New(tutorial.Config{Agents: agents, Seed: 1})
	require.NoError(t, err)
	for range frames {
		w.Step()
	}
	t.Logf("thought %d / %d, perceived %d / %d, searches %d / %d", g.Decision.TotalThought, w.Thought,
		perceived, w.Perceived, g.PathQueue.TotalSearches, w.Searches)
	assert.InEpsilon(t, g.Decision.TotalThought, w.Thought, 0.05, "decisions")
	assert.InEpsilon(t, perceived, w.Perceived, 0.05, "perceptions")
	assert.InEpsilon(t, g.PathQueue.TotalSearches, w.Searches, 0.05, "A* searches")
}
