package bt_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ai/script"
	"github.com/stretchr/testify/require"
)

// A node that returns without ticking its child can complete in the tick it starts even
// when that child cannot: nested finite loops around it multiply. Before, these compiled
// and one tick ran 4.3 billion node ticks (a Cooldown cooling down fails at once, a
// Precondition whose condition is false returns at once, a SequenceWithMemory re-entered
// retries the child that failed, a Forever Repeat fails at once when its child does, a
// _failureIf script decides at once, a Choose picking no child fails at once, a Retry of
// count 0 fails and a Repeat of count 0 succeeds without ticking their child).
func TestLoopsAroundNodesThatEndAtOnceAreRefused(t *testing.T) {
	no := func(*bt.Context) bool { return false }
	for name, inner := range map[string]*bt.Node{
		"Cooldown":           bt.Cooldown(5, bt.Wait(0.5)),
		"Precondition":       bt.Precondition("no", no, bt.Failure, bt.Wait(1)),
		"RunOnce":            bt.RunOnce(bt.Sequence(bt.Wait(1), bt.AlwaysFailure())),
		"SequenceWithMemory": bt.SequenceWithMemory(bt.Wait(1), bt.AlwaysFailure()),
		"Forever":            bt.Repeat(bt.Forever, bt.AlwaysFailure()),
		"Loop":               bt.Loop(bt.In[[]int]{}, bt.Out[int]{}, bt.Failure, bt.Wait(1)),
		"_failureIf":         bt.Wait(1).FailureIf(script.MustCompile("true", nil)),
		"Choose":             bt.Choose("none", func(*bt.Context) int { return -1 }, bt.Wait(1)),
		"Retry(0)":           bt.Retry(0, bt.Wait(1)),
	} {
		_, err := bt.Compile("t", bt.Retry(65535, bt.Retry(65535, inner)))
		require.ErrorIs(t, err, bt.ErrInvalidCount, name)
	}
	// a Repeat of count 0 succeeds at once: Repeat loops over it
	_, err := bt.Compile("t", bt.Repeat(65535, bt.Repeat(65535, bt.Repeat(0, bt.Wait(1)))))
	require.ErrorIs(t, err, bt.ErrInvalidCount, "Repeat(0)")
	_, err = bt.Compile("t", bt.Retry(65535, bt.Retry(65535, bt.Cooldown(0, bt.Wait(0.5)))))
	require.NoError(t, err, "a Cooldown of 0 s never cools down: its Wait runs once a tick")
}
