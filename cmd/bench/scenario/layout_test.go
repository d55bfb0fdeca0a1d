package scenario

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestSwarmLayoutMatchesNewSwarm: the layout the reference loop runs is the
// swarm's own: the same spawn positions in spawn order and the same goals.
func TestSwarmLayoutMatchesNewSwarm(t *testing.T) {
	const n = 500
	sw, err := NewSwarm(SwarmConfig{Agents: n, Seed: 7, Workers: 1})
	require.NoError(t, err)
	l, err := NewSwarmLayout(n, 7, nil)
	require.NoError(t, err)
	assert.Equal(t, sw.Director.Goal, l.Goal)
	var got []r2.Vec
	q := generic.NewFilter1[components.Position]().Query(sw.World)
	for q.Next() {
		got = append(got, q.Get().Vec)
	}
	assert.Equal(t, l.Positions, got)
	s := ecs.NewScheduler(sw.Systems()...)
	s.Initialize(sw.World)
	s.Run(sw.World, 301) // the goal moves in frame 300 (5 s)
	require.Equal(t, 1, sw.Director.Moves)
	assert.Equal(t, sw.Director.Goal, l.NextGoal())
}
