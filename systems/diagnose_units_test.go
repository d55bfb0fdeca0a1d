package systems_test

import (
	"strings"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// unitHint is what a note of a place far off the grid ends with.
const unitHint = "(a unit mistake? positions are in cells, cell (x, y) covering [x, x+1)×[y, y+1): pixels given?)"

// noteOf returns the part of r's line about cause c: from its name to the next cause.
func noteOf(r systems.Report, c systems.Cause) string {
	s := r.String()
	i := strings.Index(s, c.String()+" ")
	if i < 0 {
		return ""
	}
	s = s[i:]
	if j := strings.Index(s, "); "); j >= 0 {
		s = s[:j+1]
	}
	return s
}

// TestDiagnoseHintsAtPixelsFarOffTheGrid: a newcomer's agent placed and sent in pixels
// (16 per cell) on a 64×64 map was reported off_grid at (88, 328) and goal_unusable at
// (968, 168), true but with no hint of the cause. A place at or beyond twice the grid's
// size now ends its note with a unit hint, worded as the spawner's Radius check ("a unit
// mistake?"); a place just past the edge, or negative, does not; a flow goal cell far
// off gets it too.
func TestDiagnoseHintsAtPixelsFarOffTheGrid(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(64, 64))
	sp, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 88, Y: 328}, func(a *systems.Spawned) {
		a.Intent.Move, a.Intent.Goal = true, r2.Vec{X: 968, Y: 168}
	})
	rep := systems.Diagnose(w)
	require.Equal(t, 1, rep.Counts[systems.CauseOffGrid], rep.String())
	require.Equal(t, 1, rep.Counts[systems.CauseGoalUnusable], rep.String())
	assert.Contains(t, noteOf(rep, systems.CauseOffGrid), "position (88, 328) cell (88, 328) off the 64×64 grid "+unitHint)
	assert.Contains(t, noteOf(rep, systems.CauseGoalUnusable), "goal (968, 168) cell (968, 168) off the 64×64 grid "+unitHint)

	// just past the edge, and negative: a slip, not a unit
	for _, p := range []r2.Vec{{X: 70, Y: 5}, {X: 5, Y: 127.5}, {X: -200, Y: 5}} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(64, 64))
		sp, err := systems.NewSpawner(w, systems.Mover{})
		require.NoError(t, err)
		sp.Spawn(p, func(a *systems.Spawned) { a.Intent.Move, a.Intent.Goal = true, p })
		rep := systems.Diagnose(w)
		require.Equal(t, 1, rep.Counts[systems.CauseOffGrid], rep.String())
		require.Equal(t, 1, rep.Counts[systems.CauseGoalUnusable], rep.String())
		assert.NotContains(t, rep.String(), "unit mistake", p)
	}

	world = arche.NewWorld()
	w = &world
	arche.AddResource(w, grid.New(64, 64))
	sp, err = systems.NewSpawner(w, systems.FlowFollower{Goal: grid.Cell{X: 400, Y: 40}})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 5.5, Y: 5.5}, nil)
	rep = systems.Diagnose(w)
	require.Equal(t, 1, rep.Counts[systems.CauseFlowGoal], rep.String())
	assert.Contains(t, noteOf(rep, systems.CauseFlowGoal), "flow goal cell (400, 40) off the 64×64 grid "+unitHint)
}
