package bt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/archai-go/archai/internal/jsonkeys"
)

// LoadJSON loads trees in archai's JSON format from data (named file in errors) into r
// and returns the ID of the main tree ("main", else the only tree, else ""):
//
//	{
//	  "main": "Guard",
//	  "trees": [
//	    {"id": "Guard", "root": {"type": "ReactiveFallback", "name": "guard", "children": [
//	      {"type": "SubTree", "ports": {"ID": "Flee", "_autoremap": true}},
//	      {"type": "Patrol", "ports": {"speed": 1.5, "goal": "{goal}"}}
//	    ]}}
//	  ]
//	}
//
// A node has a "type" (the same names as [Registry.LoadXML]), an optional "name", "ports"
// (the XML attributes: strings, numbers or booleans; a number is read as its text, as
// written: 1000000 for an int port, 0.25 for a float one) and "children". Unknown fields are
// errors, and so is a key written twice in an object (a node's "type", a port), which
// encoding/json would silently take the last of: [ErrSyntax] naming the object's path and
// the key; a key of another case ("Type") fills the same field, so is the same key, but
// ports are case-sensitive. Errors are [LoadError]s naming the JSON path of the node, such as
// $.trees[0].root.children[1], or the line of a syntax error; load-time checks are those
// of [Registry.LoadXML] (an unknown node type is reported here, not at [Registry.Tree]).
// A tree of more than [MaxNodes] nodes is refused before the document is decoded (one
// pass over the bytes counts each tree's nodes), wrapping ErrTooManyNodes and naming
// $.trees[i] and the line of the node past the bound.
// Content after the document but white space (a second document, a stray "}") is an
// [ErrSyntax] naming its line and column; so is a file of nothing but white space
// ("empty document") or one that ends inside the document ("the document ends early",
// naming its last line). A UTF-8 byte order mark before the document is skipped.
// LoadJSON never panics.
func (r *Registry) LoadJSON(file string, data []byte) (string, error) {
	d, err := r.loadJSON(file, data)
	return d.Main, err
}

func (r *Registry) loadJSON(file string, data []byte) (Document, error) {
	data = trimBOM(data)
	if err := jsonNodeCount(file, data); err != nil {
		return Document{}, err
	}
	var doc jsonDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber() // a port's number is its text as written: 1000000, not 1e+06
	if err := dec.Decode(&doc); err != nil {
		if at, ok := unknownField(data); ok {
			return Document{}, pos{file: file, path: at}.err("", fmt.Errorf("%w: %s", ErrSyntax, clipMiddle(strings.TrimPrefix(err.Error(), "json: "), maxMessage/2)))
		}
		return Document{}, jsonError(file, data, err)
	}
	if line, col, rest, ok := jsonkeys.Trailing(data, dec.InputOffset()); ok {
		return Document{}, pos{file: file, line: line}.err("", fmt.Errorf("%w: content after the document at column %d: %s", ErrSyntax, col, quote(rest)))
	}
	if at, key, dup := jsonkeys.Duplicate(data, jsonStruct); dup {
		return Document{}, pos{file: file, path: jsonPath(at)}.err("", fmt.Errorf("%w: duplicate key %s", ErrSyntax, quote(key)))
	}
	var defs []*treeDef
	var errs []error
	for i, t := range doc.Trees {
		at := pos{file: file, path: "$.trees[" + strconv.Itoa(i) + "]"}
		if t.ID == "" {
			errs = append(errs, at.err("", fmt.Errorf("%w: tree without \"id\"", ErrSyntax)))
			continue
		}
		root, err := jsonDef(file, at.path+".root", t.Root, 0)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		defs = append(defs, &treeDef{id: t.ID, root: root, pos: at})
	}
	if len(errs) > 0 {
		return Document{}, errors.Join(errs...)
	}
	main, err := r.add(defs, nil, doc.Main, pos{file: file, path: "$"})
	if err != nil {
		return Document{}, err
	}
	return newDocument(main, defs, []string{file}), nil
}

type jsonDoc struct {
	Main  string     `json:"main"`
	Trees []jsonTree `json:"trees"`
}

type jsonTree struct {
	ID   string    `json:"id"`
	Root *jsonNode `json:"root"`
}

type jsonNode struct {
	Type     string         `json:"type"`
	Name     *string        `json:"name"`
	Ports    map[string]any `json:"ports"`
	Children []*jsonNode    `json:"children"`
}

func jsonDef(file, path string, n *jsonNode, depth int) (*defNode, error) {
	at := pos{file: file, path: path}
	if n == nil {
		return nil, at.err("", fmt.Errorf("%w: missing node", ErrSyntax))
	}
	if n.Type == "" {
		return nil, at.err("", fmt.Errorf("%w: node without \"type\"", ErrSyntax))
	}
	d := &defNode{typ: n.Type, pos: at}
	if n.Name != nil {
		d.attrs = append(d.attrs, attr{"name", *n.Name})
	}
	keys := make([]string, 0, len(n.Ports))
	for k := range n.Ports {
		keys = append(keys, k)
	}
	slices.Sort(keys) // deterministic order: never decide by iterating a map
	for _, k := range keys {
		var v string
		switch x := n.Ports[k].(type) {
		case string:
			v = x
		case bool:
			v = strconv.FormatBool(x)
		case json.Number:
			v = x.String()
		default:
			return nil, at.err(d.label(), fmt.Errorf("%w: port %s: want a string, number or boolean", ErrPort, quote(k)))
		}
		if k == "name" && n.Name != nil {
			return nil, at.err(d.label(), fmt.Errorf("%w: name given twice", ErrPort))
		}
		d.attrs = append(d.attrs, attr{k, v})
	}
	if depth >= maxDepth {
		return nil, at.err(d.label(), fmt.Errorf("%w: nested deeper than %d", ErrChildren, maxDepth))
	}
	for i, c := range n.Children {
		k, err := jsonDef(file, path+".children["+strconv.Itoa(i)+"]", c, depth+1)
		if err != nil {
			return nil, err
		}
		d.kids = append(d.kids, k)
	}
	return d, nil
}

// jsonNodeCount refuses a document with a tree of more than MaxNodes nodes, which no
// build accepts, before encoding/json decodes it whole: a file of millions of nodes (64
// MiB of {"type": "X"} are 4 million) would cost gigabytes first. The bound is per tree,
// as in LoadXML: a document of many trees, each within it, is decoded whole. It counts the objects at
// the paths of nodes (trees[i].root and its children, keys by any case as encoding/json
// reads them) in one pass over the bytes that allocates little; values nested deeper
// than any node can be are skipped (their nodes are refused by jsonDef).
func jsonNodeCount(file string, data []byte) error {
	var counts []int
	var err error
	jsonkeys.Objects(data, 2*maxDepth+8, func(p jsonkeys.Path, at int) bool {
		if !jsonNodePath(p) {
			return true
		}
		i := p[1].Index
		for len(counts) <= i {
			counts = append(counts, 0)
		}
		if counts[i]++; counts[i] > MaxNodes {
			err = pos{file: file, line: lineOf(data, int64(at)), path: "$.trees[" + strconv.Itoa(i) + "]"}.err("",
				fmt.Errorf("%w: more than %d (MaxNodes) in one tree: no tree this large can be built", ErrTooManyNodes, MaxNodes))
			return false
		}
		return true
	})
	return err
}

// jsonNodePath reports whether p is trees[i].root or ….children[j] below it. Only the
// last two steps below the root are checked (a deep document must not cost a walk of
// each path): in a document that decodes, an object there is a node.
func jsonNodePath(p jsonkeys.Path) bool {
	n := len(p)
	if n < 3 || n%2 == 0 || p[0].Array || !strings.EqualFold(p[0].Key, "trees") || !p[1].Array || p[2].Array || !strings.EqualFold(p[2].Key, "root") {
		return false
	}
	return n == 3 || !p[n-2].Array && strings.EqualFold(p[n-2].Key, "children") && p[n-1].Array
}

// jsonStruct reports whether the object at p decodes into a struct (whose keys
// encoding/json matches by any case), not a map: every object but a node's ports.
func jsonStruct(p jsonkeys.Path) bool {
	return len(p) == 0 || p[len(p)-1].Array || !strings.EqualFold(p[len(p)-1].Key, "ports")
}

// jsonPath writes p as the loader's paths: $ for the document, $.trees[0].root.
func jsonPath(p jsonkeys.Path) string {
	if len(p) == 0 {
		return "$"
	}
	s := p.String()
	if p[0].Array {
		return "$" + s
	}
	return "$." + s
}

// jsonError turns a decoding error into a LoadError with a line or a path.
func jsonError(file string, data []byte, err error) error {
	at := pos{file: file}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		at.line = lineOf(data, syn.Offset)
	case errors.As(err, &typ):
		at.line = lineOf(data, typ.Offset)
		if typ.Field != "" {
			at.path = "$." + typ.Field
		}
	case errors.Is(err, io.EOF): // nothing but white space
		at.line = 1
		return at.err("", fmt.Errorf("%w: empty document, want {\"trees\": [...]}", ErrSyntax))
	case errors.Is(err, io.ErrUnexpectedEOF):
		at.line = lineOf(data, int64(len(data)))
		return at.err("", fmt.Errorf("%w: the document ends early (truncated?)", ErrSyntax))
	}
	msg := clipMiddle(strings.TrimPrefix(err.Error(), "json: "), maxMessage/2)
	return at.err("", fmt.Errorf("%w: %s", ErrSyntax, msg))
}

// unknownField returns the JSON path of the first object in data (a document the
// strict decoding refused) holding a field the format does not know: "$" for the
// document, "$.trees[0]" for a tree, "$.trees[0].root.children[1]" for a node.
func unknownField(data []byte) (string, bool) {
	var doc map[string]any
	if json.Unmarshal(data, &doc) != nil {
		return "", false
	}
	if path, ok := unknownIn(doc, "$", "main", "trees"); ok {
		return path, true
	}
	trees, _ := doc["trees"].([]any)
	for i, t := range trees {
		tree, _ := t.(map[string]any)
		at := "$.trees[" + strconv.Itoa(i) + "]"
		if path, ok := unknownIn(tree, at, "id", "root"); ok {
			return path, true
		}
		if path, ok := unknownNode(tree["root"], at+".root"); ok {
			return path, true
		}
	}
	return "", false
}

// unknownNode is unknownField for the node n at path and its children.
func unknownNode(n any, path string) (string, bool) {
	node, _ := n.(map[string]any)
	if at, ok := unknownIn(node, path, "type", "name", "ports", "children"); ok {
		return at, true
	}
	kids, _ := node["children"].([]any)
	for i, k := range kids {
		if at, ok := unknownNode(k, path+".children["+strconv.Itoa(i)+"]"); ok {
			return at, true
		}
	}
	return "", false
}

// unknownIn reports path if object o has a key not among known.
func unknownIn(o map[string]any, path string, known ...string) (string, bool) {
	for k := range o {
		if !slices.Contains(known, k) {
			return path, true
		}
	}
	return "", false
}

func lineOf(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return bytes.Count(data[:off], []byte("\n")) + 1
}
