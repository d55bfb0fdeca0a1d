package scenario

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// review5: a level restart with agents. The package systems' systems of one guard
// run (worker pools included), run, finalized, then initialized again on a second,
// fresh world of the same config, end that world in the same state as the second
// world's own fresh systems, for 1 and 2 workers, with ORCA too.
func TestGuardsLevelRestartWithAgentsRunsAsFresh(t *testing.T) {
	for _, cfg := range []Config{{Agents: 300, Seed: 5, Workers: 2}, {Agents: 300, Seed: 6, Workers: 1},
		{Agents: 300, Seed: 7, Workers: 2, Avoid: systems.AvoidORCA, LOD: true, ThinkBudget: 20}} {
		const frames = 90
		old, err := NewGuards(cfg)
		require.NoError(t, err)
		runSystems(old.World, old.Systems(), frames).Finalize(old.World)

		fresh, err := NewGuards(cfg)
		require.NoError(t, err)
		runSystems(fresh.World, fresh.Systems(), frames)
		want := systems.StateHash(fresh.World)

		level, err := NewGuards(cfg)
		require.NoError(t, err)
		// the old run's systems of package systems, the new world's clock and casualties
		level.Casualties.combat = old.Combat
		list := []ecs.System{level.Clock}
		if old.LOD != nil {
			list = append(list, old.LOD)
		}
		list = append(list, old.Spatial, old.Perception, old.Decision, old.PathQueue, old.Combat, level.Casualties,
			old.PathFollow, old.Steer)
		if old.Avoidance != nil {
			list = append(list, old.Avoidance)
		}
		list = append(list, old.Movement)
		runSystems(level.World, list, frames)
		require.Equal(t, want, systems.StateHash(level.World), "%+v", cfg)
	}
}

// review5: the same for the swarm (FlowField, PathFollow's inline flow follower,
// Spatial's counted rebuild).
func TestSwarmLevelRestartWithAgentsRunsAsFresh(t *testing.T) {
	for _, workers := range []int{1, 2} {
		cfg := SwarmConfig{Agents: 600, Seed: 9, Workers: workers}
		const frames = 120
		old, err := NewSwarm(cfg)
		require.NoError(t, err)
		runSystems(old.World, old.Systems(), frames).Finalize(old.World)

		fresh, err := NewSwarm(cfg)
		require.NoError(t, err)
		runSystems(fresh.World, fresh.Systems(), frames)
		want := systems.StateHash(fresh.World)

		level, err := NewSwarm(cfg)
		require.NoError(t, err)
		list := []ecs.System{level.Clock, old.Spatial, level.Director, old.Flow, old.Follow, old.Steer}
		if old.Avoid != nil {
			list = append(list, old.Avoid)
		}
		list = append(list, old.Movement)
		runSystems(level.World, list, frames)
		require.Equal(t, want, systems.StateHash(level.World), "workers %d", workers)
	}
}

// runSystems initializes a scheduler of list on w and runs it for frames
// frames; it returns the scheduler, not finalized.
func runSystems(w *arche.World, list []ecs.System, frames int) *ecs.Scheduler {
	sched := ecs.NewScheduler(list...)
	sched.Initialize(w)
	sched.Run(w, frames)
	return sched
}
