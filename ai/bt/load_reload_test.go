package bt

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A designer edits a tree file while the game runs and reloads it: ReloadDocument
// replaces the definitions of the IDs it loads (LoadDocument refuses them as
// duplicates), adds new ones, keeps TreeIDs one per ID, and leaves every definition as
// it was when the edited file does not load.
func TestReloadDocumentReplacesTheEditedTrees(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "guard.xml")
	lib := filepath.Join(dir, "lib.xml")
	write := func(path, s string) { require.NoError(t, os.WriteFile(path, []byte(s), 0o644)) }
	var said []string
	r := NewRegistry(nil)
	require.NoError(t, r.RegisterAction("Say", func(p *Ports) (func(*Context) Status, error) {
		msg := InputPort[string](p, "msg")
		return func(c *Context) Status {
			m, _ := msg.Get(c)
			said = append(said, m)
			return Success
		}, nil
	}))
	tick := func(tr *Tree) []string {
		said = nil
		m := tr.NewMemory()
		ctx := &Context{Blackboard: r.Schema().NewStore()}
		tr.Tick(&m, ctx)
		return said
	}

	write(lib, `<root BTCPP_format="4"><BehaviorTree ID="Greet"><Say msg="halt"/></BehaviorTree></root>`)
	write(main, `<root BTCPP_format="4" main_tree_to_execute="Guard"><include path="lib.xml"/>
<BehaviorTree ID="Guard"><Sequence><SubTree ID="Greet"/><Say msg="patrol"/></Sequence></BehaviorTree></root>`)
	doc, err := r.LoadDocument(main)
	require.NoError(t, err)
	old, err := r.Tree(doc.Main)
	require.NoError(t, err)
	assert.Equal(t, []string{"halt", "patrol"}, tick(old))

	// LoadDocument refuses the same IDs again; nothing changes.
	_, err = r.LoadDocument(main)
	require.ErrorIs(t, err, ErrDuplicateID)

	// The designer edits both files and adds a tree.
	write(lib, `<root BTCPP_format="4"><BehaviorTree ID="Greet"><Say msg="who goes there"/></BehaviorTree>
<BehaviorTree ID="Alarm"><Say msg="alarm"/></BehaviorTree></root>`)
	write(main, `<root BTCPP_format="4" main_tree_to_execute="Guard"><include path="lib.xml"/>
<BehaviorTree ID="Guard"><Sequence><SubTree ID="Greet"/><SubTree ID="Alarm"/><Say msg="chase"/></Sequence></BehaviorTree></root>`)
	doc, err = r.ReloadDocument(main)
	require.NoError(t, err)
	assert.Equal(t, "Guard", doc.Main)
	assert.Equal(t, []string{"Greet", "Alarm", "Guard"}, doc.Trees)
	assert.Equal(t, []string{"Greet", "Guard", "Alarm"}, r.TreeIDs(), "each ID once, where it was first registered")
	tr, err := r.Tree("Guard")
	require.NoError(t, err)
	assert.Equal(t, "Guard", tr.Name())
	assert.Equal(t, []string{"who goes there", "alarm", "chase"}, tick(tr))
	assert.Equal(t, []string{"halt", "patrol"}, tick(old), "a tree built before the reload is not changed")

	// A broken edit is refused whole: the last good definitions still build.
	write(lib, `<root BTCPP_format="4"><BehaviorTree ID="Greet"><Shout msg="x"/></BehaviorTree></root>`)
	_, err = r.ReloadDocument(main)
	require.ErrorIs(t, err, ErrUnknownNode)
	write(lib, `<root BTCPP_format="4"><BehaviorTree ID="Greet"><Say msg="a"/></BehaviorTree><BehaviorTree ID="Greet"><Say msg="b"/></BehaviorTree></root>`)
	_, err = r.ReloadDocument(main)
	require.ErrorIs(t, err, ErrDuplicateID, "two trees of one ID in the reloaded files are still an error")
	tr, err = r.Tree("Guard")
	require.NoError(t, err)
	assert.Equal(t, []string{"who goes there", "alarm", "chase"}, tick(tr))

	// An edit that loads but does not build is refused whole too (a newcomer's misspelt
	// port replaced the good definitions, and Tree failed from then on): a port misspelt
	// in an included subtree, a subtree the registry does not have, a tree that adds a
	// new subtree with a broken port.
	for _, edit := range []struct{ lib, main string }{
		{`<BehaviorTree ID="Greet"><Say mgs="x"/></BehaviorTree><BehaviorTree ID="Alarm"><Say msg="alarm"/></BehaviorTree>`, ""},
		{"", `<BehaviorTree ID="Guard"><Sequence><SubTree ID="Greeet"/><Say msg="chase"/></Sequence></BehaviorTree>`},
		{`<BehaviorTree ID="Greet"><Say msg="hi"/></BehaviorTree><BehaviorTree ID="Alarm"><Say msg="alarm"/></BehaviorTree><BehaviorTree ID="Spare"><Say/></BehaviorTree>`, ""},
	} {
		libXML := `<BehaviorTree ID="Greet"><Say msg="who goes there"/></BehaviorTree><BehaviorTree ID="Alarm"><Say msg="alarm"/></BehaviorTree>`
		mainXML := `<BehaviorTree ID="Guard"><Sequence><SubTree ID="Greet"/><SubTree ID="Alarm"/><Say msg="chase"/></Sequence></BehaviorTree>`
		if edit.lib != "" {
			libXML = edit.lib
		}
		if edit.main != "" {
			mainXML = edit.main
		}
		write(lib, `<root BTCPP_format="4">`+libXML+`</root>`)
		write(main, `<root BTCPP_format="4" main_tree_to_execute="Guard"><include path="lib.xml"/>`+mainXML+`</root>`)
		_, err = r.ReloadDocument(main)
		require.Error(t, err, edit)
		tr, err = r.Tree("Guard")
		require.NoError(t, err, "the last good definitions still build")
		assert.Equal(t, []string{"who goes there", "alarm", "chase"}, tick(tr))
		assert.Equal(t, []string{"Greet", "Guard", "Alarm"}, r.TreeIDs(), "no ID of the refused edit stays")
	}
	write(lib, `<root BTCPP_format="4"><BehaviorTree ID="Greet"><Say mgs="x"/></BehaviorTree></root>`)
	_, err = r.ReloadDocument(main)
	require.ErrorIs(t, err, ErrPort)
	assert.ErrorContains(t, err, "mgs")
	write(lib, `<root BTCPP_format="4"><BehaviorTree ID="Greet"><Say msg="who goes there"/></BehaviorTree><BehaviorTree ID="Alarm"><Say msg="alarm"/></BehaviorTree></root>`)
	write(main, `<root BTCPP_format="4" main_tree_to_execute="Guard"><include path="lib.xml"/>
<BehaviorTree ID="Guard"><Sequence><SubTree ID="Greet"/><SubTree ID="Alarm"/><Say msg="chase"/></Sequence></BehaviorTree></root>`)

	// After a reload the registry refuses duplicates again.
	_, err = r.LoadXML("again.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="Alarm"><Say msg="x"/></BehaviorTree></root>`))
	require.ErrorIs(t, err, ErrDuplicateID)
}

// ReloadDocument reloads a JSON tree file the same way.
func TestReloadDocumentJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.json")
	r := NewRegistry(nil)
	require.NoError(t, os.WriteFile(path, []byte(`{"main":"A","trees":[{"id":"A","root":{"type":"AlwaysSuccess"}}]}`), 0o644))
	tr, err := r.LoadFile(path)
	require.NoError(t, err)
	m := tr.NewMemory()
	assert.Equal(t, Success, tr.Tick(&m, &Context{}))
	require.NoError(t, os.WriteFile(path, []byte(`{"main":"A","trees":[{"id":"A","root":{"type":"AlwaysFailure"}}]}`), 0o644))
	doc, err := r.ReloadDocument(path)
	require.NoError(t, err)
	tr, err = r.Tree(doc.Main)
	require.NoError(t, err)
	m = tr.NewMemory()
	assert.Equal(t, Failure, tr.Tick(&m, &Context{}))
	assert.Equal(t, []string{"A"}, r.TreeIDs())
}
