package scenario

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// A guard run saved at frame 100 and resumed in a new world ends in the state of the
// run that went on, for 1 and 2 workers; also with a path budget small enough that
// searches wait and one is half done at the save, and a think budget with LOD.
func TestGuardsResumeFromSave(t *testing.T) {
	for _, cfg := range []Config{{Agents: 400, Seed: 3, Workers: 1},
		{Agents: 400, Seed: 4, Workers: 1, PathBudget: 12, ThinkBudget: 5, LOD: true}} {
		resumeGuards(t, cfg)
	}
}

func resumeGuards(t *testing.T, cfg Config) {
	const half = 100
	full, err := NewGuards(cfg)
	require.NoError(t, err)
	sched := ecs.NewScheduler(full.Systems()...)
	sched.Initialize(full.World)
	for range half {
		sched.Update(full.World)
	}
	// with a small path budget, save in a frame that ends with a search half done and
	// others waiting (which frame that is depends on when the agents think: LOD's
	// rescaled think times, 2026-12-06, moved it)
	for i := 0; cfg.PathBudget > 0 && (full.PathQueue.State().Active == nil || len(full.PathQueue.State().Queued) == 0); i++ {
		require.Less(t, i, 120, "no frame ended with a search half done")
		sched.Update(full.World)
	}
	data, err := save.Save(full.World, nil, full.SaveStates()...)
	require.NoError(t, err)
	if cfg.PathBudget > 0 {
		require.NotEmpty(t, full.PathQueue.State().Queued, "searches waiting at the save")
	}
	if cfg.ThinkBudget > 0 {
		require.NotZero(t, full.Decision.Waiting, "agents left for the next frame by the think budget")
	}
	for range half {
		sched.Update(full.World)
	}
	sched.Finalize(full.World)
	want := systems.StateHash(full.World)
	for _, workers := range []int{1, 2} {
		cfg.Workers = workers
		s, restore, err := ResumeGuards(cfg, data)
		require.NoError(t, err)
		require.Equal(t, want, resumedHash(t, s.World, s.Systems(), restore, half), "%d workers", workers)
	}
}

// A swarm run saved and resumed ends in the state of the run that went on; also with a
// flow-field budget small enough that a field is half built at the save.
func TestSwarmResumeFromSave(t *testing.T) {
	resumeSwarm(t, SwarmConfig{Agents: 600, Seed: 3, Workers: 1, GoalEvery: 2})
	resumeSwarm(t, SwarmConfig{Agents: 600, Seed: 5, Workers: 1, GoalEvery: 1, Budget: 2000})
}

func resumeSwarm(t *testing.T, cfg SwarmConfig) {
	const half = 120
	full, err := NewSwarm(cfg)
	require.NoError(t, err)
	sched := ecs.NewScheduler(full.Systems()...)
	sched.Initialize(full.World)
	for range half {
		sched.Update(full.World)
	}
	building := func() bool {
		st, err := full.Flow.Cache.State()
		require.NoError(t, err)
		for _, e := range st.Entries {
			if !e.Done {
				return true
			}
		}
		return false
	}
	for i := 0; cfg.Budget > 0 && !building(); i++ {
		require.Less(t, i, 120, "no frame ended with a field half built")
		sched.Update(full.World)
	}
	data, err := save.Save(full.World, nil, full.SaveStates()...)
	require.NoError(t, err)
	for range half {
		sched.Update(full.World)
	}
	sched.Finalize(full.World)
	want := systems.StateHash(full.World)
	for _, workers := range []int{1, 2} {
		cfg.Workers = workers
		s, restore, err := ResumeSwarm(cfg, data)
		require.NoError(t, err)
		require.Equal(t, want, resumedHash(t, s.World, s.Systems(), restore, half), "%d workers", workers)
	}
}

// resumedHash initializes sys on resumed world w, restores their saved states, runs
// frames frames and returns the world's state hash.
func resumedHash(t *testing.T, w *arche.World, sys []ecs.System, restore func() error, frames int) uint64 {
	sc := ecs.NewScheduler(sys...)
	sc.Initialize(w)
	require.NoError(t, restore())
	for range frames {
		sc.Update(w)
	}
	sc.Finalize(w)
	return systems.StateHash(w)
}
