package bt

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// LoadXML loads the BehaviorTree.CPP v4 XML document data (named file in errors) into r
// and returns the ID of its main tree: main_tree_to_execute, or the only BehaviorTree.
//
// Accepted: <root BTCPP_format="4" main_tree_to_execute="…"> (format "4" or absent),
// <BehaviorTree ID="…"> with one root node, nodes by their BehaviorTree.CPP v4 names
// (Sequence, Fallback, ReactiveSequence, ReactiveFallback, SequenceWithMemory, Parallel,
// IfThenElse, WhileDoElse, Switch2…Switch9, Inverter, ForceSuccess, ForceFailure,
// Repeat, RetryUntilSuccessful, KeepRunningUntilFailure, Timeout, Delay, RunOnce,
// Precondition, Sleep, SetBlackboard, Script, ScriptCondition, AlwaysSuccess,
// AlwaysFailure, SubTree) plus ours (Selector, ReactiveSelector, RepeatUntilFailure, RepeatUntilSuccess,
// Retry, Cooldown, Wait, CheckBlackboard), registered leaves as <Name …/> or
// <Action ID="Name" …/>, ports as attributes with {key} references. TreeNodesModel
// (Groot2's palette) is skipped. Attributes that take a script (Script and
// ScriptCondition code, Precondition if, and _failureIf, _successIf, _skipIf, _while,
// _onSuccess, _onFailure, _onHalted, _post on any node) are BehaviorTree.CPP 4.x
// scripts, compiled when the tree is built (rules and errors: load_script.go).
//
// Errors are [LoadError]s with file and line: syntax, unknown node type (neither built in
// nor registered: register leaves before loading), wrong number of children, a duration
// that is not a finite number >= 0, duplicate tree IDs (also against trees already in r).
// SubTree IDs (which may name a tree of a file loaded later) and port types are checked
// when the tree is built ([Registry.Tree]). Text quoted from the file is cut to 64 bytes.
// When LoadXML returns an error, nothing was added to r. LoadXML never panics.
func (r *Registry) LoadXML(file string, data []byte) (string, error) {
	x := xmlLoader{file: file, dec: xml.NewDecoder(bytes.NewReader(data))}
	defs, main, err := x.document()
	if err != nil {
		return "", err
	}
	return r.add(defs, main, pos{file: file})
}

// add registers parsed definitions and picks the main tree.
func (r *Registry) add(defs []*treeDef, main string, at pos) (string, error) {
	var errs []error
	seen := map[string]bool{}
	for _, d := range defs {
		if _, dup := r.trees[d.id]; dup || seen[d.id] {
			errs = append(errs, d.pos.err("BehaviorTree "+quote(d.id), fmt.Errorf("%w %s", ErrDuplicateID, quote(d.id))))
		}
		seen[d.id] = true
	}
	if main == "" {
		if len(defs) != 1 {
			errs = append(errs, at.err("", fmt.Errorf("%w: no main tree named and %d trees defined", ErrUnknownTree, len(defs))))
		} else {
			main = defs[0].id
		}
	} else if !seen[main] {
		if _, ok := r.trees[main]; !ok {
			errs = append(errs, at.err("", fmt.Errorf("%w %s (main tree)", ErrUnknownTree, quote(main))))
		}
	}
	errs = append(errs, r.checkNodes(defs, seen, maxErrors-len(errs))...)
	if len(errs) > 0 {
		return "", errors.Join(errs...)
	}
	for _, d := range defs {
		r.trees[d.id] = d
		r.ids = append(r.ids, d.id)
	}
	return main, nil
}

type xmlLoader struct {
	file string
	dec  *xml.Decoder
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

func (x *xmlLoader) document() ([]*treeDef, string, error) {
	tok, err := x.next()
	if err == io.EOF {
		return nil, "", x.errorf("", fmt.Errorf("%w: empty document, want <root>", ErrSyntax))
	}
	if err != nil {
		return nil, "", err
	}
	root, ok := tok.(xml.StartElement)
	if !ok || root.Name.Local != "root" {
		return nil, "", x.errorf("", fmt.Errorf("%w: want <root> first", ErrSyntax))
	}
	var main string
	for _, a := range root.Attr {
		switch a.Name.Local {
		case "BTCPP_format":
			if a.Value != "4" {
				return nil, "", x.errorf("root", fmt.Errorf("%w: BTCPP_format %s, want \"4\"", ErrSyntax, quote(a.Value)))
			}
		case "main_tree_to_execute":
			main = a.Value
		default:
			return nil, "", x.errorf("root", fmt.Errorf("%w: unknown attribute %s", ErrSyntax, quote(a.Name.Local)))
		}
	}
	var defs []*treeDef
	for {
		tok, err := x.next()
		if err == io.EOF {
			return nil, "", x.errorf("root", fmt.Errorf("%w: unexpected end, <root> not closed", ErrSyntax))
		}
		if err != nil {
			return nil, "", err
		}
		if _, end := tok.(xml.EndElement); end {
			break
		}
		el := tok.(xml.StartElement)
		switch el.Name.Local {
		case "BehaviorTree":
			d, err := x.behaviorTree(el)
			if err != nil {
				return nil, "", err
			}
			defs = append(defs, d)
		case "TreeNodesModel":
			if err := x.dec.Skip(); err != nil {
				return nil, "", x.errorf("TreeNodesModel", fmt.Errorf("%w: %w", ErrSyntax, clipped{err}))
			}
		default:
			name := shorten(el.Name.Local)
			return nil, "", x.errorf(name, fmt.Errorf("%w: <%s> in <root>, want <BehaviorTree> or <TreeNodesModel>", ErrSyntax, name))
		}
	}
	if _, err := x.next(); err != io.EOF {
		if err == nil {
			err = x.errorf("", fmt.Errorf("%w: content after </root>", ErrSyntax))
		}
		return nil, "", err
	}
	return defs, main, nil
}

func (x *xmlLoader) behaviorTree(el xml.StartElement) (*treeDef, error) {
	at := x.pos()
	var id string
	for _, a := range el.Attr {
		switch a.Name.Local {
		case "ID":
			id = a.Value
		case "_fullpath", "_description":
		default:
			return nil, at.err("BehaviorTree", fmt.Errorf("%w: unknown attribute %s", ErrSyntax, quote(a.Name.Local)))
		}
	}
	if id == "" {
		return nil, at.err("BehaviorTree", fmt.Errorf("%w: missing ID", ErrSyntax))
	}
	label := "BehaviorTree " + quote(id)
	kids, err := x.children(0)
	if err != nil {
		return nil, err
	}
	if len(kids) != 1 {
		return nil, at.err(label, fmt.Errorf("%w: %d root nodes, want 1", ErrChildren, len(kids)))
	}
	return &treeDef{id: id, root: kids[0], pos: at}, nil
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
		for _, a := range el.Attr {
			if a.Name.Space != "" {
				return nil, d.pos.err(d.label(), fmt.Errorf("%w: namespaced attribute %s:%s", ErrSyntax, shorten(a.Name.Space), shorten(a.Name.Local)))
			}
			if _, dup := d.get(a.Name.Local); dup {
				return nil, d.pos.err(d.label(), fmt.Errorf("%w: attribute %s twice", ErrSyntax, quote(a.Name.Local)))
			}
			d.attrs = append(d.attrs, attr{a.Name.Local, a.Value})
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
