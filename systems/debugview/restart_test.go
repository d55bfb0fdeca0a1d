package debugview_test

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSelectionAcrossALevelRestart (review17): a Viewer kept across a level
// restart (Finalize, then Initialize on a new world) kept its selected entity, of
// the old world: observe and the snapshot asked the new world's Alive of it, which
// Arche answers with an index-out-of-range panic when the new world's entity pool
// is smaller (ecs.Alive's case, missed here), every frame. Now it answers it as a
// dead agent.
func TestSelectionAcrossALevelRestart(t *testing.T) {
	tw := newTestWorld(t, 12, 0, func(v *debugview.Viewer) { v.Every = 1 })
	tw.v.SetEnabled(true)
	last := tw.agents[len(tw.agents)-1]
	require.True(t, tw.v.Select(last.ID()))
	tw.run(2)
	tw.v.Finalize(tw.w)

	world := arche.NewWorld() // the next level: fewer entities
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	clock := ecs.NewClockSystem(1.0 / 60)
	clock.Initialize(w)
	tw.v.Initialize(w)
	assert.NotPanics(t, func() {
		clock.Update(w)
		tw.v.Update(w)
	})
	tw.v.Finalize(w)
	tw.v.Initialize(tw.w) // for the cleanup's Finalize
}
