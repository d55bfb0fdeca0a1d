package bt

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A tree file saved by an editor that writes a UTF-8 byte order mark (Windows Notepad,
// some Visual Studio settings) is the same document: XML allows the mark (XML 1.0
// §4.3.3) and BehaviorTree.CPP's parser skips it; RFC 8259 lets a JSON reader ignore
// it. Both loaders refused such a file ("unexpected text \"\ufeff\"", "invalid
// character 'ï' looking for beginning of value").
func TestLoadSkipsByteOrderMark(t *testing.T) {
	const bom = "\uFEFF"
	xmlDoc := bom + `<?xml version="1.0" encoding="UTF-8"?>` + "\r\n" +
		`<root BTCPP_format="4">` + "\r\n" +
		`  <BehaviorTree ID="Guard"><Sequence><Ready/><Move speed="2" arrived="{arrived}"/></Sequence></BehaviorTree>` + "\r\n" +
		`</root>` + "\r\n"
	r := fuzzRegistry()
	main, err := r.LoadXML("guard.xml", []byte(xmlDoc))
	if err != nil || main != "Guard" {
		t.Fatalf("LoadXML with a byte order mark: %q, %v", main, err)
	}
	if _, err := r.Tree("Guard"); err != nil {
		t.Fatal(err)
	}

	jsonDoc := bom + `{"trees": [{"id": "Guard", "root": {"type": "Ready"}}]}`
	r = fuzzRegistry()
	if main, err := r.LoadJSON("guard.json", []byte(jsonDoc)); err != nil || main != "Guard" {
		t.Fatalf("LoadJSON with a byte order mark: %q, %v", main, err)
	}

	// An included file with the mark, through LoadDocument.
	dir := t.TempDir()
	lib := bom + `<root BTCPP_format="4"><BehaviorTree ID="Lib"><Ready/></BehaviorTree></root>`
	top := bom + `<root BTCPP_format="4" main_tree_to_execute="Top"><include path="lib.xml"/>` +
		`<BehaviorTree ID="Top"><SubTree ID="Lib"/></BehaviorTree></root>`
	for name, text := range map[string]string{"lib.xml": lib, "top.xml": top} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r = fuzzRegistry()
	doc, err := r.LoadDocument(filepath.Join(dir, "top.xml"))
	if err != nil || doc.Main != "Top" {
		t.Fatalf("LoadDocument with byte order marks: %+v, %v", doc, err)
	}
	if _, err := r.Tree("Top"); err != nil {
		t.Fatal(err)
	}

	// Only one mark, first: a second one is text in <root>, as any other.
	_, err = fuzzRegistry().LoadXML("two.xml", []byte(bom+bom+`<root BTCPP_format="4"/>`))
	if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), `unexpected text "\ufeff"`) {
		t.Fatalf("two marks: %v", err)
	}
}

// An empty or blank JSON tree file said "syntax error: EOF".
func TestLoadJSONEmptyDocument(t *testing.T) {
	for _, data := range []string{"", " \r\n\t", "\uFEFF"} {
		_, err := fuzzRegistry().LoadJSON("empty.json", []byte(data))
		if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "empty.json:1: syntax error: empty document") {
			t.Errorf("%q: %v", data, err)
		}
	}
	_, err := fuzzRegistry().LoadJSON("cut.json", []byte("{\"trees\": [\n{\"id\": \"A\","))
	if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "cut.json:2: syntax error: the document ends early") {
		t.Errorf("truncated: %v", err)
	}
}

// <Action/> or <Condition/> without ID said `unknown node type "Action" (not built in,
// not registered)`: the type is the ID, which is missing.
func TestLoadActionWithoutID(t *testing.T) {
	for _, el := range []string{"Action", "Condition"} {
		_, err := fuzzRegistry().LoadXML("a.xml", []byte(`<root BTCPP_format="4"><BehaviorTree ID="A"><`+el+` speed="1"/></BehaviorTree></root>`))
		if !errors.Is(err, ErrUnknownNode) || !strings.Contains(err.Error(), `unknown node type "`+el+`" (<`+el+`> needs ID="…", the name a leaf is registered under)`) {
			t.Errorf("%s: %v", el, err)
		}
	}
	_, err := fuzzRegistry().LoadJSON("a.json", []byte(`{"trees": [{"id": "A", "root": {"type": "Action"}}]}`))
	if !errors.Is(err, ErrUnknownNode) || !strings.Contains(err.Error(), `(<Action> needs ID="…"`) {
		t.Errorf("JSON: %v", err)
	}
}
