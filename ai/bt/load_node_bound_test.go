package bt

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadAllocs loads data with load and returns its error and the bytes it allocated.
func loadAllocs(load func() error) (error, uint64) {
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	err := load()
	runtime.ReadMemStats(&m1)
	return err, m1.TotalAlloc - m0.TotalAlloc
}

// A tree file of millions of nodes is refused as it is read, once a tree passes
// MaxNodes (no such tree builds), naming the file, the line, the tree and the bound; a
// file of unknown nodes is refused at the 20th. Before, 10 MB of either were read whole:
// about 230 MB (<AlwaysSuccess/>, which then loaded) and 900 MB (<X/>) allocated, for
// an error or a tree no Tree call could build.
func TestLoadStopsAtTheNodeBound(t *testing.T) {
	const size = 10 << 20
	const bound = 32 << 20 // allocated bytes: the file is 10 MB
	for _, c := range []struct {
		name, elem string
		err        error
		msg        []string
	}{
		{"known", "<AlwaysSuccess/>", ErrTooManyNodes, []string{`bt: big.xml:4: BehaviorTree "M": too many nodes: more than 65535 (MaxNodes) in one tree`}},
		{"unknown", "<X/>", ErrUnknownNode, []string{`big.xml:4: X: unknown node type "X"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(xmlDoc("<Sequence>\n" + strings.Repeat(c.elem, size/len(c.elem)) + "</Sequence>"))
			r := NewRegistry(nil)
			err, allocated := loadAllocs(func() error { _, err := r.LoadXML("big.xml", data); return err })
			require.ErrorIs(t, err, c.err)
			for _, m := range c.msg {
				assert.Contains(t, err.Error(), m)
			}
			assert.Less(t, allocated, uint64(bound), "bytes allocated loading %d bytes", len(data))
			assert.Empty(t, r.TreeIDs())
		})
	}
	t.Run("json", func(t *testing.T) {
		node := `{"type": "AlwaysSuccess"},` + "\n"
		data := []byte(`{"trees": [{"id": "A", "root": {"type": "AlwaysSuccess"}}, {"id": "M", "root": {"type": "Sequence", "children": [` + "\n" +
			strings.Repeat(node, size/len(node)) + `{"type": "AlwaysSuccess"}]}}]}`)
		r := NewRegistry(nil)
		err, allocated := loadAllocs(func() error { _, err := r.LoadJSON("big.json", data); return err })
		require.ErrorIs(t, err, ErrTooManyNodes)
		// the 65535th child is the tree's 65536th node, on line 1+65535
		assert.Contains(t, err.Error(), `bt: big.json:65536: $.trees[1]: too many nodes: more than 65535 (MaxNodes) in one tree`)
		assert.Less(t, allocated, uint64(bound), "bytes allocated loading %d bytes", len(data))
	})
}

// A tree of MaxNodes nodes still loads and builds, from XML and JSON, and the bound
// counts each tree of a file alone; keys of another case count as encoding/json reads
// them.
func TestLoadNodeBoundIsPerTree(t *testing.T) {
	kids := MaxNodes - 1 // with the Sequence, MaxNodes nodes
	xmlTree := func(id string, kids int) string {
		return `<BehaviorTree ID="` + id + `"><Sequence>` + strings.Repeat(`<AlwaysSuccess/>`, kids) + `</Sequence></BehaviorTree>`
	}
	r := NewRegistry(nil)
	doc, err := r.LoadXMLFrom("", "t.xml", []byte(`<root BTCPP_format="4">`+xmlTree("A", kids)+xmlTree("B", kids)+`</root>`))
	require.NoError(t, err)
	require.Equal(t, []string{"A", "B"}, doc.Trees)
	_, err = r.Tree("B")
	require.NoError(t, err)

	jsonTree := func(id string, kids int) string {
		return `{"ID": "` + id + `", "Root": {"type": "Sequence", "Children": [` + strings.Repeat(`{"type": "AlwaysSuccess"},`, kids-1) + `{"type": "AlwaysSuccess"}]}}`
	}
	r = NewRegistry(nil)
	_, err = r.LoadJSON("t.json", []byte(`{"Trees": [`+jsonTree("A", kids)+`, `+jsonTree("B", kids)+`]}`))
	require.NoError(t, err)
	_, err = r.Tree("B")
	require.NoError(t, err)
	_, err = r.LoadJSON("t.json", []byte(`{"TREES": [`+jsonTree("C", kids+1)+`]}`))
	require.ErrorIs(t, err, ErrTooManyNodes)
	assert.Contains(t, err.Error(), "$.trees[0]")
}

// Unknown node types are reported as before, all of them up to 20 (with the tree ID
// hint for a tree further on); at the 20th the loader stops reading: here a syntax error
// after it is not reached.
func TestLoadStopsAtTwentyUnknownNodes(t *testing.T) {
	r := NewRegistry(nil)
	_, err := r.LoadXML("t.xml", []byte(xmlDoc(`<Sequence>`+strings.Repeat(`<X/>`, 19)+`</Sequence>`)))
	require.ErrorIs(t, err, ErrUnknownNode)
	assert.Len(t, err.(interface{ Unwrap() []error }).Unwrap(), 19)

	_, err = r.LoadXML("t.xml", []byte(xmlDoc(`<Sequence>`+strings.Repeat(`<X/>`, 20)+`<<< not XML`)))
	require.ErrorIs(t, err, ErrUnknownNode)
	assert.NotErrorIs(t, err, ErrSyntax)
	errs := err.(interface{ Unwrap() []error }).Unwrap()
	assert.Len(t, errs, 20)
	var le *LoadError
	require.ErrorAs(t, errs[19], &le)
	assert.Equal(t, 3, le.Line)

	// a tree ID read before the 20th unknown node keeps its hint
	_, err = r.LoadXML("t.xml", []byte(`<root BTCPP_format="4">
<BehaviorTree ID="B"><AlwaysSuccess/></BehaviorTree>
<BehaviorTree ID="A"><Sequence>`+strings.Repeat(`<B/>`, 20)+`</Sequence></BehaviorTree></root>`))
	require.ErrorIs(t, err, ErrUnknownNode)
	assert.Contains(t, err.Error(), `unknown node type "B" (a tree ID: use <SubTree ID="B"/>)`)
}
