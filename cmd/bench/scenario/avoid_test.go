package scenario

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// checkORCARun runs frames of a scenario with -avoid orca's systems and checks
// that the setup is sound, that no agent is ever inside a wall and that most
// agents moved from where they started.
func checkORCARun(t *testing.T, w *arche.World, g *grid.Grid, sys []ecs.System, frames int) {
	t.Helper()
	s := ecs.NewScheduler(sys...)
	s.Initialize(w)
	r := systems.Diagnose(w)
	require.Zero(t, r.Total(), "%v", &r)
	f := generic.NewFilter1[components.Position]()
	start := map[arche.Entity]r2.Vec{}
	q := f.Query(w)
	for q.Next() {
		start[q.Entity()] = q.Get().Vec
	}
	for frame := range frames {
		s.Update(w)
		q := f.Query(w)
		for q.Next() {
			p := q.Get().Vec
			require.True(t, g.Passable(g.CellAt(p)), "frame %d: agent inside a blocked cell at %v", frame, p)
		}
	}
	moved := 0
	q = f.Query(w)
	for q.Next() {
		if r2.Norm(r2.Sub(q.Get().Vec, start[q.Entity()])) > 0.5 {
			moved++
		}
	}
	assert.Greater(t, moved, len(start)*3/4, "agents that moved more than half a cell, of %d", len(start))
	r = systems.Diagnose(w)
	assert.Zero(t, r.Total(), "%v", &r)
}

func TestORCAScenariosMoveAndStayOutOfWalls(t *testing.T) {
	t.Run("swarm", func(t *testing.T) {
		sw, err := NewSwarm(SwarmConfig{Agents: 400, Seed: 3, Workers: 2, Avoid: systems.AvoidORCA})
		require.NoError(t, err)
		require.NotNil(t, sw.Avoid, "the ORCA system runs")
		checkORCARun(t, sw.World, sw.Grid, sw.Systems(), 120)
	})
	t.Run("guards", func(t *testing.T) {
		sc, err := NewGuards(Config{Agents: 400, Seed: 3, Workers: 2, Avoid: systems.AvoidORCA})
		require.NoError(t, err)
		require.NotNil(t, sc.Avoidance, "the ORCA system runs")
		checkORCARun(t, sc.World, sc.Grid, sc.Systems(), 120)
	})
}
