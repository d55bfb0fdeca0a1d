package bt

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNodeTypeIsTheTypeTheUserWrote: NodeType is the node's kind for a Go node,
// the type a library gave it with Typed (hybrid.UtilitySelector is a Choose), and a
// loaded node's type as written in the file; NodeKind stays the kind. Dump and the
// transition log show the type, and an unnamed typed node is named by it.
func TestNodeTypeIsTheTypeTheUserWrote(t *testing.T) {
	pick := func(*Context) int { return 0 }
	ok := func(*Context) Status { return Success }
	tree, err := Compile("typed", Sequence(
		Choose("idle", pick, Action("patrol", ok)).Typed("UtilitySelector"),
		Choose("", pick, Action("rest", ok)).Typed("UtilitySelector"),
		Choose("plain", pick, Action("walk", ok)),
	))
	require.NoError(t, err)
	assert.Equal(t, "Sequence", tree.NodeType(0))
	assert.Equal(t, "UtilitySelector", tree.NodeType(1))
	assert.Equal(t, "Choose", tree.NodeKind(1), "the kind is unchanged")
	assert.Equal(t, "idle", tree.NodeName(1))
	assert.Equal(t, "UtilitySelector", tree.NodeName(3), "unnamed: named by its type")
	assert.Equal(t, "Choose", tree.NodeType(5), "not typed: its kind")

	var b strings.Builder
	m := tree.NewMemory()
	tr := NewTracer(tree, 0)
	tr.Tick(&m, &Context{})
	require.NoError(t, tree.Dump(&b, &m))
	assert.Contains(t, b.String(), `UtilitySelector "idle"`)
	assert.Contains(t, b.String(), `Choose "plain"`)
	b.Reset()
	require.NoError(t, tr.WriteLog(&b))
	assert.Contains(t, b.String(), `UtilitySelector "idle"`)

	// a loaded node: its type in the file, its kind the built-in's
	r := NewRegistry(nil)
	name, err := r.LoadXML("f.xml", []byte(xmlDoc(`<Fallback name="guard"><AlwaysSuccess/></Fallback>`)))
	require.NoError(t, err)
	loaded, err := r.Tree(name)
	require.NoError(t, err)
	assert.Equal(t, "Fallback", loaded.NodeType(0))
	assert.Equal(t, "Selector", loaded.NodeKind(0))
}
