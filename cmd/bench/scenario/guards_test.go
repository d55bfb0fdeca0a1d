package scenario

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func run(t testing.TB, cfg Config, frames int) (*Guards, *ecs.Scheduler) {
	t.Helper()
	sc, err := NewGuards(cfg)
	require.NoError(t, err)
	s := ecs.NewScheduler(sc.Systems()...)
	s.Initialize(sc.World)
	s.Run(sc.World, frames)
	return sc, s
}

func TestSameSeedSameStateHash(t *testing.T) {
	cfg := Config{Agents: 1500, Seed: 7}
	a, _ := run(t, cfg, 240)
	b, _ := run(t, cfg, 240)
	assert.Equal(t, systems.StateHash(a.World), systems.StateHash(b.World))
	c, _ := run(t, Config{Agents: 1500, Seed: 8}, 240)
	assert.NotEqual(t, systems.StateHash(a.World), systems.StateHash(c.World), "another seed, another run")
}

func TestEveryBranchRunsAndNobodyEntersWalls(t *testing.T) {
	sc, err := NewGuards(Config{Agents: 3000, Seed: 3})
	require.NoError(t, err)
	s := ecs.NewScheduler(sc.Systems()...)
	s.Initialize(sc.World)

	// find the intruder tree's Wait node to see it run too
	waitNode := -1
	for i := range sc.IntruderTree.Len() {
		if sc.IntruderTree.NodeKind(i) == "Wait" {
			waitNode = i
		}
	}
	require.GreaterOrEqual(t, waitNode, 0)
	waited := false
	brains := generic.NewFilter3[components.Brain, components.Position, components.Faction]()
	for frame := range 600 {
		s.Update(sc.World)
		q := brains.Query(sc.World)
		for q.Next() {
			b, p, f := q.Get()
			if !sc.Grid.Passable(sc.Grid.CellAt(p.Vec)) { // testify (a stack walk) only on a mismatch
				require.True(t, sc.Grid.Passable(sc.Grid.CellAt(p.Vec)), "frame %d: agent inside a blocked cell at %v", frame, p.Vec)
			}
			if f.Team == TeamIntruders && b.Memory.Status(waitNode).String() == "Running" {
				waited = true
			}
		}
	}
	for b := range NumBranches {
		assert.Positive(t, sc.Stats.Runs(b), "branch %s never ran", b)
	}
	assert.True(t, waited, "no intruder ever waited")
	assert.Positive(t, sc.Casualties.IntrudersDown, "intruders are removed and replaced")
	assert.Positive(t, int64(sc.Casualties.GuardsDown)+sc.Stats.Runs(BranchFlee), "guards get hurt")
	assert.Positive(t, sc.PathQueue.TotalServed)
}

func TestGenerateMapIsConnectedAndSeeded(t *testing.T) {
	g := GenerateMap(64, 5)
	h := GenerateMap(64, 5)
	var open []grid.Cell
	for y := range 64 {
		for x := range 64 {
			c := grid.Cell{X: int32(x), Y: int32(y)}
			require.Equal(t, g.Passable(c), h.Passable(c), "same seed, same map")
			if g.Passable(c) {
				open = append(open, c)
			}
		}
	}
	require.Greater(t, len(open), 64*64/3, "a usable share of the map is open")
	for _, c := range open {
		require.True(t, g.Connected(open[0], c), "open cell %v cut off", c)
	}
	assert.False(t, g.Passable(grid.Cell{X: 0, Y: 10}), "walled border")
}

// TestStateHashIndependentOfWorkers: the guards end 200 frames with the same state
// hash for 1 and 2 workers (and 3 with ARCHAI_LONG=1), with and without level of detail.
func TestStateHashIndependentOfWorkers(t *testing.T) {
	one, _ := run(t, Config{Agents: 2000, Seed: 11, Workers: 1}, 200)
	two, _ := run(t, Config{Agents: 2000, Seed: 11, Workers: 2}, 200)
	h := systems.StateHash(one.World)
	assert.Equal(t, h, systems.StateHash(two.World), "1 vs 2 workers")
	if long() { // 3 workers too with ARCHAI_LONG=1
		three, _ := run(t, Config{Agents: 2000, Seed: 11, Workers: 3}, 200)
		assert.Equal(t, h, systems.StateHash(three.World), "1 vs 3 workers")
	}
	assert.Equal(t, one.Stats.Runs(BranchChase), two.Stats.Runs(BranchChase))

	// with level of detail and a think budget too
	cfg := Config{Agents: 2000, Seed: 12, LOD: true, ThinkBudget: 150}
	cfg.Workers = 1
	a, _ := run(t, cfg, 200)
	cfg.Workers = 2
	b, _ := run(t, cfg, 200)
	assert.Equal(t, systems.StateHash(a.World), systems.StateHash(b.World), "LOD and budget, 1 vs 2 workers")

	// each agent thinks once per systems.DefaultThinkInterval (0.1 s: every 6th frame at
	// 60 frames per second, 2000/6 decisions per frame)
	want := 2000 * (1.0 / 60) / systems.DefaultThinkInterval
	assert.InEpsilon(t, want, float64(one.Decision.TotalThought)/200, 0.01, "decisions per frame, no LOD")
	// with LOD, agents far from the focus think at 2 Hz or are frozen
	assert.Less(t, a.Decision.TotalThought, one.Decision.TotalThought/2, "decisions with LOD")
}

func TestThinkBudgetCapsEveryFrame(t *testing.T) {
	// 2,000 agents at 10 Hz are about 333 due a frame: a budget of 150 binds every frame,
	// the rest wait, and the next frame resumes with them.
	sc, err := NewGuards(Config{Agents: 2000, Seed: 11, ThinkBudget: 150})
	require.NoError(t, err)
	s := ecs.NewScheduler(sc.Systems()...)
	s.Initialize(sc.World)
	for frame := range 30 {
		s.Update(sc.World)
		require.Equal(t, 150, sc.Decision.Thought, "frame %d", frame)
		require.Greater(t, sc.Decision.Waiting, 150, "frame %d: more agents due than the budget", frame)
	}
	assert.Equal(t, int64(30*150), sc.Decision.TotalThought)
}

func TestGenerateMapSmallSizes(t *testing.T) {
	for _, n := range []int{0, 5, 12, 16, 17} {
		g := GenerateMap(n, 1)
		assert.GreaterOrEqual(t, g.Width(), 16)
	}
}
