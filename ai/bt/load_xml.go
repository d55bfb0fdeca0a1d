package bt

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// LoadXML loads the BehaviorTree.CPP v4 XML document data (named file in errors) into r
// and returns the ID of its main tree: main_tree_to_execute, else the only
// <BehaviorTree>, else "" (several trees and none named, as Groot2 saves a project: every
// tree is registered; build the one you want with [Registry.Tree] by ID). LoadXML rejects
// <include>: use [Registry.LoadXMLFrom] with a base directory, or [Registry.LoadDocument].
// [Registry.LoadXMLFrom] also returns the IDs of the trees it added.
//
// Accepted: a UTF-8 byte order mark before the document (skipped: some editors write
// one; lines are counted after it); <root BTCPP_format="4" main_tree_to_execute="…">
// (format "4" or absent);
// <BehaviorTree ID="…"> with one root node (the ID may be left out when the document has
// only one tree: the tree then takes the file's base name without extension, "guard" for
// "trees/guard.xml", where BehaviorTree.CPP makes up a hidden "BehaviorTree_N": a program
// can then build it by a name it knows); <include path="…"/>; <TreeNodesModel> (see below); nodes by their
// BehaviorTree.CPP v4 names (Sequence, Fallback, ReactiveSequence, ReactiveFallback,
// SequenceWithMemory, Parallel, IfThenElse, WhileDoElse, Switch1…Switch9, Inverter,
// ForceSuccess, ForceFailure, Repeat, RetryUntilSuccessful, KeepRunningUntilFailure,
// Timeout, Delay, RunOnce, Precondition, Sleep, SetBlackboard, Script,
// ScriptCondition, AlwaysSuccess, AlwaysFailure, SubTree) plus ours (Selector, ReactiveSelector,
// RepeatUntilFailure, RepeatUntilSuccess, Retry, Cooldown, Wait, CheckBlackboard);
// registered leaves as <Name …/> or <Action ID="Name" …/>; ports as attributes with
// {key} references (see "Blackboard and ports" in the package doc). A loaded node is named
// by its name attribute, else by its type as written ([Tree.NodeName]: "Fallback", not
// "Selector"). The built-in nodes' attributes: Repeat num_cycles and
// RetryUntilSuccessful (Retry) num_attempts, both required, -1 (forever) to [MaxCount],
// another negative count being an error as for [Repeat] and [Retry] in Go; Timeout,
// Cooldown and Wait seconds or msec, Delay seconds or delay_msec, Sleep msec, one of
// them required; Parallel success_count (default -1, all) and failure_count (default 1);
// RunOnce then_skip (default true); SwitchN variable and case_1…case_N, a case equal to an
// earlier one (as the Switch compares: "5" and "5.0" on a number or string key) being an
// error, as its child could never run. A float literal (a port, a point's "x;y", an
// element of a list, a SetBlackboard value) reading NaN is an error: NaN equals nothing;
// "inf" and "-inf" load. _description is accepted on every element and ignored. Attributes
// that take a script (Script and ScriptCondition code, Precondition if, and _failureIf,
// _successIf, _skipIf, _while, _onSuccess, _onFailure, _onHalted, _post on any node) are
// BehaviorTree.CPP 4.x scripts, compiled when the tree is built (rules and errors:
// load_script.go).
//
// TreeNodesModel (Groot2's palette) declares node types and their ports:
// <Action|Condition|Control|Decorator|SubTree ID="…"> holding
// <input_port|output_port|inout_port name="…" type="…" default="…"/>. A model of a
// registered leaf is checked against the ports its factory declares (probed once at
// load, with the model's ports written; BehaviorTree.CPP ignores the models of its
// registered nodes, but a model that disagrees with the leaf shows designers in Groot2
// ports the program does not have): a port on one side only, another direction, a
// type that does not match (Go names such as "float64" or "[]int", or C++ names such as
// "double", "std::string", "std::vector<int>") or another default is an error naming the
// model's line and the leaf. Models of types that are not registered are kept but not
// checked (a palette may list another program's nodes). A SubTree model gives defaults
// to the SubTree's ports: a <SubTree> that does not remap a port of its model uses the
// model's default, and one without a default must be remapped (unless _autoremap).
//
// Errors are [LoadError]s with file and line: syntax, unknown node type (neither built in
// nor registered: register leaves before loading), wrong number of children, a duration
// that is not a finite number >= 0, duplicate tree IDs (also against trees already in r),
// two <SubTree> with one name in one tree, a model that disagrees with its leaf, a
// <BehaviorTree> of more than [MaxNodes] nodes (wrapping ErrTooManyNodes: no such tree
// builds). The loader stops reading at the node that passes MaxNodes in one tree, and
// stops building nodes at the 20th node of unknown type (the most a load lists one by
// one), so a file of millions of elements in one tree, or of unknown types, is refused
// early. Past that 20th it skims at most MaxNodes more elements without building them:
// the last error counts the nodes of unknown type left out, names their types (the
// first four that are tree IDs first, then four others) and gives
// each that is a tree ID of the file (even one defined further on) the SubTree hint
// (`unknown node type: 5 more not listed: "B" (1, a tree ID: use <SubTree ID="B"/>),
// "Y" (4)`), and says so if the skim stopped before the end of the file. The bound is per tree: a
// file of many trees, each of at most MaxNodes known nodes, is legal and read whole
// (about 20 bytes of memory per byte of input: 66 trees of 60,000 <AlwaysSuccess/>, 60
// MB, load in seconds with 1.3 GB allocated); bound the files a program loads from
// untrusted sources by size.
// SubTree IDs (which may name a tree of a file loaded later) and port types are checked
// when the tree is built ([Registry.Tree]). Text quoted from the file is cut to 64 bytes.
// When LoadXML returns an error, nothing was added to r. LoadXML never panics.
func (r *Registry) LoadXML(file string, data []byte) (string, error) {
	doc, err := r.LoadXMLFrom("", file, data)
	return doc.Main, err
}

// add registers parsed definitions and models (all or nothing) and picks the main tree:
// main if given, else the only tree of defs, else "".
func (r *Registry) add(defs []*treeDef, models []*nodeModel, main string, at pos) (string, error) {
	var errs []error
	seen := map[string]bool{}
	for _, d := range defs {
		if _, dup := r.trees[d.id]; (dup && !r.replacing) || seen[d.id] {
			hint := ""
			if d.anonymous {
				hint = " (a <BehaviorTree> without ID takes its file's name)"
			}
			errs = append(errs, d.pos.err("BehaviorTree "+quote(d.id), fmt.Errorf("%w %s%s", ErrDuplicateID, quote(d.id), hint)))
		}
		seen[d.id] = true
	}
	if main == "" {
		if len(defs) == 1 {
			main = defs[0].id
		}
	} else if !seen[main] {
		if _, ok := r.trees[main]; !ok {
			errs = append(errs, at.err("", fmt.Errorf("%w %s (main tree)", ErrUnknownTree, quote(main))))
		}
	}
	errs = append(errs, r.checkNodes(defs, seen, maxErrors-len(errs))...)
	errs = append(errs, checkSubTreeNames(defs, maxErrors-len(errs))...)
	errs = append(errs, r.checkModels(models, maxErrors-len(errs))...)
	if len(errs) > 0 {
		return "", errors.Join(errs...)
	}
	for _, d := range defs {
		if _, had := r.trees[d.id]; !had {
			r.ids = append(r.ids, d.id)
		}
		r.trees[d.id] = d
	}
	for _, m := range models {
		r.models[m.id] = m
	}
	return main, nil
}

type xmlLoader struct {
	file string
	dec  *xml.Decoder

	// reg, when set, lets the loader refuse unknown node types as it reads them (see
	// unknownNodes); prior holds the trees of the load's files read before this one.
	reg     *Registry
	prior   []*treeDef
	defs    []*treeDef // this file's trees read so far
	unknown []*defNode // nodes of unknown type met so far
	// past maxErrors of them: the rest of the file, skimmed (see skim)
	rest    unknownTally
	skimmed []string // the IDs of the trees skimmed
	nodes   int      // nodes of the <BehaviorTree> being read
	tree    string   // its label, for errors
}

func (x *xmlLoader) pos() pos {
	line, _ := x.dec.InputPos()
	return pos{file: x.file, line: line}
}

func (x *xmlLoader) errorf(node string, err error) error { return x.pos().err(node, err) }

// next returns the next start or end element, skipping text, comments and directives.
func (x *xmlLoader) next() (xml.Token, error) {
	for {
		tok, err := x.dec.Token()
		if err != nil {
			if err == io.EOF {
				return nil, err
			}
			return nil, x.errorf("", fmt.Errorf("%w: %w", ErrSyntax, clipped{err}))
		}
		switch t := tok.(type) {
		case xml.StartElement, xml.EndElement:
			return t, nil
		case xml.CharData:
			if s := strings.TrimSpace(string(t)); s != "" {
				return nil, x.errorf("", fmt.Errorf("%w: unexpected text %s", ErrSyntax, quote(s)))
			}
		}
	}
}

// parsedDoc is one XML document as read, before its includes are loaded.
type parsedDoc struct {
	main     string
	defs     []*treeDef
	includes []include
	models   []*nodeModel
}

// include is an <include path="…"/> element.
type include struct {
	path string
	pos  pos
}

func (x *xmlLoader) document() (*parsedDoc, error) {
	tok, err := x.next()
	if err == io.EOF {
		return nil, x.errorf("", fmt.Errorf("%w: empty document, want <root>", ErrSyntax))
	}
	if err != nil {
		return nil, err
	}
	root, ok := tok.(xml.StartElement)
	if !ok || root.Name.Local != "root" {
		return nil, x.errorf("", fmt.Errorf("%w: want <root> first", ErrSyntax))
	}
	doc := &parsedDoc{}
	for _, a := range root.Attr {
		switch a.Name.Local {
		case "BTCPP_format":
			if a.Value != "4" {
				return nil, x.errorf("root", fmt.Errorf("%w: BTCPP_format %s, want \"4\"", ErrSyntax, quote(a.Value)))
			}
		case "main_tree_to_execute":
			doc.main = a.Value
		case "_description":
		default:
			return nil, x.errorf("root", fmt.Errorf("%w: unknown attribute %s", ErrSyntax, quote(a.Name.Local)))
		}
	}
	for {
		tok, err := x.next()
		if err == io.EOF {
			return nil, x.errorf("root", fmt.Errorf("%w: unexpected end, <root> not closed", ErrSyntax))
		}
		if err != nil {
			return nil, err
		}
		if _, end := tok.(xml.EndElement); end {
			break
		}
		el := tok.(xml.StartElement)
		switch el.Name.Local {
		case "BehaviorTree":
			d, err := x.behaviorTree(el)
			if err != nil {
				return nil, err
			}
			doc.defs = append(doc.defs, d)
			x.defs = doc.defs
		case "include":
			inc, err := x.include(el)
			if err != nil {
				return nil, err
			}
			doc.includes = append(doc.includes, inc)
		case "TreeNodesModel":
			ms, err := x.treeNodesModel()
			if err != nil {
				return nil, err
			}
			doc.models = append(doc.models, ms...)
		default:
			name := shorten(el.Name.Local)
			return nil, x.errorf(name, fmt.Errorf("%w: <%s> in <root>, want <BehaviorTree>, <include> or <TreeNodesModel>", ErrSyntax, name))
		}
	}
	if _, err := x.next(); err != io.EOF {
		if err == nil {
			err = x.errorf("", fmt.Errorf("%w: content after </root>", ErrSyntax))
		}
		return nil, err
	}
	for _, d := range doc.defs {
		if !d.anonymous {
			continue
		}
		if len(doc.defs) > 1 {
			return nil, d.pos.err("BehaviorTree", fmt.Errorf("%w: missing ID (required when a document has several trees)", ErrSyntax))
		}
		d.id = anonymousID(x.file)
	}
	return doc, nil
}

// anonymousID is the ID of a document's only tree written without ID: the file's base
// name without extension.
func anonymousID(file string) string {
	base := filepath.Base(file)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	if base == "" || base == "." || base == string(filepath.Separator) {
		return "BehaviorTree"
	}
	return base
}

// include reads <include path="…"/>.
func (x *xmlLoader) include(el xml.StartElement) (include, error) {
	inc := include{pos: x.pos()}
	for _, a := range el.Attr {
		switch a.Name.Local {
		case "path":
			inc.path = a.Value
		case "_description":
		case "ros_pkg":
			return inc, inc.pos.err("include", fmt.Errorf("%w: ros_pkg is not supported (no ROS package index): give a path relative to this file", ErrInclude))
		default:
			return inc, inc.pos.err("include", fmt.Errorf("%w: unknown attribute %s", ErrSyntax, quote(a.Name.Local)))
		}
	}
	if strings.TrimSpace(inc.path) == "" {
		return inc, inc.pos.err("include", fmt.Errorf("%w: missing path", ErrInclude))
	}
	// <include/> holds nothing: refuse its first child element rather than read them all.
	tok, err := x.next()
	if err == io.EOF {
		return inc, x.errorf("", fmt.Errorf("%w: unexpected end of file", ErrSyntax))
	}
	if err != nil {
		return inc, err
	}
	if _, ok := tok.(xml.StartElement); ok {
		return inc, inc.pos.err("include", fmt.Errorf("%w: <include> has child elements", ErrSyntax))
	}
	return inc, nil
}

func (x *xmlLoader) behaviorTree(el xml.StartElement) (*treeDef, error) {
	at := x.pos()
	var id string
	hasID := false
	for _, a := range el.Attr {
		switch a.Name.Local {
		case "ID":
			id, hasID = a.Value, true
		case "_fullpath", "_description":
		default:
			return nil, at.err("BehaviorTree", fmt.Errorf("%w: unknown attribute %s", ErrSyntax, quote(a.Name.Local)))
		}
	}
	if hasID && id == "" {
		return nil, at.err("BehaviorTree", fmt.Errorf("%w: empty ID", ErrSyntax))
	}
	label := "BehaviorTree"
	if hasID {
		label += " " + quote(id)
	}
	x.nodes, x.tree = 0, label
	kids, err := x.children(0)
	if err != nil {
		return nil, err
	}
	if len(kids) != 1 {
		return nil, at.err(label, fmt.Errorf("%w: %d root nodes, want 1", ErrChildren, len(kids)))
	}
	return &treeDef{id: id, root: kids[0], pos: at, anonymous: !hasID}, nil
}

// children reads elements up to the end of the current one.
func (x *xmlLoader) children(depth int) ([]*defNode, error) {
	var kids []*defNode
	for {
		tok, err := x.next()
		if err == io.EOF {
			return nil, x.errorf("", fmt.Errorf("%w: unexpected end of file", ErrSyntax))
		}
		if err != nil {
			return nil, err
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			return kids, nil
		}
		d := &defNode{typ: el.Name.Local, pos: x.pos()}
		// No tree of more than MaxNodes nodes builds (each element is a node, and a
		// SubTree adds its tree's): stop reading it here, before a file of millions of
		// elements (64 MiB of <X/> are 16 million) costs gigabytes and minutes.
		if x.nodes++; x.nodes > MaxNodes {
			return nil, d.pos.err(x.tree, fmt.Errorf("%w: more than %d (MaxNodes) in one tree: no tree this large can be built", ErrTooManyNodes, MaxNodes))
		}
		// A duplicate is looked for among the attributes before: by comparing them for the
		// usual few, in a set past fewNames (one element of 50,000 took seconds to compare
		// pairwise).
		var seen map[string]struct{}
		if len(el.Attr) > fewNames {
			seen = make(map[string]struct{}, len(el.Attr))
			d.attrs = make([]attr, 0, len(el.Attr))
		}
		for _, a := range el.Attr {
			if a.Name.Space != "" {
				return nil, d.pos.err(d.label(), fmt.Errorf("%w: namespaced attribute %s:%s", ErrSyntax, shorten(a.Name.Space), shorten(a.Name.Local)))
			}
			var dup bool
			if seen != nil {
				_, dup = seen[a.Name.Local]
				seen[a.Name.Local] = struct{}{}
			} else {
				_, dup = d.get(a.Name.Local)
			}
			if dup {
				return nil, d.pos.err(d.label(), fmt.Errorf("%w: attribute %s twice", ErrSyntax, quote(a.Name.Local)))
			}
			d.attrs = append(d.attrs, attr{a.Name.Local, a.Value})
		}
		if x.reg != nil && !x.reg.knownNode(d) {
			if x.unknown = append(x.unknown, d); len(x.unknown) >= maxErrors {
				x.skim(depth + 1)
				return nil, x.unknownNodes()
			}
		}
		if depth >= maxDepth {
			return nil, d.pos.err(d.label(), fmt.Errorf("%w: nested deeper than %d", ErrChildren, maxDepth))
		}
		if d.kids, err = x.children(depth + 1); err != nil {
			return nil, err
		}
		kids = append(kids, d)
	}
}

// unknownNodes is the error of a file holding maxErrors nodes of unknown type: as many
// as a load reports, so the loader stops reading there (a file of millions of unknown
// elements would otherwise be read whole before the check of [Registry.add] refuses
// it). The errors are those of that check; a tree ID hint names trees of r, of the
// files read before and of this file up to here.
func (x *xmlLoader) unknownNodes() error {
	ids := map[string]bool{}
	for _, d := range x.prior {
		ids[d.id] = true
	}
	for _, d := range x.defs {
		ids[d.id] = true
	}
	for _, id := range x.skimmed {
		ids[id] = true
	}
	errs := make([]error, len(x.unknown), len(x.unknown)+1)
	for i, d := range x.unknown {
		errs[i] = x.reg.unknownNodeError(d, ids)
	}
	if err := x.rest.err(x.reg, ids); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// skim reads the rest of the file after the loader's last error of unknown type,
// open elements of the tree being read still open (the node just read among them),
// without building nodes: it counts the nodes of unknown type (x.rest) and keeps the
// IDs of the trees (x.skimmed), so that the error still says how many nodes of
// unknown type the file holds and gives a type that is a tree ID of the file, even
// one defined further on, its SubTree hint. It stops at the end of the file, at a
// syntax error (the load has its errors already) or after MaxNodes more elements
// (x.rest.cut): a file of millions of unknown elements is not read whole.
func (x *xmlLoader) skim(open int) {
	inTree := true // reading a <BehaviorTree>'s nodes; open: the elements open inside it
	outside := 0   // elements open below <root> outside a tree (<TreeNodesModel> and its entries)
	for n := 0; ; {
		tok, err := x.dec.Token()
		if err != nil {
			return
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if n++; n > MaxNodes {
				x.rest.cut = true
				return
			}
			switch {
			case inTree:
				open++
				d := &defNode{typ: t.Name.Local}
				if d.typ == "Action" || d.typ == "Condition" {
					for _, a := range t.Attr {
						d.attrs = append(d.attrs, attr{a.Name.Local, a.Value})
					}
				}
				if !x.reg.knownNode(d) {
					x.rest.add(nodeType(d), x.pos())
				}
			case outside == 0 && t.Name.Local == "BehaviorTree":
				inTree, open = true, 0
				for _, a := range t.Attr {
					if a.Name.Local == "ID" && a.Name.Space == "" {
						x.skimmed = append(x.skimmed, a.Value)
					}
				}
			default:
				outside++
			}
		case xml.EndElement:
			switch {
			case inTree && open == 0:
				inTree = false
			case inTree:
				open--
			case outside > 0:
				outside--
			}
		}
	}
}
