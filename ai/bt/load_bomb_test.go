package bt

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fmt"
	"strings"
)

// bombXML writes a document of roots root trees R0…, each using the tree D<levels>, which
// holds two SubTrees of D<levels-1> under a Sequence, down to D0, a Sequence of two
// AlwaysSuccess: a file of a few KB whose roots each build to about 2^(levels+2) nodes.
func bombXML(levels, roots int) []byte {
	var b strings.Builder
	b.WriteString(`<root BTCPP_format="4">` + "\n")
	b.WriteString(`<BehaviorTree ID="D0"><Sequence><AlwaysSuccess/><AlwaysSuccess/></Sequence></BehaviorTree>` + "\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, `<BehaviorTree ID="D%d"><Sequence><SubTree ID="D%d"/><SubTree ID="D%d"/></Sequence></BehaviorTree>`+"\n", i, i-1, i-1)
	}
	for i := range roots {
		fmt.Fprintf(&b, `<BehaviorTree ID="R%d"><SubTree ID="D%d"/></BehaviorTree>`+"\n", i, levels)
	}
	b.WriteString("</root>\n")
	return []byte(b.String())
}

func TestReloadRefusesADocumentThatBuildsTooManyNodes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bomb.xml")
	data := bombXML(14, 100)
	require.Less(t, len(data), 8<<10, "a few KB of file")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	r := NewRegistry(nil)
	_, err := r.ReloadDocument(path)
	require.ErrorIs(t, err, ErrTooManyNodes)
	assert.ErrorContains(t, err, "its 100 root trees would build 6553600 nodes with their subtrees, more than 4194304 (MaxReloadNodes)")
	assert.ErrorContains(t, err, `"R0" 65536, "R1" 65536, "R2" 65536, "R3" 65536, "R4" 65536, and 95 more`)
	assert.Empty(t, r.TreeIDs(), "the refused edit registers nothing")
	assert.Equal(t, 0, r.Schema().Len())

	// A large document within the bound loads and builds: 20 roots of 24,574 nodes.
	require.NoError(t, os.WriteFile(path, bombXML(12, 20), 0o644))
	doc, err := r.ReloadDocument(path)
	require.NoError(t, err)
	assert.Len(t, doc.Trees, 13+20)
	tr, err := r.Tree("R0")
	require.NoError(t, err)
	assert.Equal(t, 3*(1<<13)-2, tr.Len())
}

func TestReloadSizeCountsEachTreeOnce(t *testing.T) {
	r := NewRegistry(nil)
	_, err := r.LoadXML("b.xml", bombXML(40, 100))
	require.NoError(t, err)
	err = r.checkReloadSize("b.xml", r.TreeIDs()[41:])
	require.ErrorIs(t, err, ErrTooManyNodes, "2^40 nodes each, counted without walking them: capped at MaxNodes+1 per root")
	assert.ErrorContains(t, err, `its 100 root trees would build 6553600 nodes`)
	assert.NoError(t, r.checkReloadSize("b.xml", []string{"R0"}))
}
