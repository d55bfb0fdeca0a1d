package bt

import (
	"encoding/xml"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/archai-go/archai/ai/blackboard"
)

// nodeModel is one entry of a TreeNodesModel: a node type and its ports as declared for
// Groot2.
type nodeModel struct {
	tag   string // Action, Condition, Control, Decorator or SubTree
	id    string
	ports []modelPort
	pos   pos
}

type modelPort struct {
	name, typ, def string
	hasDef         bool
	dir            portDir
	pos            pos
}

// portDir is a port's direction; an inout port is both.
type portDir uint8

const (
	dirIn    portDir = 1
	dirOut   portDir = 2
	dirInOut portDir = 3
)

func (d portDir) String() string {
	switch d {
	case dirIn:
		return "input"
	case dirOut:
		return "output"
	}
	return "inout"
}

var modelDirs = map[string]portDir{"input_port": dirIn, "output_port": dirOut, "inout_port": dirInOut}

// treeNodesModel reads the elements of <TreeNodesModel> up to its end.
func (x *xmlLoader) treeNodesModel() ([]*nodeModel, error) {
	var out []*nodeModel
	for {
		el, end, err := x.modelToken()
		if err != nil || end {
			return out, err
		}
		m := &nodeModel{tag: el.Name.Local, pos: x.pos()}
		switch m.tag {
		case "Action", "Condition", "Control", "Decorator", "SubTree":
		default:
			return nil, m.pos.err("TreeNodesModel", fmt.Errorf("%w: <%s> in <TreeNodesModel>, want Action, Condition, Control, Decorator or SubTree", ErrSyntax, shorten(m.tag)))
		}
		hasID := false
		for _, a := range el.Attr {
			if a.Name.Local == "ID" {
				m.id, hasID = a.Value, true
			}
		}
		if !hasID || m.id == "" {
			return nil, m.pos.err("TreeNodesModel "+m.tag, fmt.Errorf("%w: missing ID", ErrSyntax))
		}
		label := "TreeNodesModel " + m.tag + " " + quote(m.id)
		var seen map[string]int // a port's index in m.ports, once it has more than fewNames
		for {
			el, end, err := x.modelToken()
			if err != nil {
				return nil, err
			}
			if end {
				break
			}
			mp := modelPort{pos: x.pos()}
			dir, ok := modelDirs[el.Name.Local]
			if !ok {
				return nil, mp.pos.err(label, fmt.Errorf("%w: <%s> in a model, want input_port, output_port or inout_port", ErrSyntax, shorten(el.Name.Local)))
			}
			mp.dir = dir
			hasName := false
			for _, a := range el.Attr {
				switch a.Name.Local {
				case "name":
					mp.name, hasName = a.Value, true
				case "type":
					mp.typ = a.Value
				case "default":
					mp.def, mp.hasDef = a.Value, true
				}
			}
			if !hasName || mp.name == "" {
				return nil, mp.pos.err(label, fmt.Errorf("%w: <%s> without name", ErrSyntax, el.Name.Local))
			}
			if len(m.ports) == fewNames {
				seen = make(map[string]int, 2*fewNames)
				for i, q := range m.ports {
					seen[q.name] = i
				}
			}
			if q, dup := m.port(mp.name, seen); dup {
				return nil, mp.pos.err(label, fmt.Errorf("%w: port %s declared twice (line %d)", ErrSyntax, quote(mp.name), q.pos.line))
			}
			if seen != nil {
				seen[mp.name] = len(m.ports)
			}
			m.ports = append(m.ports, mp)
			// A port element holds its description as text, and nothing else.
			if el, end, err := x.modelToken(); err != nil {
				return nil, err
			} else if !end {
				return nil, x.errorf(label, fmt.Errorf("%w: <%s> inside a port", ErrSyntax, shorten(el.Name.Local)))
			}
		}
		out = append(out, m)
	}
}

// modelToken returns the next start element, or end=true at an end element; text
// (descriptions) and comments are skipped.
func (x *xmlLoader) modelToken() (xml.StartElement, bool, error) {
	for {
		tok, err := x.dec.Token()
		if err == io.EOF {
			return xml.StartElement{}, false, x.errorf("TreeNodesModel", fmt.Errorf("%w: unexpected end of file", ErrSyntax))
		}
		if err != nil {
			return xml.StartElement{}, false, x.errorf("TreeNodesModel", fmt.Errorf("%w: %w", ErrSyntax, clipped{err}))
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return t, false, nil
		case xml.EndElement:
			return xml.StartElement{}, true, nil
		}
	}
}

// checkModels checks the models of one load: an ID declared twice, and each model of a
// registered leaf against the ports its factory declares. At most limit errors.
func (r *Registry) checkModels(models []*nodeModel, limit int) []error {
	var errs []error
	seen := map[string]*nodeModel{}
	for _, m := range models {
		if len(errs) >= limit {
			break
		}
		label := "TreeNodesModel " + m.tag + " " + quote(m.id)
		if prev, dup := seen[m.id]; dup {
			errs = append(errs, m.pos.err(label, fmt.Errorf("%w %s in TreeNodesModel (also %s)", ErrDuplicateID, quote(m.id), prev.pos)))
			continue
		}
		seen[m.id] = m
		lf, ok := r.leaves[m.id]
		if !ok {
			continue // a SubTree, a built-in, or another program's node
		}
		for _, err := range r.checkModel(m, lf) {
			if len(errs) < limit {
				errs = append(errs, m.pos.err(label, err))
			}
		}
	}
	return errs
}

// checkModel compares the model m with the ports the factory of leaf lf declares.
func (r *Registry) checkModel(m *nodeModel, lf leafFactory) []error {
	var errs []error
	leaf := quote(m.id)
	want := map[kind]string{kindAction: "Action", kindCondition: "Condition", kindChoose: "Control", kindLoop: "Decorator"}[lf.kind]
	if m.tag != want {
		errs = append(errs, fmt.Errorf("%w: a <%s> in the model, the leaf %s is registered as %s", ErrModel, m.tag, leaf, article(want)))
	}
	if lf.kind == kindLoop {
		return errs // the ports of a loop are those of the built-in loops (RegisterLoop)
	}
	decls, perr := r.probe(m, lf)
	if perr != nil {
		return append(errs, perr)
	}
	for _, mp := range m.ports {
		d, ok := decls.find(mp.name)
		at := fmt.Sprintf("line %d", mp.pos.line)
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("%w: %s: the model declares %s port %s, the leaf %s does not", ErrModel, at, mp.dir, quote(mp.name), leaf))
		case d.dir != mp.dir:
			errs = append(errs, fmt.Errorf("%w: %s: port %s is %s in the model, %s in the leaf %s", ErrModel, at, quote(mp.name), mp.dir, d.dir, leaf))
		case !modelTypeMatches(mp.typ, d.typ):
			errs = append(errs, fmt.Errorf("%w: %s: port %s has type %s in the model, %v in the leaf %s", ErrModel, at, quote(mp.name), quote(mp.typ), d.typ, leaf))
		case mp.hasDef && !d.hasDef:
			errs = append(errs, fmt.Errorf("%w: %s: port %s has default %s in the model, none in the leaf %s", ErrModel, at, quote(mp.name), quote(mp.def), leaf))
		case !mp.hasDef && d.hasDef:
			errs = append(errs, fmt.Errorf("%w: %s: port %s has no default in the model, %s in the leaf %s", ErrModel, at, quote(mp.name), quote(d.def), leaf))
		case mp.hasDef && !d.sameDef(mp.def):
			errs = append(errs, fmt.Errorf("%w: %s: port %s has default %s in the model, %s in the leaf %s", ErrModel, at, quote(mp.name), quote(mp.def), quote(d.def), leaf))
		}
	}
	for _, d := range decls {
		if !m.has(d.name) {
			errs = append(errs, fmt.Errorf("%w: the leaf %s declares %s port %s (%v), the model does not", ErrModel, leaf, d.dir, quote(d.name), d.typ))
		}
	}
	return errs
}

func article(s string) string {
	if s == "Action" {
		return "an Action"
	}
	return "a " + s
}

func (m *nodeModel) has(name string) bool {
	for _, p := range m.ports {
		if p.name == name {
			return true
		}
	}
	return false
}

// port returns the port name of m: by index, the ports' indexes by name, if not nil,
// else by comparing names.
func (m *nodeModel) port(name string, index map[string]int) (modelPort, bool) {
	if index != nil {
		if i, ok := index[name]; ok {
			return m.ports[i], true
		}
		return modelPort{}, false
	}
	for _, p := range m.ports {
		if p.name == name {
			return p, true
		}
	}
	return modelPort{}, false
}

// portDecl is a port a leaf factory declared while probed.
type portDecl struct {
	name    string
	dir     portDir
	typ     reflect.Type
	hasDef  bool
	def     string                 // the default as text, for messages
	sameDef func(text string) bool // whether a default written as text equals the leaf's
}

type portDecls []portDecl

func (ds portDecls) find(name string) (portDecl, bool) {
	for _, d := range ds {
		if d.name == name {
			return d, true
		}
	}
	return portDecl{}, false
}

// prober records the ports a factory declares instead of binding them.
type prober struct{ decls portDecls }

func (pr *prober) add(d portDecl) {
	for i := range pr.decls {
		if pr.decls[i].name == d.name {
			pr.decls[i].dir |= d.dir // an input and an output of one name: inout
			if !pr.decls[i].hasDef && d.hasDef {
				pr.decls[i].hasDef, pr.decls[i].def, pr.decls[i].sameDef = true, d.def, d.sameDef
			}
			return
		}
	}
	pr.decls = append(pr.decls, d)
}

// probe runs the factory of lf once on a node that writes every port of m (its default,
// else "{name}"), recording the ports it declares; [Ports.Schema] is a scratch schema.
// The factory's own error is ignored (it may want values only a real node has); a panic
// is reported.
func (r *Registry) probe(m *nodeModel, lf leafFactory) (decls portDecls, err error) {
	d := &defNode{typ: m.id, pos: m.pos}
	for _, mp := range m.ports {
		v := mp.def
		if !mp.hasDef {
			v = "{" + mp.name + "}"
		}
		d.attrs = append(d.attrs, attr{mp.name, v})
	}
	pr := &prober{}
	// A scratch schema: whatever the factory binds while probed declares nothing in r's.
	scratch := &Registry{schema: blackboard.NewSchema(), leaves: r.leaves, trees: r.trees, models: r.models}
	p := &Ports{b: &builder{reg: scratch}, d: d, sc: &scope{}, used: make([]bool, len(d.attrs)), probe: pr}
	defer func() {
		if x := recover(); x != nil {
			decls, err = nil, fmt.Errorf("%w: the factory of %s panicked when probed for its ports: %v", ErrModel, quote(m.id), x)
		}
	}()
	switch lf.kind {
	case kindAction:
		_, _ = lf.action(p)
	case kindCondition:
		_, _ = lf.cond(p)
	case kindChoose:
		_, _ = lf.choose(p)
	}
	return pr.decls, nil
}

// probeIn records an input or output port of type T without a default.
func probePort[T any](p *Ports, name string, dir portDir) {
	p.probe.add(portDecl{name: name, dir: dir, typ: reflect.TypeFor[T]()})
}

// probeDefault records an input port of type T with the default def.
func probeDefault[T any](p *Ports, name string, def T) {
	p.probe.add(portDecl{name: name, dir: dirIn, typ: reflect.TypeFor[T](), hasDef: true, def: fmt.Sprint(def),
		sameDef: func(text string) bool {
			if _, isRef := refName(text); isRef {
				return false
			}
			v, err := parseLiteral[T](text)
			return err == nil && reflect.DeepEqual(v, def)
		}})
}

// probeTextDefault records a port of type T whose default is written as in a file.
func probeTextDefault[T any](p *Ports, name string, dir portDir, def string) {
	p.probe.add(portDecl{name: name, dir: dir, typ: reflect.TypeFor[T](), hasDef: true, def: def,
		sameDef: func(text string) bool {
			a, aRef := refName(text)
			b, bRef := refName(def)
			if aRef || bRef {
				if a == "=" {
					a = name
				}
				if b == "=" {
					b = name
				}
				return aRef && bRef && a == b
			}
			x, err1 := parseLiteral[T](text)
			y, err2 := parseLiteral[T](def)
			return err1 == nil && err2 == nil && reflect.DeepEqual(x, y)
		}})
}

// cppTypes are the C++ type names (as BehaviorTree.CPP and Groot2 write them) accepted
// for a Go kind.
var cppTypes = map[reflect.Kind][]string{
	reflect.Bool:    {"bool"},
	reflect.Int:     {"int", "long", "long long", "int64_t", "int32_t"},
	reflect.Int8:    {"int8_t", "signed char", "char"},
	reflect.Int16:   {"short", "int16_t"},
	reflect.Int32:   {"int", "int32_t"},
	reflect.Int64:   {"long", "long long", "int64_t"},
	reflect.Uint:    {"unsigned", "unsigned int", "unsigned long", "uint64_t", "uint32_t", "size_t"},
	reflect.Uint8:   {"uint8_t", "unsigned char"},
	reflect.Uint16:  {"unsigned short", "uint16_t"},
	reflect.Uint32:  {"unsigned", "unsigned int", "uint32_t"},
	reflect.Uint64:  {"unsigned long", "unsigned long long", "uint64_t", "size_t"},
	reflect.Float32: {"float"},
	reflect.Float64: {"double"},
	reflect.String:  {"std::string", "string", "std::string_view"},
}

// modelTypeMatches reports whether the type a model writes names the Go type t: no type
// (or BehaviorTree.CPP's untyped names) matches anything; else t's Go name with or without
// package ("r2.Vec", "Vec", "[]int"), a C++ name of t's kind, or std::vector<E> / E[] of a
// slice whose element matches E.
func modelTypeMatches(s string, t reflect.Type) bool {
	s = strings.TrimSpace(s)
	switch s {
	case "", "void", "AnyTypeAllowed", "BT::AnyTypeAllowed", "BT::Any":
		return true
	}
	if t == nil {
		return false
	}
	if s == t.String() || (t.Name() != "" && s == t.Name()) {
		return true
	}
	for _, c := range cppTypes[t.Kind()] {
		if s == c {
			return true
		}
	}
	if t.Kind() == reflect.Slice {
		if in, ok := strings.CutPrefix(s, "std::vector<"); ok && strings.HasSuffix(in, ">") {
			in = strings.TrimSuffix(in, ">")
			return strings.TrimSpace(in) != "" && modelTypeMatches(in, t.Elem())
		}
	}
	return false
}
