package systems_test

import (
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestAStaticAgentOnAWallIsNotInABlockedCell: a tower-defense game puts its
// towers on wall cells, and a decoy or crate (the Target bundle) may stand on
// one too. They have a Velocity (so that Perception finds them) but nothing of
// archai's moves them: no Kinematics, so Movement never touches them, and
// in_blocked_cell's note ("it can only slide out by chance") is not theirs.
// Diagnose counted every such tower as misconfigured, for good; a Mover in the
// same wall is still counted.
func TestAStaticAgentOnAWallIsNotInABlockedCell(t *testing.T) {
	w := arche.NewWorld()
	g := grid.New(16, 16)
	wall := grid.Cell{X: 8, Y: 8}
	g.SetCost(wall, grid.Blocked)
	arche.AddResource(&w, g)

	crates, err := systems.NewSpawner(&w, systems.Target{Team: 1})
	require.NoError(t, err)
	crates.Spawn(g.Center(wall), nil)
	towers, err := systems.NewSpawner(&w, systems.Combatant{Team: 1})
	require.NoError(t, err)
	towers.Spawn(g.Center(wall), nil)

	r := systems.Diagnose(&w)
	require.Zero(t, r.Counts[systems.CauseBlocked], "%v", r)

	movers, err := systems.NewSpawner(&w, systems.Mover{})
	require.NoError(t, err)
	mover := movers.Spawn(r2.Vec{X: 8.5, Y: 8.6}, nil)
	r = systems.Diagnose(&w)
	require.Equal(t, 1, r.Counts[systems.CauseBlocked], "%v", r)
	require.Equal(t, mover, r.Examples[systems.CauseBlocked])
}
