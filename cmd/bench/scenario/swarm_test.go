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

// skipUnlessLong skips a long run (thousands of frames) unless ARCHAI_LONG is set, as
// .ci/run does; a short variant of each such test always runs.
// long reports whether the long runs are asked for (ARCHAI_LONG=1, as .ci/run sets).
func long() bool { return os.Getenv("ARCHAI_LONG") != "" }

func skipUnlessLong(t *testing.T) {
	t.Helper()
	if os.Getenv("ARCHAI_LONG") == "" {
		t.Skip("long run: ARCHAI_LONG=1 go test ./cmd/bench/scenario runs it")
	}
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

// crowdOnArena runs 10,000 agents on the 49×49 arena (about five per open cell),
// following a goal that moves every 5 s, for frames frames, and fails as soon as an
// agent is inside a blocked cell. It returns how often the goal moved.
func crowdOnArena(t *testing.T, frames int) int {
	g, err := grid.LoadMap(requireMaps(t) + "/arena.map")
	require.NoError(t, err)
	sw, err := NewSwarm(SwarmConfig{Agents: 10000, Seed: 5, Grid: g})
	require.NoError(t, err)
	s := ecs.NewScheduler(sw.Systems()...)
	s.Initialize(sw.World)
	positions := generic.NewFilter1[components.Position]()
	for frame := range frames {
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
	return sw.Director.Moves
}

// TestCrowdOnArenaNeverEntersWalls: the dense crowd for 6 s, through one move of the
// goal. TestCrowdOnArenaNeverEntersWallsLong runs it for 5,000 frames.
func TestCrowdOnArenaNeverEntersWalls(t *testing.T) {
	assert.Equal(t, 1, crowdOnArena(t, 360), "the goal moved at 5 s")
}

// TestCrowdOnArenaNeverEntersWallsLong: the dense crowd for 5,000 frames (83 s, 16 moves
// of the goal). About 25 s; runs with ARCHAI_LONG=1.
func TestCrowdOnArenaNeverEntersWallsLong(t *testing.T) {
	skipUnlessLong(t)
	assert.GreaterOrEqual(t, crowdOnArena(t, 5000), 16)
}
