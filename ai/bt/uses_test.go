package bt

import "testing"

// TestNodeUses: what a builder records with Node.Uses comes back from Tree.NodeUses by
// the node's pre-order index; other nodes return nil.
func TestNodeUses(t *testing.T) {
	type reasoner struct{ name string }
	r := &reasoner{"jobs"}
	tree, err := Compile("uses", Sequence(Action("a", func(*Context) Status { return Success }),
		Choose("pick", func(*Context) int { return 0 }, Action("b", func(*Context) Status { return Success })).Uses(r)))
	if err != nil {
		t.Fatal(err)
	}
	for i := range tree.Len() {
		got := tree.NodeUses(i)
		if i == 2 && got != any(r) || i != 2 && got != nil {
			t.Errorf("NodeUses(%d) = %v", i, got)
		}
	}
	if (*Node)(nil).Uses(r) != nil {
		t.Error("nil Node's Uses: want nil")
	}
}
