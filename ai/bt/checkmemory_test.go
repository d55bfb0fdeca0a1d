package bt_test

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/require"
)

// Review 15: every memory a tree reaches by ticking (and halting) fits
// CheckMemory, whatever its leaves return: random trees of every composite
// CheckMemory looks into (Sequence, Selector, their memory, reactive and
// async forms, IfThenElse and WhileDoElse with 2 and 3 children, Choose
// with out-of-range picks, TryCatch with and without catch_on_halt) with
// Parallel, ParallelAll and decorators (RunOnce, RunOnceThenSkip, Repeat,
// Retry, Inverter) between them, leaves returning random statuses (Skipped
// included). A tree saved after any tick, or after a halt, loads again.
func TestCheckMemoryAcceptsEveryReachedMemory(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 15))
	statuses := []bt.Status{bt.Running, bt.Running, bt.Success, bt.Failure, bt.Skipped}
	leaf := func() *bt.Node {
		return bt.Action("leaf", func(*bt.Context) bt.Status { return statuses[rng.IntN(len(statuses))] })
	}
	var build func(depth int) *bt.Node
	build = func(depth int) *bt.Node {
		if depth == 0 || rng.IntN(4) == 0 {
			return leaf()
		}
		kids := func(lo, hi int) []*bt.Node {
			k := make([]*bt.Node, lo+rng.IntN(hi-lo+1))
			for i := range k {
				k[i] = build(depth - 1)
			}
			return k
		}
		opt := func() *bt.Node {
			if rng.IntN(2) == 0 {
				return nil
			}
			return build(depth - 1)
		}
		switch rng.IntN(18) {
		case 0:
			return bt.Sequence(kids(1, 4)...)
		case 1:
			return bt.Selector(kids(1, 4)...)
		case 2:
			return bt.SequenceWithMemory(kids(1, 4)...)
		case 3:
			return bt.ReactiveSequence(kids(1, 4)...)
		case 4:
			return bt.ReactiveSelector(kids(1, 4)...)
		case 5:
			return bt.AsyncSequence(kids(1, 4)...)
		case 6:
			return bt.AsyncFallback(kids(1, 4)...)
		case 7:
			return bt.IfThenElse(build(depth-1), build(depth-1), opt())
		case 8:
			return bt.WhileDoElse(build(depth-1), build(depth-1), opt())
		case 9:
			k := kids(1, 4)
			n := len(k)
			return bt.Choose("pick", func(*bt.Context) int { return rng.IntN(n+2) - 1 }, k...)
		case 10:
			return bt.TryCatch(rng.IntN(2) == 0, kids(2, 4)...)
		case 11:
			k := kids(1, 4)
			return bt.Parallel(1+rng.IntN(len(k)), 1+rng.IntN(len(k)), k...)
		case 12:
			k := kids(1, 4)
			return bt.ParallelAll(1+rng.IntN(len(k)), k...)
		case 13:
			return bt.RunOnce(build(depth - 1))
		case 14:
			return bt.RunOnceThenSkip(build(depth - 1))
		case 15:
			return bt.Repeat(1+rng.IntN(3), build(depth-1))
		case 16:
			return bt.Retry(1+rng.IntN(3), build(depth-1))
		default:
			return bt.Inverter(build(depth - 1))
		}
	}
	for trial := range 1500 {
		tree, err := bt.Compile("random", build(4))
		require.NoError(t, err)
		m := tree.NewMemory()
		ctx := &bt.Context{DT: 0.1}
		for tick := range 30 {
			if rng.IntN(12) == 0 {
				tree.Halt(&m, ctx)
			} else {
				tree.Tick(&m, ctx)
			}
			require.NoError(t, tree.CheckMemory(m.Clone()), "trial %d tick %d", trial, tick)
		}
	}
}
