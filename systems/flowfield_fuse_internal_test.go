package systems

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestFlowFieldFusedMeasureCountsAsGather: over steady frames (the collect
// pass measures, gather skips its pass), a goal move, agents removed (the
// guess holds but the steps change: gather measures again), agents added
// and a Spacing change, with 1, 2 and 3 workers, the
// histogram gather decides arrival on holds each agent's distance step
// exactly once, every step is what distance says, and the steady frames
// did take the fused path.
func TestFlowFieldFusedMeasureCountsAsGather(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		rng := rand.New(rand.NewPCG(7, uint64(workers)))
		world := arche.NewWorld()
		w := &world
		g := grid.New(64, 64)
		for y := int32(20); y < 44; y++ {
			g.SetCost(grid.Cell{X: 30, Y: y}, grid.Blocked)
		}
		arche.AddResource(w, g)
		goal := grid.Cell{X: 40, Y: 32}
		b := generic.NewMap2[components.Position, components.FlowFollower](w)
		var ents []arche.Entity
		add := func(k int) {
			for range k {
				p := r2.Vec{X: 2 + rng.Float64()*60, Y: 2 + rng.Float64()*60}
				if !g.Passable(g.CellAt(p)) {
					p.X += 1.5
				}
				ents = append(ents, b.NewWith(&components.Position{Vec: p}, &components.FlowFollower{Goal: goal}))
			}
		}
		add(300)
		ff := &FlowField{Workers: workers}
		ff.Initialize(w)
		fused := 0
		for frame := range 40 {
			switch frame {
			case 12: // the goal moves: the guess fails
				goal = grid.Cell{X: 50, Y: 12}
				for _, e := range ents {
					_, f := b.Get(e)
					f.Goal = goal
				}
			case 20: // fewer followers, nobody switching: other steps, measured by gather
				for _, e := range ents[:100] {
					w.RemoveEntity(e)
				}
				ents = ents[100:]
			case 25: // new followers switch to the field: the apply pass
				add(150)
			case 30:
				ff.Spacing = 1.5
			}
			for _, e := range ents { // everyone drifts towards the goal
				p, _ := b.Get(e)
				c := g.Center(goal)
				p.X += (c.X - p.X) * 0.05 * rng.Float64()
				p.Y += (c.Y - p.Y) * 0.05 * rng.Float64()
			}
			ff.Update(w)
			if ff.fused {
				fused++
			}
			want := make([]int32, len(ff.hist))
			q := ff.filter.Query(w)
			for i := 0; q.Next(); i++ {
				p, _ := q.Get()
				j := ff.jobs[i]
				ws := wantStep(ff, p.Vec, j)
				if ws >= 0 {
					want[ff.goals[j.goal].lo*arrivalSectors+int(ws)]++ // by step and sector
				}
				require.Equal(t, ws, j.step, "workers %d, frame %d, agent %d", workers, frame, i)
			}
			require.Equal(t, want, ff.hist, "workers %d, frame %d: histogram", workers, frame)
		}
		require.Greater(t, fused, 25, "workers %d: steady frames measured in the collect pass", workers)
		ff.Finalize(w)
	}
}
