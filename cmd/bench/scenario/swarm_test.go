package scenario

import (
	"os"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sharedMaps = "../../../../shared/maps"

// requireMaps returns the shared MovingAI maps folder, skipping the test when
// it is absent, except on CI (CI=true), where a missing folder fails.
func requireMaps(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(sharedMaps); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI: the MovingAI maps are missing at %s", sharedMaps)
		}
		t.Skipf("no MovingAI maps at %s", sharedMaps)
	}
	return sharedMaps
}

func TestSwarmReachesMovingGoals(t *testing.T) {
	sw, err := NewSwarm(SwarmConfig{Agents: 3000, Seed: 2, Workers: 2})
	require.NoError(t, err)
	s := ecs.NewScheduler(sw.Systems()...)
	s.Initialize(sw.World)
	arrivedAt := map[int]int{}
	followers := generic.NewFilter1[components.FlowFollower]()
	for f := 1; f <= 60*15; f++ {
		s.Update(sw.World)
		if f%60 == 0 {
			q := followers.Query(sw.World)
			for q.Next() {
				if q.Get().Arrived {
					arrivedAt[sw.Director.Moves]++
				}
			}
		}
	}
	assert.Equal(t, 2, sw.Director.Moves, "the goal moved at 5 s and 10 s")
	for move := range 3 {
		assert.Positive(t, arrivedAt[move], "agents arrived at goal %d", move)
	}
}

func TestSwarmStateHashIndependentOfWorkers(t *testing.T) {
	hash := func(workers int) uint64 {
		sw, err := NewSwarm(SwarmConfig{Agents: 2000, Seed: 4, Workers: workers})
		require.NoError(t, err)
		s := ecs.NewScheduler(sw.Systems()...)
		s.Initialize(sw.World)
		s.Run(sw.World, 400)
		return systems.StateHash(sw.World)
	}
	assert.Equal(t, hash(1), hash(2))
}

// TestCrowdOnArenaNeverEntersWalls: 10,000 agents on the 49×49 arena (about
// five per open cell), following a goal that moves every 5 s, for 5,000
// frames: no agent is ever inside a blocked cell.
func TestCrowdOnArenaNeverEntersWalls(t *testing.T) {
	g, err := grid.LoadMap(requireMaps(t) + "/arena.map")
	require.NoError(t, err)
	sw, err := NewSwarm(SwarmConfig{Agents: 10000, Seed: 5, Grid: g})
	require.NoError(t, err)
	s := ecs.NewScheduler(sw.Systems()...)
	s.Initialize(sw.World)
	positions := generic.NewFilter1[components.Position]()
	for frame := range 5000 {
		s.Update(sw.World)
		q := positions.Query(sw.World)
		for q.Next() {
			if p := q.Get(); !g.Passable(g.CellAt(p.Vec)) {
				e := q.Entity()
				q.Close()
				t.Fatalf("frame %d: agent %v inside a blocked cell at %v", frame, e, p.Vec)
			}
		}
	}
	assert.GreaterOrEqual(t, sw.Director.Moves, 16)
}
