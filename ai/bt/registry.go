package bt

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/archai-go/archai/ai/blackboard"
)

// Errors wrapped by [LoadError], for callers that branch on the problem.
var (
	ErrSyntax       = errors.New("syntax error")
	ErrUnknownNode  = errors.New("unknown node type")
	ErrChildren     = errors.New("wrong number of children")
	ErrPort         = errors.New("port error")
	ErrUnknownTree  = errors.New("unknown tree")
	ErrRecursion    = errors.New("subtree includes itself")
	ErrDuplicateID  = errors.New("duplicate ID")
	ErrRegistration = errors.New("bad registration")
	ErrNoMainTree   = errors.New("no main tree")
	ErrInclude      = errors.New("bad include")
	ErrModel        = errors.New("model mismatch") // a TreeNodesModel entry and its registered leaf disagree
)

// ActionFactory makes the tick function of a registered action for one node of a loaded
// tree. It declares the node's ports with [InputPort], [OutputPort] and [InputPortOr]
// (binding them to blackboard keys or literals), may set hooks with [Ports.OnStart] and
// [Ports.OnHalt], and returns the tick function. It runs once per node at load time,
// never per agent or per tick.
type ActionFactory func(p *Ports) (func(*Context) Status, error)

// ConditionFactory makes the function of a registered condition; see [ActionFactory].
type ConditionFactory func(p *Ports) (func(*Context) bool, error)

// ChooserFactory makes the choose function of a registered [Choose] node: in files it is
// written as an element with the registered name and its branches as children.
type ChooserFactory func(p *Ports) (func(*Context) int, error)

// Registry is where trees authored as data meet Go code: user leaves registered by name,
// tree definitions loaded from files (or registered from Go) by ID, and the blackboard
// schema the trees' ports bind to.
//
// Loading ([Registry.LoadXML], [Registry.LoadJSON]) parses and checks definitions,
// reporting node types that are neither built in nor registered, so register leaves
// before loading the files that use them; [Registry.Tree] builds one (resolving SubTrees,
// binding ports, checking types) and compiles it. A Registry is not safe for concurrent
// use; the Trees it returns are.
//
// Blackboard scopes: keys of the tree built are the schema's names; a SubTree gets its own
// scope, whose private keys are named "ID#n.key" (n numbers SubTree instances in
// pre-order, from 1). A SubTree port maps a key of the subtree to a parent key
// (key="{parentKey}"), to a literal (key="3": ports reading it see the literal; writing it
// is an error) or to the parent key of the same name (key="{=}"); _autoremap="true"
// maps every key not listed to the parent key of the same name, except private keys
// (names starting with "_"), which stay the subtree's own. "{@key}" is the key of the
// tree built (the agent's root blackboard) from any subtree, through any remapping: in
// the scoped names above it is plain "key". The next tree built
// continues the count of instances, so the private keys of two trees sharing the schema
// (and perhaps an agent's store) never share a slot.
type Registry struct {
	schema *blackboard.Schema
	leaves map[string]leafFactory
	trees  map[string]*treeDef
	ids    []string
	models map[string]*nodeModel // TreeNodesModel entries by ID, the last loaded wins

	instances int // SubTree instances numbered so far, by every Tree call

	replacing bool // a ReloadDocument is under way: a loaded ID replaces a registered one

	enums map[string]int // scripting enums (load_script.go)

	// inputOnly holds the keys an input port of a tree built from this registry
	// declared (they were not in the schema before), which no output port,
	// SetBlackboard, queue port or script of any tree built since has bound: most
	// likely a misspelt key, which nothing will ever set (see Tree.UnwrittenKey).
	inputOnly map[string]bool
	written   map[string]struct{} // keys bound by a writer in any tree built so far
}

// readKey notes that an input port binds key, which it declared (had: the key
// was in the schema before) for the tree being built.
func (b *builder) readKey(key string, had bool) {
	if !had {
		if b.reg.inputOnly == nil {
			b.reg.inputOnly = map[string]bool{}
		}
		if _, seen := b.reg.written[key]; !seen {
			b.reg.inputOnly[key] = true
		}
	}
	if !slices.Contains(b.reads, key) {
		b.reads = append(b.reads, key)
	}
}

// wroteKey notes that a port, node or script that may write key binds it.
func (b *builder) wroteKey(key string) {
	delete(b.reg.inputOnly, key)
	if b.reg.written == nil {
		b.reg.written = map[string]struct{}{}
	}
	b.reg.written[key] = struct{}{}
}

type leafFactory struct {
	kind   kind
	action ActionFactory
	cond   ConditionFactory
	choose ChooserFactory
	loop   func(p *Ports, kids []*Node) *Node // a loop of RegisterLoop
}

// treeDef is one tree definition: parsed from a file, or built in Go.
type treeDef struct {
	id     string
	root   *defNode
	goRoot *Node
	pos    pos

	anonymous bool // <BehaviorTree> written without ID
}

// NewRegistry returns an empty registry binding ports to keys of schema (a new schema if
// nil).
func NewRegistry(schema *blackboard.Schema) *Registry {
	if schema == nil {
		schema = blackboard.NewSchema()
	}
	return &Registry{schema: schema, leaves: map[string]leafFactory{}, trees: map[string]*treeDef{}, models: map[string]*nodeModel{}}
}

// Schema returns the blackboard schema of the registry's trees; make agent stores from it
// after building the trees ([blackboard.Schema.NewStore]).
func (r *Registry) Schema() *blackboard.Schema { return r.schema }

// RegisterAction registers an action under name. It returns an error wrapping
// ErrRegistration if name is empty, taken, a built-in node type, or f is nil.
func (r *Registry) RegisterAction(name string, f ActionFactory) error {
	return r.register(name, leafFactory{kind: kindAction, action: f}, f == nil)
}

// RegisterCondition registers a condition under name; errors as [Registry.RegisterAction].
func (r *Registry) RegisterCondition(name string, f ConditionFactory) error {
	return r.register(name, leafFactory{kind: kindCondition, cond: f}, f == nil)
}

// RegisterChooser registers a [Choose] node under name; errors as
// [Registry.RegisterAction].
func (r *Registry) RegisterChooser(name string, f ChooserFactory) error {
	return r.register(name, leafFactory{kind: kindChoose, choose: f}, f == nil)
}

func (r *Registry) register(name string, lf leafFactory, isNil bool) error {
	switch {
	case name == "" || isNil:
		return fmt.Errorf("bt: register %q: %w: empty name or nil factory", name, ErrRegistration)
	case builtins[name].build != nil || name == "SubTree" || name == "Action" || name == "Condition":
		return fmt.Errorf("bt: register %q: %w: a built-in node type (a tree file's <%s> is the built-in one, "+
			"as in BehaviorTree.CPP; register your leaf under another name, e.g. %q)", name, ErrRegistration, name, name+"Leaf")
	}
	if _, ok := r.leaves[name]; ok {
		return fmt.Errorf("bt: register %q: %w: already registered", name, ErrRegistration)
	}
	r.leaves[name] = lf
	return nil
}

// RegisterLoop registers name as a [Loop] over elements of type T, for a queue element
// type of the user's (BehaviorTree.CPP's registerNodeType<LoopNode<T>>, as tutorial t18's
// LoopPose). In files it is written like LoopInt, with one child and the same ports:
// queue ("{key}", an entry of type []T, or a ';'-separated literal whose elements parse as
// T's port literals: its UnmarshalText, or its kind), value (an entry of type T) and
// if_empty. A TreeNodesModel entry of the name must be a <Decorator>; its ports are not
// compared. Errors as [Registry.RegisterAction].
func RegisterLoop[T any](r *Registry, name string) error {
	return r.register(name, leafFactory{kind: kindLoop, loop: loopBuiltin[T]().build}, false)
}

// RegisterTree registers a tree built in Go under id, so that loaded trees can use it as a
// SubTree (without ports: its leaves hold their own bindings). It returns an error
// wrapping ErrDuplicateID if id is taken.
func (r *Registry) RegisterTree(id string, root *Node) error {
	if id == "" || root == nil {
		return fmt.Errorf("bt: register tree %q: %w: empty ID or nil root", id, ErrRegistration)
	}
	if _, ok := r.trees[id]; ok {
		return fmt.Errorf("bt: register tree %q: %w", id, ErrDuplicateID)
	}
	r.trees[id] = &treeDef{id: id, goRoot: root, pos: pos{file: "(Go)"}}
	r.ids = append(r.ids, id)
	return nil
}

// TreeIDs returns the IDs of the registered and loaded trees, in order.
func (r *Registry) TreeIDs() []string { return append([]string(nil), r.ids...) }

// Tree builds the tree id and its subtrees into a Node, binds every port (declaring keys in
// the schema) and compiles it. An empty id is an error wrapping ErrNoMainTree (the main
// ID of a document that names none). Other errors are [LoadError]s (joined when there
// are several) naming file, line or JSON path, node and problem: unknown subtree (ErrUnknownTree),
// recursion (ErrRecursion), missing, unknown or ill-typed port (ErrPort), a script that
// does not compile (ErrScript, see "Scripts in files" in the package doc), bad counts
// and durations, or a factory's error. A tree that with its subtrees has more than
// [MaxNodes] nodes is refused before any of it is built, with an error wrapping
// ErrTooManyNodes: Tree counts each tree's size once from the definitions, so the count
// is linear in the file however its SubTrees multiply (a 2 KB file of 42 trees each using
// the one below twice names 2^42 nodes). A tree that fails to build declares no key: the
// schema is left as it was (see [blackboard.Schema.Truncate]), so a corrected definition
// may give its keys other types.
func (r *Registry) Tree(id string) (*Tree, error) {
	if id == "" {
		return nil, fmt.Errorf("bt: %w: no tree ID given (a document with several trees and no main_tree_to_execute has no main tree: build one by ID, see Document.Trees and Registry.TreeIDs)", ErrNoMainTree)
	}
	if def := r.trees[id]; def != nil && r.sizer()(id) > MaxNodes {
		// Refused before building any node: each SubTree is a copy of its tree, so a few
		// KB of file whose trees use the one below twice name millions of nodes, and a
		// build stopped at MaxNodes had still made and bound its first 65,535.
		return nil, def.pos.err("BehaviorTree "+quote(id), fmt.Errorf(
			"%w: the tree with its subtrees has more than %d nodes (MaxNodes), counted from the definitions before building any: each SubTree is a copy of its tree",
			ErrTooManyNodes, MaxNodes))
	}
	b := &builder{reg: r, instances: r.instances}
	// A tree that fails to build leaves the schema and the notes of keys read and
	// written as they were: its declarations would make a corrected tree's keys of
	// another type an error, and its writers hide a key nothing else writes.
	keys, inputOnly, written := r.schema.Len(), maps.Clone(r.inputOnly), maps.Clone(r.written)
	undo := func() {
		r.schema.Truncate(keys)
		r.inputOnly, r.written = inputOnly, written
	}
	root := b.tree(id, &scope{}, pos{}, "")
	b.compileScripts() // and the blackboard nodes' bindings
	for _, f := range b.last {
		f()
	}
	for _, nc := range b.conds {
		nc.n.conds = nc.c
	}
	if err := b.err(); err != nil {
		undo()
		return nil, err
	}
	t, err := Compile(id, root)
	if err != nil {
		undo()
		return nil, r.trees[id].pos.err("BehaviorTree "+quote(id), err)
	}
	t.schema = r.schema
	t.reg, t.reads = r, b.reads
	r.instances = b.instances // a refused build numbers no SubTree instance
	return t, nil
}

// LoadFile reads a tree file (BehaviorTree.CPP XML if the name ends in ".xml", else our
// JSON) with the files it includes ([Registry.LoadDocument]), and builds its main tree.
// A document with several trees and no main_tree_to_execute is an error wrapping
// ErrNoMainTree listing them; its trees stay loaded: build one with [Registry.Tree].
// A main tree that does not build (the errors of Tree) unloads the document again: the
// registry's trees and node models are as they were, so the corrected file loads (its
// tree IDs are not taken), and the schema's keys are too; as after any refused Tree, the
// schema keeps the slots of the keys the build declared, unnamed ([blackboard.Schema.Truncate]).
func (r *Registry) LoadFile(path string) (*Tree, error) {
	trees, ids, models := maps.Clone(r.trees), slices.Clone(r.ids), maps.Clone(r.models)
	doc, err := r.LoadDocument(path)
	if err != nil {
		return nil, err
	}
	main, err := doc.MainTree()
	if err != nil {
		return nil, err
	}
	t, err := r.Tree(main)
	if err != nil {
		r.trees, r.ids, r.models = trees, ids, models
		return nil, err
	}
	return t, nil
}

// LoadError is a problem in a tree file: where (file and line, or JSON path), which node,
// and what. Err wraps one of the Err… values of this package where one applies.
type LoadError struct {
	File string
	Line int    // 1-based line (XML, and JSON syntax errors), 0 if unknown
	Path string // JSON path such as $.trees[0].root.children[2], "" for XML
	Node string // the node's type and name, such as `Sequence "attack"`
	Err  error
}

func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString("bt: ")
	b.WriteString(pos{file: e.File, line: e.Line, path: e.Path}.String())
	if e.Node != "" {
		b.WriteString(": " + clipMiddle(e.Node, maxMessage))
	}
	b.WriteString(": " + clipMiddle(e.Err.Error(), maxMessage))
	return b.String()
}

func (e *LoadError) Unwrap() error { return e.Err }

// pos is where a node was written: file and line (XML) or JSON path.
type pos struct {
	file string
	line int
	path string
}

func (p pos) String() string {
	s := p.file
	if s == "" {
		s = "(input)"
	}
	if p.line > 0 {
		s += ":" + strconv.Itoa(p.line)
	}
	if p.path != "" {
		s += ": " + p.path
	}
	return s
}

func (p pos) err(node string, err error) *LoadError {
	return &LoadError{File: p.file, Line: p.line, Path: p.path, Node: node, Err: err}
}
