package scenario

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems/save"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// guardCounts are the counts since Initialize a program reads from the guard
// scenario's systems.
type guardCounts struct {
	Thought, Strikes                                          int64
	Down                                                      int
	Served, Dropped, Expansions, Searches, Repathed, Requeued int64
	Overtaken, AStarInstead                                   int64
}

func countsOf(g *Guards) guardCounts {
	q := g.PathQueue
	return guardCounts{g.Decision.TotalThought, g.Combat.TotalStrikes, g.Casualties.GuardsDown + g.Casualties.IntrudersDown,
		q.TotalServed, q.TotalDropped, q.TotalExpansions, q.TotalSearches, q.TotalRepathed, q.TotalRequeued,
		q.TotalOvertaken, q.TotalAStarInstead}
}

// TestGuardsResumeKeepsTheCounts (newcomer): a guard run saved mid-run and resumed used
// to end in the unbroken run's state (same hash) with its counts since Initialize
// restarted at the load: Combat.TotalStrikes (cmd/bench -load printed 23849 strikes of
// 53161), Decision.TotalThought and the PathQueue's totals, silently. The resumed
// systems now count on from the saved counts, equal to the unbroken run's at the load and
// after it.
func TestGuardsResumeKeepsTheCounts(t *testing.T) {
	const half = 60
	cfg := Config{Agents: 300, Seed: 3, Workers: 1}
	full, err := NewGuards(cfg)
	require.NoError(t, err)
	sched := ecs.NewScheduler(full.Systems()...)
	sched.Initialize(full.World)
	for range half {
		sched.Update(full.World)
	}
	data, err := save.Save(full.World, nil, full.SaveStates()...)
	require.NoError(t, err)
	atSave := countsOf(full)
	require.NotZero(t, atSave.Thought)
	require.NotZero(t, atSave.Served)
	require.NotZero(t, atSave.Expansions)

	s, restore, err := ResumeGuards(cfg, data)
	require.NoError(t, err)
	resumed := ecs.NewScheduler(s.Systems()...)
	resumed.Initialize(s.World)
	require.NoError(t, restore())
	assert.Equal(t, atSave, countsOf(s), "at the load")

	for range half {
		sched.Update(full.World)
		resumed.Update(s.World)
	}
	require.NotZero(t, full.Combat.TotalStrikes, "strikes in the run")
	assert.Equal(t, countsOf(full), countsOf(s), "after the load")
	sched.Finalize(full.World)
	resumed.Finalize(s.World)
}
