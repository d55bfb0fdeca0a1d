package bt

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A reload refused because one of its root trees does not build leaves the schema and
// the registry's notes of keys read and written as they were, as a refused Tree does:
// the keys an earlier root of the same edit declared (a key "count" of type int) would
// otherwise stay, so the designer's corrected edit, writing "count" as a string, was
// refused as a port type error, and a key the refused edit wrote hid one nothing
// writes from Tree.UnwrittenKey.
func TestARefusedReloadLeavesTheSchemaAsItWas(t *testing.T) {
	path := filepath.Join(t.TempDir(), "guard.xml")
	write := func(s string) {
		require.NoError(t, os.WriteFile(path, []byte(`<root BTCPP_format="4">`+s+`</root>`), 0o644))
	}
	r := NewRegistry(nil)
	require.NoError(t, r.RegisterAction("Count", func(p *Ports) (func(*Context) Status, error) {
		out := OutputPort[int](p, "out")
		return func(c *Context) Status { out.Set(c, 1); return Success }, nil
	}))
	require.NoError(t, r.RegisterAction("Order", func(p *Ports) (func(*Context) Status, error) {
		out := OutputPort[string](p, "out")
		return func(c *Context) Status { out.Set(c, "hold"); return Success }, nil
	}))
	require.NoError(t, r.RegisterAction("Say", func(p *Ports) (func(*Context) Status, error) {
		msg := InputPort[string](p, "msg")
		return func(c *Context) Status { _, _ = msg.Get(c); return Success }, nil
	}))
	write(`<BehaviorTree ID="Guard"><Say msg="{order}"/></BehaviorTree>`)
	_, err := r.LoadDocument(path)
	require.NoError(t, err)
	guard, err := r.Tree("Guard")
	require.NoError(t, err)
	unwritten, ok := guard.UnwrittenKey(nil)
	require.True(t, ok)
	require.Equal(t, "order", unwritten)
	keys := r.Schema().Keys()

	// Tally builds (it declares count an int and writes order), Guard does not (a subtree misspelt).
	write(`<BehaviorTree ID="Tally"><Sequence><Count out="{count}"/><Order out="{order}"/></Sequence></BehaviorTree>
<BehaviorTree ID="Guard"><SubTree ID="Greeet"/></BehaviorTree>`)
	_, err = r.ReloadDocument(path)
	require.Error(t, err)
	require.ErrorIs(t, err, ErrUnknownTree)
	assert.Equal(t, keys, r.Schema().Keys(), "the refused edit declared no key")
	assert.Nil(t, r.Schema().Type("count"))
	guard, err = r.Tree("Guard")
	require.NoError(t, err)
	unwritten, ok = guard.UnwrittenKey(nil)
	assert.True(t, ok, "nothing the registry built writes order")
	assert.Equal(t, "order", unwritten)

	// The corrected edit writes count as a string: legal, as count was never declared.
	write(`<BehaviorTree ID="Guard"><Sequence><Order out="{count}"/><Say msg="{order}"/></Sequence></BehaviorTree>`)
	_, err = r.ReloadDocument(path)
	require.NoError(t, err)
	_, err = r.Tree("Guard")
	require.NoError(t, err)
}
