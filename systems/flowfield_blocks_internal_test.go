package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestFlowFieldCollectBlocksKeepQueryOrder: the collect pass runs in
// claimed blocks (a worker may run its blocks after another's, or take the
// back of another's range), yet the cache is asked for the goals in order
// of first use in query order, and the agents left to write back are listed
// in query order, with 1 to 4 workers. Here each of 12 blocks of agents
// brings in a goal of its own, except the first, whose agents take the
// last goal but one; goals change every few frames.
func TestFlowFieldCollectBlocksKeepQueryOrder(t *testing.T) {
	const blocks = 12
	goalOf := func(block, frame int) grid.Cell {
		b := block
		if block == 0 {
			b = blocks - 2
		}
		return grid.Cell{X: int32(4 + 4*b), Y: int32(4 + 4*((b+frame/5)%12))}
	}
	var want [][]grid.Cell // per frame, the goals in order, with 1 worker
	for _, workers := range []int{1, 2, 3, 4} {
		world := arche.NewWorld()
		w := &world
		g := grid.New(56, 56)
		arche.AddResource(w, g)
		b := generic.NewMap2[components.Position, components.FlowFollower](w)
		var ents []arche.Entity
		for i := range blocks * blockSize {
			p := r2.Vec{X: 1.5 + float64(i%53), Y: 1.5 + float64(i/53%53)}
			ents = append(ents, b.NewWith(&components.Position{Vec: p}, &components.FlowFollower{Goal: goalOf(i/blockSize, 0)}))
		}
		ff := &FlowField{Workers: workers, Capacity: 16, MaxFields: 64}
		ff.Initialize(w)
		for frame := range 16 {
			for i, e := range ents {
				p, f := b.Get(e)
				f.Goal = goalOf(i/blockSize, frame)
				p.X += 0.2 // a new cell every few frames: samples to take and write back
			}
			ff.Update(w)
			var got []grid.Cell
			for _, gl := range ff.goals {
				got = append(got, gl.goal)
			}
			if workers == 1 {
				want = append(want, got)
			} else {
				require.Equal(t, want[frame], got, "workers %d, frame %d: goals in order of first use", workers, frame)
			}
			require.Equal(t, goalOf(0, frame), got[0], "frame %d: block 0's goal is asked first", frame)
			if ff.listed {
				for k := 1; k < len(ff.list); k++ {
					require.Less(t, ff.list[k-1], ff.list[k], "workers %d, frame %d: write-back list in query order", workers, frame)
				}
			}
		}
		ff.Finalize(w)
	}
}
