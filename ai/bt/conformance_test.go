package bt

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMetadataAttributes pins what the README's conformance table says of the attributes
// BehaviorTree.CPP writes when it exports a tree with metadata (writeTreeToXML): _fullpath
// on <BehaviorTree> is accepted and ignored; _uid, and _fullpath on a node, are rejected
// as unknown ports (Groot2 does not write them).
func TestMetadataAttributes(t *testing.T) {
	r := NewRegistry(nil)
	_, err := r.LoadXML("a.xml", []byte(`<root BTCPP_format="4">
  <BehaviorTree ID="A" _fullpath="" _description="main"><SubTree ID="B"/></BehaviorTree>
  <BehaviorTree ID="B" _fullpath="B::1"><AlwaysSuccess/></BehaviorTree>
</root>`))
	require.NoError(t, err)
	tree, err := r.Tree("A")
	require.NoError(t, err)
	m := tree.NewMemory()
	assert.Equal(t, Success, tree.Tick(&m, &Context{}))

	for _, doc := range []string{
		`<root BTCPP_format="4"><BehaviorTree ID="C"><AlwaysSuccess _uid="1"/></BehaviorTree></root>`,
		`<root BTCPP_format="4"><BehaviorTree ID="D"><SubTree ID="B" _fullpath="B::1"/></BehaviorTree></root>`,
	} {
		id, err := r.LoadXML("c.xml", []byte(doc))
		if err == nil {
			_, err = r.Tree(id)
		}
		assert.ErrorIs(t, err, ErrPort, doc)
	}
}

// TestSwitch4To6 loads Switch4, Switch5 and Switch6 (Switch2 and Switch3 are in
// TestLoadBuiltins): the last case's child runs when the variable matches it, the default
// (the last child) otherwise.
func TestSwitch4To6(t *testing.T) {
	for n := 4; n <= 6; n++ {
		for v, want := range map[string]Status{"c" + strconv.Itoa(n): Success, "c1": Failure, "none": Running} {
			attrs, kids := "", ""
			for i := 1; i <= n; i++ {
				attrs += fmt.Sprintf(` case_%d="c%d"`, i, i)
				if i == n {
					kids += "<AlwaysSuccess/>"
				} else {
					kids += "<AlwaysFailure/>"
				}
			}
			doc := fmt.Sprintf(`<root BTCPP_format="4"><BehaviorTree><Sequence>
<SetBlackboard output_key="v" value="%s"/>
<Switch%d variable="{v}"%s>%s<Sleep msec="500"/></Switch%d></Sequence></BehaviorTree></root>`, v, n, attrs, kids, n)
			r := NewRegistry(nil)
			tree := tutorialTree(t, r, "sw.xml", doc, "")
			m := tree.NewMemory()
			assert.Equal(t, want, tree.Tick(&m, &Context{DT: 0.1, Blackboard: r.Schema().NewStore()}), "Switch%d v=%s", n, v)
		}
	}
}
