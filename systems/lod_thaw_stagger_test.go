package systems

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A crowd that thaws together (the camera jumps back to it) keeps the think stagger it was
// spawned with: newbie14 froze 3,000 staggered agents and brought the focus back, and from
// then on all 3,000 thought in one frame of every six and none in the other five (LOD set
// Think.Next to the thaw time). Each agent now thinks in the thaw frame, as documented, and
// then on its own phase again.
func TestLODThawKeepsTheStagger(t *testing.T) {
	const n = 600
	lod := &LOD{Points: []r2.Vec{{X: 10, Y: 10}}}
	w, s, dec := staggeredCrowd(t, n, lod)
	for f := range 360 {
		switch f {
		case 60:
			lod.Points[0] = r2.Vec{X: 290, Y: 10} // beyond 96 cells: all frozen
		case 180:
			lod.Points[0] = r2.Vec{X: 10, Y: 10} // back: all thaw in this frame
		}
		s.Update(w)
		if f == 180 {
			assert.Equal(t, n, dec.Thought, "every thawed agent thinks in the thaw frame")
		}
		if f >= 300 && f < 306 {
			// 10 Hz at 60 frames/s: about n/6 a frame, as before the freeze
			assert.InDelta(t, n/6, dec.Thought, n/12, "frame %d: thinks per frame after a thaw", f)
		}
	}
}

// staggeredCrowd spawns n thinkers with a LOD (a 20-wide block from (5, 5) on a 300×40
// grid, trees that stay Running) and a schedule of a 1/60 s clock, lod and a Decision,
// initialized: the crowd the thaw tests freeze and bring back.
func staggeredCrowd(t *testing.T, n int, lod *LOD) (*arche.World, *ecs.Scheduler, *Decision) {
	t.Helper()
	w, _ := newWorld(300, 40)
	tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	sp, err := NewSpawner(w, Thinker{Tree: tree}, With(components.LOD{}))
	require.NoError(t, err)
	sp.SpawnBatch(n, func(i int, a *Spawned) { a.Position.Vec = r2.Vec{X: 5 + float64(i%20), Y: 5 + float64(i/20)} })
	dec := &Decision{}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), lod, dec)
	s.Initialize(w)
	return w, s, dec
}
