package bt

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadErrors returns the errors joined in err.
func loadErrors(t *testing.T, err error) []error {
	t.Helper()
	require.ErrorIs(t, err, ErrUnknownNode)
	j, ok := err.(interface{ Unwrap() []error })
	require.True(t, ok, "%v", err)
	return j.Unwrap()
}

// A load lists 20 nodes of unknown type. The ones past them were not mentioned at
// all: a file of 20 misspelt nodes followed by <B/> (a tree ID, the mistake the
// SubTree hint is for) lost that hint, and the count of what was left out. The
// list ends with one more error: how many nodes of unknown type it leaves out, at
// the first one's line, and their types with counts, each tree ID with its hint.
func TestLoadXMLSummarizesTheUnknownNodesPastTheLimit(t *testing.T) {
	r := NewRegistry(nil)
	_, err := r.LoadXML("t.xml", []byte(`<root BTCPP_format="4" main_tree_to_execute="A">
<BehaviorTree ID="B"><AlwaysSuccess/></BehaviorTree>
<BehaviorTree ID="A"><Sequence>`+strings.Repeat(`<X/>`, 20)+`
<B/>`+strings.Repeat(`<Y/>`, 4)+`</Sequence></BehaviorTree></root>`))
	errs := loadErrors(t, err)
	require.Len(t, errs, 21)
	var le *LoadError
	require.ErrorAs(t, errs[20], &le)
	assert.Equal(t, 4, le.Line, "the first node left out")
	assert.ErrorIs(t, errs[20], ErrUnknownNode)
	assert.Equal(t, `bt: t.xml:4: unknown node type: 5 more not listed: "B" (1, a tree ID: use <SubTree ID="B"/>), "Y" (4)`,
		errs[20].Error())

	// exactly 20: nothing left out, no summary
	_, err = r.LoadXML("t.xml", []byte(xmlDoc(`<Sequence>`+strings.Repeat(`<X/>`, 20)+`</Sequence>`)))
	assert.Len(t, loadErrors(t, err), 20)
}

// The XML loader stops building nodes at the 20th of unknown type; a tree defined
// further on was not known yet, so a node naming it lost its SubTree hint. The loader
// skims the rest of the file for tree IDs and unknown nodes (without building them).
func TestLoadXMLHintsATreeDefinedAfterTheLimit(t *testing.T) {
	r := NewRegistry(nil)
	_, err := r.LoadXML("t.xml", []byte(`<root BTCPP_format="4" main_tree_to_execute="A">
<BehaviorTree ID="A"><Sequence><Later/>`+strings.Repeat(`<X/>`, 21)+`</Sequence></BehaviorTree>
<TreeNodesModel><Action ID="Modelled"/></TreeNodesModel>
<BehaviorTree ID="Later"><Sequence><Z/><Z/></Sequence></BehaviorTree></root>`))
	errs := loadErrors(t, err)
	require.Len(t, errs, 21)
	assert.Contains(t, errs[0].Error(), `unknown node type "Later" (a tree ID: use <SubTree ID="Later"/>)`)
	assert.Contains(t, errs[20].Error(), `t.xml:2: unknown node type: 4 more not listed: "X" (2), "Z" (2)`)
}

// Past MaxNodes more elements the skim stops, and says the rest was not read.
func TestLoadXMLSkimIsBounded(t *testing.T) {
	r := NewRegistry(nil)
	_, err := r.LoadXML("t.xml", []byte(xmlDoc(`<Sequence>`+strings.Repeat(`<X/>`, 20+MaxNodes+10)+`</Sequence>`)))
	errs := loadErrors(t, err)
	require.Len(t, errs, 21)
	assert.Contains(t, errs[20].Error(), `unknown node type: 65535 more not listed: "X" (65535); the loader stopped reading 65535 elements (MaxNodes) further on: the rest of the file was not checked`)
}

// The JSON loader reads the whole file; it listed 20 nodes of unknown type and said
// nothing of the rest either.
func TestLoadJSONSummarizesTheUnknownNodesPastTheLimit(t *testing.T) {
	r := NewRegistry(nil)
	kids := strings.Repeat(`{"type": "X"},`, 20) + `{"type": "B"},` + strings.Repeat(`{"type": "Y"},`, 3) + `{"type": "Y"}`
	_, err := r.LoadJSON("t.json", []byte(`{"main": "A", "trees": [
{"id": "A", "root": {"type": "Sequence", "children": [`+kids+`]}},
{"id": "B", "root": {"type": "AlwaysSuccess"}}]}`))
	errs := loadErrors(t, err)
	require.Len(t, errs, 21)
	assert.Equal(t, `bt: t.json: $.trees[0].root.children[20]: unknown node type: 5 more not listed: "B" (1, a tree ID: use `+
		`<SubTree ID="B"/>), "Y" (4)`, errs[20].Error())
}

// Past four types the summary counts the rest of the nodes without naming them.
func TestUnknownSummaryNamesFourTypes(t *testing.T) {
	r := NewRegistry(nil)
	kids := strings.Repeat(`{"type": "X"},`, 20) + `{"type": "P"},{"type": "Q"},{"type": "R"},{"type": "S"},{"type": "T"},{"type": "P"}`
	_, err := r.LoadJSON("t.json", []byte(`{"trees": [{"id": "A", "root": {"type": "Sequence", "children": [`+kids+`]}}]}`))
	errs := loadErrors(t, err)
	require.Len(t, errs, 21)
	assert.Contains(t, errs[20].Error(), `unknown node type: 6 more not listed: "P" (2), "Q" (1), "R" (1), "S" (1), 1 of other types`)
}

// A tree ID used as a node type is named in the summary with its SubTree hint even
// when four other types came before it: the summary named the first four types met
// and counted a <B/> after them among "1 of other types", its hint lost, in both
// loaders. Tree IDs come first; past four of them the summary counts the rest.
func TestUnknownSummaryNamesTreeIDsPastFourTypes(t *testing.T) {
	r := NewRegistry(nil)
	kids := strings.Repeat(`<X/>`, 20) + `<P/><Q/><R/><S/><T/><B/><B/><P/>`
	_, err := r.LoadXML("t.xml", []byte(`<root BTCPP_format="4" main_tree_to_execute="A">
<BehaviorTree ID="A"><Sequence>`+kids+`</Sequence></BehaviorTree>
<BehaviorTree ID="B"><AlwaysSuccess/></BehaviorTree></root>`))
	errs := loadErrors(t, err)
	require.Len(t, errs, 21)
	assert.Equal(t, `bt: t.xml:2: unknown node type: 8 more not listed: "B" (2, a tree ID: use <SubTree ID="B"/>), `+
		`"P" (2), "Q" (1), "R" (1), "S" (1), 1 of other types`, errs[20].Error())

	jkids := strings.Repeat(`{"type": "X"},`, 20) + `{"type": "P"},{"type": "Q"},{"type": "R"},{"type": "S"},{"type": "T"},{"type": "B"}`
	_, err = r.LoadJSON("t.json", []byte(`{"trees": [{"id": "A", "root": {"type": "Sequence", "children": [`+jkids+`]}},
{"id": "B", "root": {"type": "AlwaysSuccess"}}]}`))
	errs = loadErrors(t, err)
	require.Len(t, errs, 21)
	assert.Equal(t, `bt: t.json: $.trees[0].root.children[20]: unknown node type: 6 more not listed: "B" (1, a tree ID: use `+
		`<SubTree ID="B"/>), "P" (1), "Q" (1), "R" (1), "S" (1), 1 of other types`, errs[20].Error())

	// Six tree IDs: four named with their hint, the other two counted as such.
	var trees, used string
	for _, id := range []string{"T1", "T2", "T3", "T4", "T5", "T6"} {
		trees += `<BehaviorTree ID="` + id + `"><AlwaysSuccess/></BehaviorTree>`
		used += `<` + id + `/>`
	}
	_, err = NewRegistry(nil).LoadXML("t.xml", []byte(`<root BTCPP_format="4" main_tree_to_execute="A">`+trees+
		`<BehaviorTree ID="A"><Sequence>`+strings.Repeat(`<X/>`, 20)+used+`<Z/></Sequence></BehaviorTree></root>`))
	errs = loadErrors(t, err)
	require.Len(t, errs, 21)
	assert.Contains(t, errs[20].Error(), `unknown node type: 7 more not listed: "T1" (1, a tree ID: use <SubTree ID="T1"/>), `+
		`"T2" (1, a tree ID: use <SubTree ID="T2"/>), "T3" (1, a tree ID: use <SubTree ID="T3"/>), `+
		`"T4" (1, a tree ID: use <SubTree ID="T4"/>), "Z" (1), 2 of other types (2 of them tree IDs: use <SubTree ID=…/>)`)
}
