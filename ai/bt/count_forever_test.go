package bt_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A negative count other than -1 (Forever) is refused the same way in Go and in a
// tree file: Repeat(-5, x) used to compile and run forever while num_cycles="-5" was a
// load error (and BehaviorTree.CPP runs no cycle for it).
func TestNegativeCountsAgreeInGoAndInFiles(t *testing.T) {
	for _, n := range []int{-2, -5, -7, -1 << 20} {
		for _, c := range []struct {
			name string
			node *bt.Node
		}{
			{"Repeat", bt.Repeat(n, bt.AlwaysSuccess())},
			{"Retry", bt.Retry(n, bt.AlwaysFailure())},
		} {
			_, err := bt.Compile("t", bt.Sequence(bt.AlwaysSuccess(), c.node))
			require.Error(t, err, "%s(%d)", c.name, n)
			assert.True(t, errors.Is(err, bt.ErrInvalidCount), "%s(%d): %v", c.name, n, err)
			assert.Contains(t, err.Error(), "want -1 (Forever) to 65535", "%s(%d)", c.name, n)
			assert.Contains(t, err.Error(), `root/Sequence[1]/`+c.name, "the path to the node")
		}
	}
	for _, src := range []string{
		`<Repeat num_cycles="-5"><AlwaysSuccess/></Repeat>`,
		`<RetryUntilSuccessful num_attempts="-7"><AlwaysFailure/></RetryUntilSuccessful>`,
	} {
		reg := bt.NewRegistry(nil)
		id, err := reg.LoadXML("t.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="T">`+src+`</BehaviorTree></root>`))
		if err == nil {
			_, err = reg.Tree(id)
		}
		require.Error(t, err, src)
		assert.True(t, errors.Is(err, bt.ErrInvalidCount), "%s: %v", src, err)
	}
}

// -1 is Forever in both: a Repeat(-1) of a child that succeeds at once runs one cycle
// a tick and never finishes, as <Repeat num_cycles="-1">; 0 and MaxCount compile.
func TestForeverIsMinusOneInGoAndInFiles(t *testing.T) {
	ticks := func(tr *bt.Tree) string {
		m := tr.NewMemory()
		var b strings.Builder
		for range 4 {
			b.WriteString(tr.Tick(&m, &bt.Context{}).String()[:1])
		}
		return b.String()
	}
	tr, err := bt.Compile("go", bt.Repeat(bt.Forever, bt.AlwaysSuccess()))
	require.NoError(t, err)
	assert.Equal(t, "RRRR", ticks(tr))
	reg := bt.NewRegistry(nil)
	id, err := reg.LoadXML("t.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="T"><Repeat num_cycles="-1"><AlwaysSuccess/></Repeat></BehaviorTree></root>`))
	require.NoError(t, err)
	ft, err := reg.Tree(id)
	require.NoError(t, err)
	assert.Equal(t, "RRRR", ticks(ft))
	for _, n := range []int{0, bt.MaxCount} {
		_, err := bt.Compile("ok", bt.Retry(n, bt.AlwaysFailure()))
		assert.NoError(t, err, "Retry(%d)", n)
	}
	_, err = bt.Compile("big", bt.Repeat(bt.MaxCount+1, bt.AlwaysSuccess()))
	assert.ErrorIs(t, err, bt.ErrInvalidCount)
}
