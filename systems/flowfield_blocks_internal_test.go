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

// TestFlowFieldCollectListsAGoalAgainInALaterBlock: a worker that claims
// block 10 and then block 0 (another worker's range, taken from its back
// while that worker is late), both of whose agents use one goal, lists the
// goal in block 0's part of its log too, so that the goals merged in query
// order put it first. Before, the worker listed it once, in block 10's part:
// the cache was asked for it tenth, not first, and the order of the goals
// (and of the fields built and evicted) depended on which worker ran what
// (seen under -race in TestFlowFieldCollectBlocksKeepQueryOrder).
func TestFlowFieldCollectListsAGoalAgainInALaterBlock(t *testing.T) {
	const blocks = 12
	world := arche.NewWorld()
	w := &world
	g := grid.New(56, 56)
	arche.AddResource(w, g)
	b := generic.NewMap2[components.Position, components.FlowFollower](w)
	goalOf := func(block int) grid.Cell {
		if block == 0 {
			block = blocks - 2
		}
		return grid.Cell{X: int32(4 + 4*block), Y: 4}
	}
	for i := range blocks * blockSize {
		p := r2.Vec{X: 1.5 + float64(i%53), Y: 1.5 + float64(i/53%53)}
		b.NewWith(&components.Position{Vec: p}, &components.FlowFollower{Goal: goalOf(i / blockSize)})
	}
	ff := &FlowField{Workers: 2, Capacity: 16, MaxFields: 64}
	ff.Initialize(w)
	defer ff.Finalize(w)
	ff.Update(w)
	// the collect pass of the next frame, its blocks run by hand: worker 1
	// runs block 10, then block 0
	ff.resolve.phase = ffCollect
	ff.spec, ff.fuse = false, false
	for k := range ff.seen {
		ff.seen[k], ff.broke[k] = ff.seen[k][:0], false
	}
	ff.beginResolve()
	ff.resolve.Work(1, 10*blockSize, 11*blockSize)
	ff.resolve.Work(1, 0, blockSize)
	seg := ff.segs[0]
	require.Equal(t, int32(1), seg.worker)
	got := ff.seen[1][seg.seenLo:seg.seenHi]
	require.Len(t, got, 1, "block 0's goals")
	require.Equal(t, goalOf(0), got[0].goal)
}
