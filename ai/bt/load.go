package bt

import (
	"cmp"
	"encoding"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/archai-go/archai/ai/blackboard"
)

// defNode is a node as written in a file, before building.
type defNode struct {
	typ   string
	attrs []attr
	kids  []*defNode
	pos   pos
}

type attr struct{ name, value string }

// fewNames is how many attributes of one element, or ports of one model, the loader
// looks a duplicate up among by comparing names; past it, in a set.
const fewNames = 8

func (d *defNode) get(name string) (string, bool) {
	for _, a := range d.attrs {
		if a.name == name {
			return a.value, true
		}
	}
	return "", false
}

// label names a node in errors: its type and, if given, its name or ID.
func (d *defNode) label() string {
	if v, ok := d.get("name"); ok {
		return shorten(d.typ) + " " + quote(v)
	}
	if v, ok := d.get("ID"); ok {
		return shorten(d.typ) + " " + quote(v)
	}
	return shorten(d.typ)
}

// scope is the blackboard scope of a tree or SubTree instance.
type scope struct {
	parent *scope
	prefix string            // of private keys; "" for the main tree
	remap  map[string]string // subtree key → "{parentKey}", "{=}" or a literal
	auto   bool
}

// resolve maps a key used in this scope to a schema key name, or to a literal.
func (s *scope) resolve(key string) (name, lit string, isLit bool) {
	for depth := 0; s != nil && depth < maxDepth; depth++ {
		if root, ok := strings.CutPrefix(key, "@"); ok {
			return root, "", false // the agent's root blackboard, whatever the scope
		}
		if v, ok := s.remap[key]; ok {
			ref, isRef := refName(v)
			if !isRef {
				return "", v, true
			}
			if ref != "=" {
				key = ref
			}
			s = s.parent
			continue
		}
		if s.auto && s.parent != nil && !strings.HasPrefix(key, "_") {
			s = s.parent
			continue
		}
		return s.prefix + key, "", false
	}
	return key, "", false
}

// refName returns k for "{k}"; spaces around the braces and around k are ignored
// (" { k } ").
func refName(v string) (string, bool) {
	v = strings.Trim(v, " ")
	if len(v) >= 3 && v[0] == '{' && v[len(v)-1] == '}' {
		return strings.TrimSpace(v[1 : len(v)-1]), true
	}
	return "", false
}

// maxDepth bounds the nesting of nodes and subtrees in a file.
const maxDepth = 256

// maxErrors is the number of load errors reported at once.
const maxErrors = 20

// builder turns definitions into Nodes.
type builder struct {
	reg       *Registry
	errs      []error
	later     []func() // bindings that need every leaf's key types first
	last      []func() // bindings that need every key declared (after later and the scripts)
	textPorts []func() // string input ports on keys not yet declared (ports_text.go), run before later
	deferring bool     // compileScripts is running the deferred bindings
	stack     []string // subtree IDs being built
	instances int
	nodes     int // built so far: subtrees used many times can multiply quickly

	scripts []*pendingScript // script attributes, compiled after the build (load_script.go)
	enums   map[string]int   // the registry's enums when the first script compiled
	conds   []nodeConds      // conditions to attach once their scripts are compiled

	reads []string // the keys the tree's input ports bind (readKey)
}

type nodeConds struct {
	n *Node
	c *conds
}

func (b *builder) fail(p pos, node string, err error) {
	if len(b.errs) < maxErrors {
		b.errs = append(b.errs, p.err(node, err))
	}
}

func (b *builder) err() error {
	if len(b.errs) == 1 {
		return b.errs[0]
	}
	return errors.Join(b.errs...)
}

// tree builds the tree id in scope sc; at is where it is referenced from.
func (b *builder) tree(id string, sc *scope, at pos, from string) *Node {
	def, ok := b.reg.trees[id]
	if !ok {
		if from == "" {
			from = "main tree"
		}
		b.fail(at, from, fmt.Errorf("%w %s", ErrUnknownTree, quote(id)))
		return nil
	}
	if i := slices.Index(b.stack, id); i >= 0 {
		chain := strings.Join(append(b.stack[i:], id), " -> ")
		b.fail(at, from, fmt.Errorf("%w: %s", ErrRecursion, chain))
		return nil
	}
	if def.goRoot != nil {
		return def.goRoot
	}
	if len(b.stack) >= maxDepth {
		b.fail(at, from, fmt.Errorf("%w: subtrees nested deeper than %d", ErrRecursion, maxDepth))
		return nil
	}
	b.stack = append(b.stack, id)
	defer func() { b.stack = b.stack[:len(b.stack)-1] }()
	return b.node(def.root, sc, 0)
}

// node builds d and its children.
func (b *builder) node(d *defNode, sc *scope, depth int) *Node {
	if d == nil {
		return nil
	}
	if depth > maxDepth {
		b.fail(d.pos, d.label(), fmt.Errorf("%w: nested deeper than %d", ErrChildren, maxDepth))
		return nil
	}
	if b.nodes++; b.nodes > MaxNodes {
		if b.nodes == MaxNodes+1 {
			b.fail(d.pos, d.label(), fmt.Errorf("%w: the tree with its subtrees has more than %d nodes", ErrTooManyNodes, MaxNodes))
		}
		return nil
	}
	p := &Ports{b: b, d: d, sc: sc, used: make([]bool, len(d.attrs)), asked: make([]string, 0, len(condNames)+4)} // asked: one allocation, not four growths
	p.attr("name")
	conds := p.conditions()
	var n *Node
	tag := ""
	if d.typ == "SubTree" {
		n = b.subTree(p, d, sc)
	} else {
		typ := d.typ
		if typ == "Action" || typ == "Condition" {
			// BehaviorTree.CPP v3 / Groot style: <Action ID="Name" …/>.
			if id, ok := p.attr("ID"); ok {
				typ = id
			}
		}
		bi, isBuiltin := builtins[typ]
		lf, isLeaf := b.reg.leaves[typ]
		switch {
		case isBuiltin:
			if !p.kidCount(bi.min, bi.max) {
				return nil
			}
			kids := b.kids(d, sc, depth)
			n = bi.build(p, kids)
			tag = typ
		case isLeaf && lf.kind == kindLoop:
			if !p.kidCount(1, 1) {
				return nil
			}
			if n = lf.loop(p, b.kids(d, sc, depth)); n != nil {
				n.name = "" // named by its tag, as the built-in loops
			}
			tag = typ
		case isLeaf && lf.kind == kindChoose:
			if !p.kidCount(1, manyKids) {
				return nil
			}
			kids := b.kids(d, sc, depth)
			fn, err := lf.choose(p)
			if p.check(err) {
				n = Choose("", fn, kids...)
				n.leaf = true
			}
			tag = typ
		case isLeaf:
			if !p.kidCount(0, 0) {
				return nil
			}
			if lf.kind == kindCondition {
				fn, err := lf.cond(p)
				if p.check(err) {
					n = Condition("", fn)
				}
			} else {
				fn, err := lf.action(p)
				if p.check(err) {
					n = Action("", fn)
					n.onStart, n.onHalt = p.onStart, p.onHalt
				}
			}
			if n != nil { // named by its registered type, as the built-in nodes by theirs
				n.leaf = true
			}
			tag = typ
		default:
			b.fail(d.pos, d.label(), fmt.Errorf("%w %s (not built in, not registered)", ErrUnknownNode, quote(typ)))
			return nil
		}
	}
	p.finish()
	if n == nil {
		return nil
	}
	if conds != nil {
		b.conds = append(b.conds, nodeConds{n, conds})
	}
	if name, ok := d.get("name"); ok {
		n.name = name
	}
	n.tag = tag // traces and dumps read like the file: Fallback, not Selector
	if p.attached != nil {
		n.attached = p.attached
	}
	return n
}

func (b *builder) kids(d *defNode, sc *scope, depth int) []*Node {
	kids := make([]*Node, len(d.kids))
	for i, k := range d.kids {
		kids[i] = b.node(k, sc, depth+1)
	}
	return kids
}

// subTree builds <SubTree ID=… ports…/> with a scope of its own.
func (b *builder) subTree(p *Ports, d *defNode, sc *scope) *Node {
	if !p.kidCount(0, 0) {
		return nil
	}
	id, ok := p.attr("ID")
	if !ok || id == "" {
		p.fail(fmt.Errorf("%w: SubTree without ID", ErrPort))
		return nil
	}
	b.instances++
	inner := &scope{parent: sc, prefix: id + "#" + strconv.Itoa(b.instances) + ".", remap: map[string]string{}}
	for i, a := range d.attrs {
		if p.used[i] {
			continue
		}
		p.used[i] = true
		switch a.name {
		case "_description":
		case "_autoremap", "__shared_blackboard":
			v, err := strconv.ParseBool(a.value)
			if err != nil {
				p.fail(fmt.Errorf("%w: %s=%s is not a boolean", ErrPort, a.name, quote(a.value)))
			}
			inner.auto = v
		default:
			if strings.HasPrefix(a.name, "_") {
				p.fail(fmt.Errorf("%w: unsupported attribute %s", ErrPort, quote(a.name)))
				continue
			}
			inner.remap[a.name] = a.value
		}
	}
	b.subTreeModel(p, id, inner)
	root := b.tree(id, inner, d.pos, d.label())
	if root == nil {
		return nil
	}
	return SubTree(id, root)
}

// Ports is what an [ActionFactory] sees of the node being built: its attributes (ports)
// as written in the file, resolved through the blackboard scope. Declare ports with
// [InputPort], [InputPortOr] and [OutputPort]; an attribute that no port consumes is an
// error (a typo in a port name does not pass silently).
type Ports struct {
	b               *builder
	d               *defNode
	sc              *scope
	used            []bool
	asked           []string // the port names the node's builder looked for, for finish's error
	failed          bool
	onStart, onHalt func(*Context)
	attached        any     // Attach's value
	probe           *prober // set when a TreeNodesModel is checked: ports are recorded, not bound
}

// Name returns the node's name attribute, or its type (the ID of <Action ID="…"/>).
func (p *Ports) Name() string {
	if v, ok := p.d.get("name"); ok {
		return v
	}
	if p.d.typ == "Action" || p.d.typ == "Condition" {
		if id, ok := p.d.get("ID"); ok {
			return id
		}
	}
	return p.d.typ
}

// OnStart sets the start hook of the action being built (see [Node.OnStart]).
func (p *Ports) OnStart(fn func(*Context)) { p.onStart = fn }

// OnHalt sets the halt hook of the action being built (see [Node.OnHalt]).
func (p *Ports) OnHalt(fn func(*Context)) { p.onHalt = fn }

// Attach attaches v to the leaf being built (see [Node.Attach]): [Tree.Attached]
// returns it for the loaded node.
func (p *Ports) Attach(v any) { p.attached = v }

// Has reports whether the port name is written on the node.
func (p *Ports) Has(name string) bool {
	p.ask(name)
	_, ok := p.d.get(name)
	return ok
}

// ask records that the node's builder looked for port name.
func (p *Ports) ask(name string) {
	if !slices.Contains(p.asked, name) {
		p.asked = append(p.asked, name)
	}
}

// Schema returns the blackboard schema ports bind to.
func (p *Ports) Schema() *blackboard.Schema { return p.b.reg.schema }

// attr returns the value of attribute name and marks it used.
func (p *Ports) attr(name string) (string, bool) {
	p.ask(name)
	for i, a := range p.d.attrs {
		if a.name == name {
			p.used[i] = true
			return a.value, true
		}
	}
	return "", false
}

func (p *Ports) fail(err error) {
	p.failed = true
	if len(p.b.errs) < maxErrors { // else b.fail keeps nothing; label looks through the attributes
		p.b.fail(p.d.pos, p.d.label(), err)
	}
}

func (p *Ports) check(err error) bool {
	if err != nil {
		p.fail(err)
		return false
	}
	return !p.failed
}

func (p *Ports) kidCount(lo, hi int) bool {
	n := len(p.d.kids)
	if n >= lo && n <= min(hi, math.MaxUint16) {
		return true
	}
	want := wantKids(kindInfo{minKids: lo, maxKids: hi})
	if hi == manyKids && n > math.MaxUint16 { // not "want at least 1" for 70,000 children
		want = "at most " + strconv.Itoa(math.MaxUint16)
	}
	p.fail(fmt.Errorf("%w: %d, want %s", ErrChildren, n, want))
	return false
}

// known lists the ports the builder looked for, comma-separated, but "name", the ID
// a node type may be given by and the pre- and post-conditions every node has
// (_skipIf, _onSuccess, ...).
func (p *Ports) known() string {
	var names []string
	for _, n := range p.asked {
		if n != "name" && n != "ID" && !strings.HasPrefix(n, "_") {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

// finish reports the attributes no port consumed.
func (p *Ports) finish() {
	for i, a := range p.d.attrs {
		if !p.used[i] && !strings.HasPrefix(a.name, "_description") {
			if len(p.b.errs) >= maxErrors { // no more are reported: 50,000 unknown ports cost one look each
				p.failed = true
				return
			}
			if known := p.known(); known != "" {
				p.fail(fmt.Errorf("%w: unknown port %s (the ports it read: %s)", ErrPort, quote(a.name), known))
			} else {
				p.fail(fmt.Errorf("%w: unknown port %s (it read no ports of its own)", ErrPort, quote(a.name)))
			}
		}
	}
}

// InputPort declares the input port name of type T. The node must write it: as a
// literal parsed as T (bool, integers, floats, strings, types defined on them, and
// encoding.TextUnmarshaler), or as "{key}", a blackboard key declared with type T. A
// missing port, a literal that does not parse, or a key of another type is a load error.
func InputPort[T any](p *Ports, name string) In[T] {
	if p.probe != nil {
		probePort[T](p, name, dirIn)
		return In[T]{}
	}
	v, ok := p.attr(name)
	if !ok {
		p.fail(fmt.Errorf("%w: missing input port %q (%v)", ErrPort, name, reflect.TypeFor[T]()))
		return In[T]{}
	}
	return bindIn[T](p, name, v)
}

// InputPortOr is [InputPort] with a default literal for a port the node does not write.
func InputPortOr[T any](p *Ports, name string, def T) In[T] {
	if p.probe != nil {
		probeDefault(p, name, def)
		return Literal(def)
	}
	v, ok := p.attr(name)
	if !ok {
		return Literal(def)
	}
	return bindIn[T](p, name, v)
}

// OutputPort declares the output port name of type T: the node writes "{key}" (or a bare
// key name), declared with type T. A missing port, a key of another type or a key bound to
// a literal by a SubTree is a load error.
func OutputPort[T any](p *Ports, name string) Out[T] {
	if p.probe != nil {
		probePort[T](p, name, dirOut)
		return Out[T]{}
	}
	v, ok := p.attr(name)
	if !ok {
		p.fail(fmt.Errorf("%w: missing output port %q (%v)", ErrPort, name, reflect.TypeFor[T]()))
		return Out[T]{}
	}
	return bindOut[T](p, name, v)
}

func bindIn[T any](p *Ports, port, v string) In[T] {
	ref, isRef := refName(v)
	if !isRef {
		return literal[T](p, port, v)
	}
	if ref == "=" {
		ref = port
	}
	key, lit, isLit := p.sc.resolve(ref)
	if isLit {
		return literal[T](p, port, lit)
	}
	if reflect.TypeFor[T]() == reflect.TypeFor[string]() {
		return bindText[T](p, port, key)
	}
	had := p.b.reg.schema.Type(key) != nil
	k, err := blackboard.Declare[T](p.b.reg.schema, key)
	if err != nil {
		p.fail(fmt.Errorf("%w: port %q: %w", ErrPort, port, err))
		return In[T]{}
	}
	p.b.readKey(key, had)
	return FromKey(k)
}

func bindOut[T any](p *Ports, port, v string) Out[T] {
	ref, isRef := refName(v)
	if !isRef {
		ref = strings.TrimSpace(v)
	}
	if ref == "=" {
		ref = port
	}
	if ref == "" {
		p.fail(fmt.Errorf("%w: output port %q: empty key", ErrPort, port))
		return Out[T]{}
	}
	key, lit, isLit := p.sc.resolve(ref)
	if isLit {
		p.fail(fmt.Errorf("%w: output port %q: key %s is bound to the literal %s by its SubTree", ErrPort, port, quote(ref), quote(lit)))
		return Out[T]{}
	}
	k, err := blackboard.Declare[T](p.b.reg.schema, key)
	if err != nil {
		p.fail(fmt.Errorf("%w: port %q: %w", ErrPort, port, err))
		return Out[T]{}
	}
	p.b.wroteKey(key)
	return ToKey(k)
}

func literal[T any](p *Ports, port, v string) In[T] {
	x, err := parseLiteral[T](v)
	if err != nil {
		p.fail(fmt.Errorf("%w: port %q: %w", ErrPort, port, err))
		return In[T]{}
	}
	return Literal(x)
}

// parseLiteral parses s as a T: by its UnmarshalText, else by its kind (a slice as a
// ';'-separated list, see [listValue]; a struct of the float64 fields X and Y, such as
// r2.Vec, as "x;y").
func parseLiteral[T any](s string) (T, error) {
	var v T
	if u, ok := any(&v).(encoding.TextUnmarshaler); ok {
		err := u.UnmarshalText([]byte(s))
		return v, err
	}
	rv := reflect.ValueOf(&v).Elem()
	bad := func(err error) (T, error) {
		var zero T
		return zero, fmt.Errorf("%s cannot be read as %v", quote(s), rv.Type())
	}
	t := strings.TrimSpace(s)
	switch rv.Kind() {
	case reflect.String:
		rv.SetString(s)
	case reflect.Bool:
		x, err := strconv.ParseBool(t)
		if err != nil {
			return bad(err)
		}
		rv.SetBool(x)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x, err := strconv.ParseInt(t, 10, rv.Type().Bits())
		if err != nil {
			return bad(err)
		}
		rv.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		x, err := strconv.ParseUint(t, 10, rv.Type().Bits())
		if err != nil {
			return bad(err)
		}
		rv.SetUint(x)
	case reflect.Float32, reflect.Float64:
		x, err := strconv.ParseFloat(t, rv.Type().Bits())
		if err != nil {
			return bad(err)
		}
		if math.IsNaN(x) {
			var zero T
			return zero, nanError(s)
		}
		rv.SetFloat(x)
	case reflect.Slice: // BehaviorTree.CPP's list literal: "1;2;3"
		x, err := listValue(rv.Type(), s)
		if err != nil {
			var zero T
			return zero, err
		}
		rv.Set(x)
	case reflect.Struct:
		if !isXY(rv.Type()) {
			var zero T
			return zero, fmt.Errorf("no literal form for %v (bind the port to a key)", rv.Type())
		}
		// a point (r2.Vec): "x;y", as BehaviorTree.CPP's tutorial writes its Position2D
		xs, ys, ok := strings.Cut(t, ";")
		if !ok || strings.Contains(ys, ";") {
			return bad(nil)
		}
		x, errX := strconv.ParseFloat(strings.TrimSpace(xs), 64)
		y, errY := strconv.ParseFloat(strings.TrimSpace(ys), 64)
		if errX != nil || errY != nil {
			return bad(nil)
		}
		if math.IsNaN(x) || math.IsNaN(y) {
			var zero T
			return zero, nanError(s)
		}
		rv.Field(0).SetFloat(x)
		rv.Field(1).SetFloat(y)
	default:
		var zero T
		return zero, fmt.Errorf("no literal form for %v (bind the port to a key)", rv.Type())
	}
	return v, nil
}

// errNaN marks a float literal reading NaN ("NaN", "nan"), which strconv accepts: NaN
// equals nothing and compares false with everything, so a file never means it.
var errNaN = errors.New("NaN equals nothing and compares false with everything: write a number")

func nanError(s string) error { return fmt.Errorf("%s reads as NaN: %w", quote(s), errNaN) }

// isXY reports whether t is a struct of exactly the float64 fields X and Y (in
// that order), as gonum's r2.Vec: its literal is "x;y".
func isXY(t reflect.Type) bool {
	if t.NumField() != 2 {
		return false
	}
	x, y := t.Field(0), t.Field(1)
	return x.Name == "X" && y.Name == "Y" && x.Type.Kind() == reflect.Float64 && y.Type.Kind() == reflect.Float64
}

// constant reads a port that must be a literal (a count or duration fixed in the compiled
// tree), or def if absent.
func constant[T any](p *Ports, name string, def T) T {
	in := InputPortOr(p, name, def)
	if !in.IsLiteral() {
		if !p.failed {
			p.fail(fmt.Errorf("%w: port %q must be a literal, not a blackboard key", ErrPort, name))
		}
		return def
	}
	return in.lit
}

// seconds reads a duration port: name in seconds, or msName in milliseconds
// (BehaviorTree.CPP's msec ports); neither is a load error naming both.
func seconds(p *Ports, name, msName string) float64 {
	var s float64
	switch {
	case name != "" && p.Has(name):
		s = constant(p, name, 0.0)
	case msName != "" && p.Has(msName):
		s = constant(p, msName, 0.0) / 1000
	default:
		// name every port the node accepts: a misspelt one (ms=) is not one of them
		if name == "" {
			p.fail(fmt.Errorf("%w: missing port %q (the duration in milliseconds)", ErrPort, msName))
		} else {
			p.fail(fmt.Errorf("%w: missing port %q (the duration in seconds) or %q (in milliseconds): give one of them", ErrPort, name, msName))
		}
		return 0
	}
	if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
		p.fail(fmt.Errorf("%w: duration %v: %w", ErrPort, s, ErrInvalidDuration))
	}
	return s
}

// count reads the required count port name of Repeat or a retry: a missing one is a
// build error, as in BehaviorTree.CPP (it used to read as 0: the child never ran).
func count(p *Ports, name string) int {
	if !p.Has(name) {
		p.fail(fmt.Errorf("%w: missing port %q", ErrPort, name))
		return 0
	}
	n := constant(p, name, 0)
	if n > MaxCount || n < -1 {
		p.fail(fmt.Errorf("%w: %s=%d: %w (-1 for forever, at most %d)", ErrPort, name, n, ErrInvalidCount, MaxCount))
	}
	return n
}

// builtin is a node type the loader knows: its children and how to build it.
type builtin struct {
	min, max int
	build    func(p *Ports, kids []*Node) *Node
}

var builtins map[string]builtin

func init() {
	many := func(f func(...*Node) *Node) builtin {
		return builtin{1, manyKids, func(_ *Ports, k []*Node) *Node { return f(k...) }}
	}
	one := func(f func(*Node) *Node) builtin {
		return builtin{1, 1, func(_ *Ports, k []*Node) *Node { return f(k[0]) }}
	}
	leaf := func(f func() *Node) builtin {
		return builtin{0, 0, func(*Ports, []*Node) *Node { return f() }}
	}
	third := func(k []*Node) *Node {
		if len(k) == 3 {
			return k[2]
		}
		return nil
	}
	builtins = map[string]builtin{
		"Sequence":           many(Sequence),
		"SequenceWithMemory": many(SequenceWithMemory),
		"Fallback":           many(Selector),
		"Selector":           many(Selector),
		"ReactiveSequence":   many(ReactiveSequence),
		"ReactiveFallback":   many(ReactiveSelector),
		"ReactiveSelector":   many(ReactiveSelector),
		"Parallel": {1, manyKids, func(p *Ports, k []*Node) *Node {
			s, f := constant(p, "success_count", All), constant(p, "failure_count", 1)
			if ts, tf := threshold(s, len(k)), threshold(f, len(k)); ts < 1 || ts > len(k) || tf < 1 || tf > len(k) {
				p.fail(fmt.Errorf("%w: success_count %d, failure_count %d with %d children: %w", ErrPort, s, f, len(k), ErrInvalidCount))
			}
			return Parallel(s, f, k...)
		}},
		"IfThenElse":   {2, 3, func(_ *Ports, k []*Node) *Node { return IfThenElse(k[0], k[1], third(k)) }},
		"WhileDoElse":  {2, 3, func(_ *Ports, k []*Node) *Node { return WhileDoElse(k[0], k[1], third(k)) }},
		"Inverter":     one(Inverter),
		"ForceSuccess": one(ForceSuccess),
		"ForceFailure": one(ForceFailure),
		"Repeat": {1, 1, func(p *Ports, k []*Node) *Node {
			return Repeat(count(p, "num_cycles"), k[0])
		}},
		"RepeatUntilFailure": one(RepeatUntilFailure),
		"RepeatUntilSuccess": one(RepeatUntilSuccess),
		"KeepRunningUntilFailure": one(func(n *Node) *Node {
			return ForceFailure(RepeatUntilFailure(n))
		}),
		"RetryUntilSuccessful": {1, 1, func(p *Ports, k []*Node) *Node {
			return Retry(count(p, "num_attempts"), k[0])
		}},
		"Retry": {1, 1, func(p *Ports, k []*Node) *Node {
			return Retry(count(p, "num_attempts"), k[0])
		}},
		"Cooldown": {1, 1, func(p *Ports, k []*Node) *Node { return Cooldown(seconds(p, "seconds", "msec"), k[0]) }},
		"Timeout":  {1, 1, func(p *Ports, k []*Node) *Node { return Timeout(seconds(p, "seconds", "msec"), k[0]) }},
		"Delay":    {1, 1, func(p *Ports, k []*Node) *Node { return Delay(seconds(p, "seconds", "delay_msec"), k[0]) }},
		"RunOnce": {1, 1, func(p *Ports, k []*Node) *Node {
			if constant(p, "then_skip", true) {
				return RunOnceThenSkip(k[0])
			}
			return RunOnce(k[0])
		}},
		"Precondition": {1, 1, preconditionNode},
		"SetBlackboard": {0, 0, func(p *Ports, _ []*Node) *Node {
			n := &Node{kind: kindSetBlackboard}
			p.setBlackboard(n)
			return n
		}},
		"CheckBlackboard": {0, 0, func(p *Ports, _ []*Node) *Node {
			n := &Node{kind: kindCheckBlackboard}
			a, _ := p.attr("value_A")
			b, _ := p.attr("value_B")
			op, ok := p.attr("op")
			if !ok {
				op = "=="
			}
			p.compare(n, a, op, b)
			return n
		}},
		"ScriptCondition": {0, 0, scriptConditionNode},
		"Script":          {0, 0, scriptNode},
		"AlwaysSuccess":   leaf(AlwaysSuccess),
		"AlwaysFailure":   leaf(AlwaysFailure),
	}
	builtins["Wait"] = builtin{0, 0, func(p *Ports, _ []*Node) *Node { return Wait(seconds(p, "seconds", "msec")) }}
	builtins["Sleep"] = builtin{0, 0, func(p *Ports, _ []*Node) *Node { return Wait(seconds(p, "", "msec")) }}
	for n := 1; n <= 9; n++ {
		builtins["Switch"+strconv.Itoa(n)] = builtin{n + 1, n + 1, func(p *Ports, k []*Node) *Node {
			v, ok := p.attr("variable")
			if !ok {
				p.fail(fmt.Errorf("%w: missing port \"variable\"", ErrPort))
			}
			cases := make([]string, n)
			for i := range cases {
				name := "case_" + strconv.Itoa(i+1)
				c, ok := p.attr(name)
				if !ok {
					p.fail(fmt.Errorf("%w: missing port %q", ErrPort, name))
				}
				cases[i] = c
			}
			sw := &Node{kind: kindSwitch}
			p.switchNode(sw, v, cases, k)
			return sw
		}}
	}
	addBuiltinsV4()
}

// Blackboard built-ins bind after every user leaf, so that keys get the types user ports
// declare; a key nobody declares takes its type from the literal it is compared with or
// set to (bool, int, float64, else string).

var (
	typBool   = reflect.TypeFor[bool]()
	typInt    = reflect.TypeFor[int]()
	typFloat  = reflect.TypeFor[float64]()
	typString = reflect.TypeFor[string]()
)

// operandType returns the type of an operand: its key's declared type, or nil.
func (p *Ports) operandType(v string) reflect.Type {
	if ref, ok := refName(v); ok {
		if key, _, isLit := p.sc.resolve(ref); !isLit {
			return p.b.reg.schema.Type(key)
		}
	}
	return nil
}

// inferType picks the type of operands none of which has a declared key.
func inferType(vals ...string) reflect.Type {
	for _, v := range vals {
		if _, ok := refName(v); ok {
			continue
		}
		v = strings.TrimSpace(v)
		if v == "true" || v == "false" {
			return typBool
		}
		if _, err := strconv.Atoi(v); err == nil {
			return typInt
		}
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			return typFloat
		}
		return typString
	}
	return typString
}

func (p *Ports) typeOf(vals ...string) reflect.Type {
	for _, v := range vals {
		if t := p.operandType(v); t != nil {
			return t
		}
	}
	return inferType(vals...)
}

// compare sets n.cond (deferred) to a op b.
func (p *Ports) compare(n *Node, a, opText, b string) {
	op, ok := parseOp(opText)
	if !ok {
		p.fail(fmt.Errorf("%w: unknown comparison %s", ErrPort, quote(opText)))
		return
	}
	p.b.later = append(p.b.later, func() {
		switch typ := p.typeOf(a, b); typ {
		case typBool:
			if op != Eq && op != Ne {
				p.fail(fmt.Errorf("%w: %s on booleans", ErrPort, op))
				return
			}
			n.cond = compare(bindIn[bool](p, "value_A", a), op, bindIn[bool](p, "value_B", b), nil)
		case typInt:
			n.cond = compare(bindIn[int](p, "value_A", a), op, bindIn[int](p, "value_B", b), cmp.Compare[int])
		case typFloat:
			n.cond = compare(bindIn[float64](p, "value_A", a), op, bindIn[float64](p, "value_B", b), cmp.Compare[float64])
		case typString:
			n.cond = compare(bindIn[string](p, "value_A", a), op, bindIn[string](p, "value_B", b), cmp.Compare[string])
		default:
			p.fail(fmt.Errorf("%w: cannot compare keys of type %v (bool, int, float64, string)", ErrPort, typ))
		}
	})
}

func parseOp(s string) (Op, bool) {
	for i, n := range opNames {
		if n == strings.TrimSpace(s) {
			return Op(i), true
		}
	}
	return 0, false
}

// setBlackboard binds <SetBlackboard value=… output_key=…/> into n.tick (deferred).
func (p *Ports) setBlackboard(n *Node) {
	v, ok1 := p.attr("value")
	out, ok2 := p.attr("output_key")
	if !ok1 || !ok2 {
		p.fail(fmt.Errorf("%w: SetBlackboard needs value and output_key", ErrPort))
		return
	}
	outRef := out
	if _, isRef := refName(out); !isRef {
		outRef = "{" + out + "}"
	}
	p.b.later = append(p.b.later, func() {
		switch typ := p.typeOf(outRef, v); typ {
		case typBool:
			n.tick = SetBlackboard(bindOut[bool](p, "output_key", out), bindIn[bool](p, "value", v)).tick
		case typInt:
			n.tick = SetBlackboard(bindOut[int](p, "output_key", out), bindIn[int](p, "value", v)).tick
		case typFloat:
			n.tick = SetBlackboard(bindOut[float64](p, "output_key", out), bindIn[float64](p, "value", v)).tick
		case typString:
			n.tick = SetBlackboard(bindOut[string](p, "output_key", out), bindIn[string](p, "value", v)).tick
		default:
			p.setAnyType(n, typ, out, v)
		}
	})
}

// switchNode binds a SwitchN into n (deferred).
func (p *Ports) switchNode(n *Node, v string, cases []string, kids []*Node) {
	if _, isRef := refName(v); !isRef {
		p.fail(fmt.Errorf("%w: variable=%s must be a blackboard key {key}", ErrPort, quote(v)))
		return
	}
	p.b.later = append(p.b.later, func() {
		switch typ := p.typeOf(v); typ {
		case typBool:
			*n = *switchOf[bool](p, v, cases, kids)
		case typInt: // numbers compare as numbers: see load_v4.go
			*n = *switchNumber[int](p, v, cases, kids)
		case typFloat:
			*n = *switchNumber[float64](p, v, cases, kids)
		case typString:
			*n = *switchString(p, v, cases, kids)
		default:
			p.fail(fmt.Errorf("%w: Switch on a key of type %v (bool, int, float64, string)", ErrPort, typ))
		}
		n.name, _ = p.d.get("name")
		n.tag = p.d.typ
	})
}

func switchOf[T comparable](p *Ports, v string, cases []string, kids []*Node) *Node {
	cs := make([]T, len(cases))
	for i, c := range cases {
		x, err := parseLiteral[T](c)
		if err != nil {
			p.fail(fmt.Errorf("%w: case_%d: %w", ErrPort, i+1, err))
		}
		cs[i] = x
	}
	repeatedCase(p, cases, func(i, j int) bool { return cs[i] == cs[j] })
	return Switch(bindIn[T](p, "variable", v), cs, kids...)
}

// repeatedCase reports a case of a file Switch equal (by eq, as the Switch compares) to
// an earlier one: the first equal case wins, so the later case's child could never run.
func repeatedCase(p *Ports, cases []string, eq func(i, j int) bool) {
	for j := range cases {
		for i := range j {
			if eq(i, j) {
				p.fail(fmt.Errorf("%w: case_%d %s is case_%d again: the first equal case wins, so child %d could never run", ErrPort, j+1, quote(cases[j]), i+1, j+1))
				return
			}
		}
	}
}
