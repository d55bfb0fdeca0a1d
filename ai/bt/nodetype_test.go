package bt

import (
	"hash/fnv"
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

// TestRegisteredLeafTypeIsItsRegisteredName: a registered leaf's NodeType is the name
// it was registered under, written <TargetSeen/> or (v3) <Condition ID="TargetSeen"/>,
// not its kind ("Condition", which NodeKind still gives); its name is the file's name
// attribute, else that type. Dump and the transition log write the type, but
// Fingerprint still hashes such a leaf as its kind and name, as Dump wrote it before,
// so fingerprints saved then still match.
func TestRegisteredLeafTypeIsItsRegisteredName(t *testing.T) {
	r := NewRegistry(nil)
	require.NoError(t, r.RegisterCondition("TargetSeen", func(*Ports) (func(*Context) bool, error) {
		return func(*Context) bool { return false }, nil
	}))
	require.NoError(t, r.RegisterAction("Patrol", func(*Ports) (func(*Context) Status, error) {
		return func(*Context) Status { return Running }, nil
	}))
	require.NoError(t, r.RegisterChooser("Pick", func(*Ports) (func(*Context) int, error) {
		return func(*Context) int { return 0 }, nil
	}))
	id, err := r.LoadXML("guard.xml", []byte(xmlDoc(`<Fallback>
  <TargetSeen name="sees thief"/>
  <Condition ID="TargetSeen"/>
  <Pick><Patrol/></Pick>
  <Action ID="Patrol" name="walk"/>
</Fallback>`)))
	require.NoError(t, err)
	tree, err := r.Tree(id)
	require.NoError(t, err)
	var types, kinds, names []string
	for i := range tree.Len() {
		types = append(types, tree.NodeType(i))
		kinds = append(kinds, tree.NodeKind(i))
		names = append(names, tree.NodeName(i))
	}
	assert.Equal(t, []string{"Fallback", "TargetSeen", "TargetSeen", "Pick", "Patrol", "Patrol"}, types)
	assert.Equal(t, []string{"Selector", "Condition", "Condition", "Choose", "Action", "Action"}, kinds)
	assert.Equal(t, []string{"Fallback", "sees thief", "TargetSeen", "Pick", "Patrol", "walk"}, names)

	var b strings.Builder
	require.NoError(t, tree.Dump(&b, nil))
	assert.Equal(t, "Fallback\n├── TargetSeen \"sees thief\"\n├── TargetSeen\n├── Pick\n│   └── Patrol\n└── Patrol \"walk\"\n", b.String())
	m := tree.NewMemory()
	tr := NewTracer(tree, 0)
	tr.Tick(&m, &Context{})
	b.Reset()
	require.NoError(t, tr.WriteLog(&b))
	assert.Contains(t, b.String(), "TargetSeen \"sees thief\"")

	h := fnv.New64a()
	h.Write([]byte("Fallback\n├── Condition \"sees thief\"\n├── Condition \"TargetSeen\"\n├── Choose \"Pick\"\n│   └── Action \"Patrol\"\n└── Action \"walk\"\n"))
	assert.Equal(t, h.Sum64(), tree.Fingerprint(), "the fingerprint hashes the dump as written before")
}
