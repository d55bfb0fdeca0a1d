package bt_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A JSON number is a port's text as written: a whole number of a million or more read
// as an int, where it was formatted as a float first ("1e+06" cannot be read as int),
// and an int64 past 2^53 keeps its last digit (a designer's reward of 1000000; a newcomer).
func TestLoadJSONPortNumbersAreReadAsWritten(t *testing.T) {
	for _, c := range []struct {
		lit  string
		want int64
	}{{"1000000", 1_000_000}, {"123456789", 123_456_789}, {"9007199254740993", 9_007_199_254_740_993}, {"-2000000", -2_000_000}} {
		reg := bt.NewRegistry(blackboard.NewSchema())
		var got int64
		require.NoError(t, reg.RegisterAction("Award", func(p *bt.Ports) (func(*bt.Context) bt.Status, error) {
			gold := bt.InputPort[int64](p, "gold")
			return func(c *bt.Context) bt.Status {
				got, _ = gold.Get(c)
				return bt.Success
			}, nil
		}))
		id, err := reg.LoadJSON("f.json", []byte(`{"main":"G","trees":[{"id":"G","root":{"type":"Award","ports":{"gold":`+c.lit+`}}}]}`))
		require.NoError(t, err, c.lit)
		tree, err := reg.Tree(id)
		require.NoError(t, err, c.lit)
		m := tree.NewMemory()
		assert.Equal(t, bt.Success, tree.Tick(&m, &bt.Context{DT: 0.1}), c.lit)
		assert.Equal(t, c.want, got, c.lit)
	}
}
