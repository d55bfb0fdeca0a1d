package scenario

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	"github.com/stretchr/testify/require"
)

// A guard run saved at frame 150 and resumed in a new world ends in the state of the
// run that went on, for 1 and 2 workers.
func TestGuardsResumeFromSave(t *testing.T) {
	const agents, half = 600, 150
	cfg := Config{Agents: agents, Seed: 3, Workers: 1}
	full, err := NewGuards(cfg)
	require.NoError(t, err)
	sched := ecs.NewScheduler(full.Systems()...)
	sched.Initialize(full.World)
	var data []byte
	for i := range 2 * half {
		sched.Update(full.World)
		if i+1 == half {
			data, err = save.Save(full.World, nil, full.SaveStates()...)
			require.NoError(t, err)
		}
	}
	sched.Finalize(full.World)
	want := systems.StateHash(full.World)
	for _, workers := range []int{1, 2} {
		cfg.Workers = workers
		s, restore, err := ResumeGuards(cfg, data)
		require.NoError(t, err)
		sc := ecs.NewScheduler(s.Systems()...)
		sc.Initialize(s.World)
		require.NoError(t, restore())
		for range half {
			sc.Update(s.World)
		}
		sc.Finalize(s.World)
		require.Equal(t, want, systems.StateHash(s.World), "%d workers", workers)
	}
}

func TestSwarmResumeFromSave(t *testing.T) {
	const agents, half = 600, 200
	cfg := SwarmConfig{Agents: agents, Seed: 3, Workers: 1, GoalEvery: 2}
	full, err := NewSwarm(cfg)
	require.NoError(t, err)
	sched := ecs.NewScheduler(full.Systems()...)
	sched.Initialize(full.World)
	var data []byte
	for i := range 2 * half {
		sched.Update(full.World)
		if i+1 == half {
			data, err = save.Save(full.World, nil, full.SaveStates()...)
			require.NoError(t, err)
		}
	}
	sched.Finalize(full.World)
	want := systems.StateHash(full.World)
	for _, workers := range []int{1, 2} {
		cfg.Workers = workers
		s, restore, err := ResumeSwarm(cfg, data)
		require.NoError(t, err)
		sc := ecs.NewScheduler(s.Systems()...)
		sc.Initialize(s.World)
		require.NoError(t, restore())
		for range half {
			sc.Update(s.World)
		}
		sc.Finalize(s.World)
		require.Equal(t, want, systems.StateHash(s.World), "%d workers", workers)
	}
}
