package bt

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An edit whose trees all use each other as subtrees (a cycle, or a tree that uses
// itself) has no root tree, so ReloadDocument built none and took the edit, though no
// tree of it builds (ErrRecursion): the good definitions were replaced by ones no Tree
// call can build. Such an edit is refused whole, the old definitions kept (with a tree
// used only below the cycle, too). An edit with a root above its subtrees is built
// through the root, as before.
func TestAReloadWhoseTreesFormACycleIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "guard.xml")
	write := func(s string) {
		require.NoError(t, os.WriteFile(path, []byte(`<root BTCPP_format="4">`+s+`</root>`), 0o644))
	}
	r := NewRegistry(nil)
	write(`<BehaviorTree ID="A"><AlwaysSuccess/></BehaviorTree><BehaviorTree ID="B"><AlwaysFailure/></BehaviorTree>`)
	_, err := r.LoadDocument(path)
	require.NoError(t, err)

	for _, edit := range []string{
		`<BehaviorTree ID="A"><SubTree ID="B"/></BehaviorTree><BehaviorTree ID="B"><SubTree ID="A"/></BehaviorTree>`,
		`<BehaviorTree ID="A"><Sequence><AlwaysSuccess/><SubTree ID="A"/></Sequence></BehaviorTree>`,
		`<BehaviorTree ID="A"><SubTree ID="B"/></BehaviorTree><BehaviorTree ID="B"><Sequence><SubTree ID="A"/><SubTree ID="C"/></Sequence></BehaviorTree>
<BehaviorTree ID="C"><AlwaysSuccess/></BehaviorTree>`,
	} {
		write(edit)
		_, err = r.ReloadDocument(path)
		require.ErrorIs(t, err, ErrRecursion, edit)
		a, err := r.Tree("A")
		require.NoError(t, err, "A's old definition kept")
		m := a.NewMemory()
		assert.Equal(t, Success, a.Tick(&m, &Context{}))
		_, err = r.Tree("B")
		require.NoError(t, err, "B's old definition kept")
		assert.NotContains(t, r.TreeIDs(), "C", "nothing of the refused edit added")
	}

	// a root above its subtrees: legal
	write(`<BehaviorTree ID="A"><SubTree ID="B"/></BehaviorTree><BehaviorTree ID="B"><AlwaysFailure/></BehaviorTree>`)
	doc, err := r.ReloadDocument(path)
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "B"}, doc.Trees)
}
