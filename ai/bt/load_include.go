package bt

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Document is what one load added to a [Registry]: a tree file with the files it
// includes.
type Document struct {
	// Main is the ID of the main tree: main_tree_to_execute of the loaded document (not of
	// the files it includes), else its only tree, else the only tree of the load, else ""
	// (several trees and none named, as Groot2 saves a project). BehaviorTree.CPP takes
	// the only tree of the load and asks for main_tree_to_execute otherwise; we also take
	// the document's only tree when it includes others, the common shape of a main file
	// using a library of subtrees (pinned by TestInclude).
	Main string
	// Trees are the IDs of the trees added, in order: included files' trees (in the
	// order of the <include> elements, depth first) before the document's own.
	Trees []string
	// Files are the files read: the document first, then each included file once.
	Files []string
}

func newDocument(main string, defs []*treeDef, files []string) Document {
	d := Document{Main: main, Files: files}
	for _, t := range defs {
		d.Trees = append(d.Trees, t.id)
	}
	return d
}

// MainTree returns d.Main, or, when the document names no main tree and has several, an
// error wrapping ErrNoMainTree that lists the trees to pick from.
func (d Document) MainTree() (string, error) {
	if d.Main != "" {
		return d.Main, nil
	}
	file := ""
	if len(d.Files) > 0 {
		file = d.Files[0]
	}
	ids := make([]string, 0, min(len(d.Trees), 8))
	for _, id := range d.Trees[:min(len(d.Trees), 8)] {
		ids = append(ids, quote(id))
	}
	if len(d.Trees) > 8 {
		ids = append(ids, fmt.Sprintf("… (%d trees)", len(d.Trees)))
	}
	return "", pos{file: file}.err("root", fmt.Errorf("%w: no main_tree_to_execute and %d trees (%s): build one by ID with Registry.Tree",
		ErrNoMainTree, len(d.Trees), strings.Join(ids, ", ")))
}

// LoadDocument reads the tree file path (BehaviorTree.CPP XML if the name ends in ".xml",
// else our JSON) and the files it includes, and registers their trees and models without
// building any: build them with [Registry.Tree], by the IDs in [Document.Trees]. An
// <include path="…"/> is relative to the directory of the file that writes it (an
// absolute path is used as is); see [Registry.LoadXMLFrom] for the rules. Errors are
// those of [Registry.LoadXML] and [Registry.LoadJSON], and an error wrapping the
// os.ReadFile error (such as fs.ErrNotExist) for path itself. Like an include, path is
// read to at most [MaxIncludeSize] bytes: a larger file, or a device that never ends
// (/dev/zero), is an error, not memory filled. LoadDocument builds nothing, so its
// cost is linear in the files however their SubTrees multiply (a 2 KB file of trees
// each using the one below twice names 2^42 nodes and loads in under a millisecond);
// [Registry.Tree] refuses such a tree before building any of it.
func (r *Registry) LoadDocument(path string) (Document, error) {
	data, err := readBounded(path)
	if err != nil {
		return Document{}, fmt.Errorf("bt: %w", err)
	}
	if !strings.EqualFold(filepath.Ext(path), ".xml") {
		return r.loadJSON(path, data)
	}
	l := &docLoader{r: r, seen: map[string]bool{}}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = filepath.Clean(path)
	}
	return l.top(path, abs, filepath.Dir(path), data)
}

// ReloadDocument is [Registry.LoadDocument] for a file loaded before and edited since (a
// designer's hot reload, as BehaviorTree.CPP programs do by clearing their factory's
// trees and registering the files again): a tree of the file, or of a file it includes,
// whose ID is already registered replaces that definition (a tree registered from Go
// too) instead of being an error; new IDs are added, and [Registry.TreeIDs] keeps each ID
// once, where it was first registered. A tree the edited file no longer holds (deleted, or
// renamed: the old ID) stays registered with its last definition, as does a former main
// tree; Document.Trees lists the IDs the reload loaded. The load is all or nothing, as LoadDocument's: a
// file that does not load (a syntax error, an unknown node type, two trees of one ID in
// the file) returns its error and leaves every definition as it was, so a game can show
// the error and go on with the trees it has.
//
// Trees already built are not changed: build the new one with [Registry.Tree] (a tree
// using a replaced tree as a SubTree must be built again to use the new definition) and
// give it to the agents (components.Brain's Tree, with ID its name, which is the same):
// systems.Decision halts each agent's old tree at its next think and starts the new one
// from its root, its blackboard kept. The new build's keys join the registry's schema as
// any build's do (a key whose type the edit changed is a port error, naming it).
//
// Unlike LoadDocument, which builds nothing, ReloadDocument builds the edit's root trees
// (each tree of the load that no other tree of the load uses as a SubTree), and any tree
// of the load no root reaches (trees that use each other as subtrees), before it
// returns, so that an edit that loads but does not build (a misspelt port, a port value
// of the wrong type, an unknown subtree, trees that use each other: the errors of
// [Registry.Tree]) is refused whole as well, the old definitions kept. Those builds' keys join the schema, as a
// build's do. A refused edit leaves the registry exactly as it was: its trees and
// models, the schema (its [blackboard.Schema.Len] too: the builds run on a
// [blackboard.Schema.Clone], whose new keys are declared in the schema only when every
// root built) and the count of SubTree instances, so the trees built after it name their
// private keys as if it had not been tried.
//
// Important: a reload costs what building each root with [Registry.Tree] costs, and each
// SubTree is a copy of its tree, so a few KB of file can name millions of nodes. Before
// building anything, ReloadDocument counts each root's size from the definitions (each
// tree counted once, so the count is linear in the file) and refuses an edit whose roots
// would together build more than [MaxReloadNodes] nodes, with an error wrapping
// ErrTooManyNodes naming the largest roots and their sizes: a 7 KB file of 100 roots,
// each using a tree that doubles through 14 levels of subtrees to 65,534 nodes, which
// took 75 s to reload on a busy 2-core machine, is now refused at once. Within the bound
// a build costs under 1 µs per node on that machine (a reload of MaxReloadNodes nodes:
// seconds).
func (r *Registry) ReloadDocument(path string) (Document, error) {
	trees, ids, models := maps.Clone(r.trees), slices.Clone(r.ids), maps.Clone(r.models)
	r.replacing = true
	doc, err := r.LoadDocument(path)
	r.replacing = false
	if err != nil {
		return doc, err
	}
	// A definition that loads may still not build (a misspelt port, an unknown subtree,
	// a port value of the wrong type: errors of Tree): build the edit's root trees now,
	// so that such an edit is refused whole too, rather than replacing good definitions
	// with one no later Tree can build. A refused edit's builds leave the schema and the
	// notes of keys read and written as they were, as a refused Tree does: a root built
	// before the one that failed must not keep its keys (a corrected edit giving one of
	// them another type would be refused) nor its writers (they would hide a key nothing
	// the registry builds writes).
	roots := r.roots(doc.Trees)
	if err := r.checkReloadSize(path, roots); err != nil {
		r.trees, r.ids, r.models = trees, ids, models
		return Document{}, err
	}
	//
	// The builds run on a copy of the schema, whose new keys are declared in the
	// registry's schema once every root has built: a refused edit leaves the schema as it
	// was, its Len too (a build's Truncate would leave its keys' slots, so each refused
	// edit of a designer's session would add slots to every store), and the SubTree
	// instance count, so that the trees built after it name their private keys as they
	// would have without it.
	schema, instances := r.schema, r.instances
	inputOnly, written := maps.Clone(r.inputOnly), maps.Clone(r.written)
	refuse := func() {
		r.trees, r.ids, r.models = trees, ids, models
		r.instances = instances
		r.inputOnly, r.written = inputOnly, written
	}
	start, trial := schema.Len(), schema.Clone()
	r.schema = trial
	defer func() { r.schema = schema }() // a factory's panic too
	for _, id := range roots {
		if _, err := r.Tree(id); err != nil {
			refuse()
			return Document{}, err
		}
	}
	keys := schema.Len()
	for i := start; i < trial.Len(); i++ {
		if name := trial.Name(i); name != "" {
			// Fails only if a factory declared name in the registry's schema itself
			// (not through Ports.Schema) during the builds, with another type.
			if err := schema.DeclareType(name, trial.Type(name)); err != nil {
				schema.Truncate(keys)
				refuse()
				return Document{}, fmt.Errorf("bt: %s: %w", path, err)
			}
		}
	}
	return doc, nil
}

// roots returns the trees of ids a reload builds: those that no tree of ids uses as a
// SubTree, in order (a load's subtrees are built through them), then, in order, those
// of ids that no root reaches through its subtrees: trees that use each other (A uses
// B, B uses A, or A itself), and trees used only below them, which have no root among
// them, so that the build of one (which fails with ErrRecursion) refuses the edit.
func (r *Registry) roots(ids []string) []string {
	used := map[string]bool{}
	subtrees := func(d *defNode, f func(id string)) {
		var walk func(d *defNode)
		walk = func(d *defNode) {
			if d == nil {
				return
			}
			if d.typ == "SubTree" {
				if id, ok := d.get("ID"); ok {
					f(id)
				}
			}
			for _, k := range d.kids {
				walk(k)
			}
		}
		walk(d)
	}
	for _, id := range ids {
		if t := r.trees[id]; t != nil {
			subtrees(t.root, func(id string) { used[id] = true })
		}
	}
	var roots []string
	for _, id := range ids {
		if !used[id] {
			roots = append(roots, id)
		}
	}
	if len(roots) == len(ids) {
		return roots
	}
	reached := map[string]bool{}
	stack := slices.Clone(roots)
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if reached[id] {
			continue
		}
		reached[id] = true
		if t := r.trees[id]; t != nil {
			subtrees(t.root, func(id string) {
				if !reached[id] {
					stack = append(stack, id)
				}
			})
		}
	}
	for _, id := range ids {
		if !reached[id] {
			roots = append(roots, id)
		}
	}
	return roots
}

// LoadXMLFrom is [Registry.LoadXML] with includes: an <include path="…"/> in data is
// read relative to dir (an absolute path as is), and includes in an included file
// relative to that file's directory. With dir "", an include is an error (wrapping
// ErrInclude): bytes have no directory of their own. It returns what was added.
//
// Included files are BehaviorTree.CPP XML; their trees and models are registered with
// the document's, all or nothing. Their main_tree_to_execute is ignored. A file included
// twice (by two files) is read once; a file that includes itself, directly or through
// others, is an error wrapping ErrInclude naming the chain ("a.xml -> b.xml -> a.xml"),
// as is a file that cannot be read (naming the <include> line and wrapping the
// os error), that is not a regular file (a named pipe, a device such as /dev/zero)
// or that holds more than MaxIncludeSize bytes. For cycles, data counts as the file
// named file in dir (file itself if absolute). ros_pkg is not supported.
func (r *Registry) LoadXMLFrom(dir, file string, data []byte) (Document, error) {
	l := &docLoader{r: r, seen: map[string]bool{}, noDir: dir == ""}
	abs := ""
	if dir != "" {
		p := file
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, filepath.Base(file))
		}
		if a, err := filepath.Abs(p); err == nil {
			abs = a
		}
	}
	return l.top(file, abs, dir, data)
}

// docLoader reads a document and its includes.
type docLoader struct {
	r      *Registry
	noDir  bool
	seen   map[string]bool // absolute paths read in this load
	chain  []string        // files being read, outermost first, as written
	abs    []string        // their absolute paths
	defs   []*treeDef
	models []*nodeModel
	files  []string
}

func (l *docLoader) top(file, abs, dir string, data []byte) (Document, error) {
	doc, err := l.read(file, abs, dir, data)
	if err != nil {
		return Document{}, err
	}
	main := doc.main
	if main == "" && len(doc.defs) == 1 {
		main = doc.defs[0].id
	}
	main, err = l.r.add(l.defs, l.models, main, pos{file: file})
	if err != nil {
		return Document{}, err
	}
	return newDocument(main, l.defs, l.files), nil
}

// read parses one XML file and, depth first, the files it includes.
func (l *docLoader) read(file, abs, dir string, data []byte) (*parsedDoc, error) {
	if abs != "" {
		l.seen[abs] = true
	}
	l.files = append(l.files, file)
	x := xmlLoader{file: file, dec: xml.NewDecoder(bytes.NewReader(trimBOM(data))), reg: l.r, prior: l.defs}
	doc, err := x.document()
	if err != nil {
		return nil, err
	}
	l.chain = append(l.chain, file)
	l.abs = append(l.abs, abs)
	for _, inc := range doc.includes {
		if err := l.include(inc, dir); err != nil {
			return nil, err
		}
	}
	l.chain, l.abs = l.chain[:len(l.chain)-1], l.abs[:len(l.abs)-1]
	l.defs = append(l.defs, doc.defs...)
	l.models = append(l.models, doc.models...)
	return doc, nil
}

func (l *docLoader) include(inc include, dir string) error {
	label := "include " + quote(inc.path)
	if l.noDir {
		return inc.pos.err(label, fmt.Errorf("%w: a document loaded from bytes has no directory: give one to Registry.LoadXMLFrom, or load the file with Registry.LoadDocument", ErrInclude))
	}
	p := inc.path
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = filepath.Clean(p)
	}
	if i := slices.Index(l.abs, abs); i >= 0 {
		chain := append(slices.Clone(l.chain[i:]), l.chain[i])
		for k := range chain {
			chain[k] = shorten(chain[k])
		}
		return inc.pos.err(label, fmt.Errorf("%w: include cycle %s", ErrInclude, strings.Join(chain, " -> ")))
	}
	if l.seen[abs] {
		return nil // included before by another file: its trees are loaded already
	}
	if len(l.chain) >= maxDepth {
		return inc.pos.err(label, fmt.Errorf("%w: includes nested deeper than %d", ErrInclude, maxDepth))
	}
	data, err := readInclude(p)
	if err != nil {
		return inc.pos.err(label, fmt.Errorf("%w: %w", ErrInclude, err))
	}
	_, err = l.read(p, abs, filepath.Dir(p), data)
	return err
}

// MaxIncludeSize is the largest file an <include path="…"/> may name, and the largest
// tree file [Registry.LoadDocument] reads, in bytes.
const MaxIncludeSize = 64 << 20

// readBounded reads the file at path, at most MaxIncludeSize bytes (a pipe is read too;
// its writer decides when it ends).
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxIncludeSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxIncludeSize {
		return nil, fmt.Errorf("%s holds more than MaxIncludeSize (%d) bytes", path, MaxIncludeSize)
	}
	return data, nil
}

// readInclude reads the included file p: a regular file of at most MaxIncludeSize
// bytes. The path is written in a tree file, so it is user data: a named pipe, a
// device (/dev/zero, /dev/stdin) or a huge file would block or fill memory.
func readInclude(p string) ([]byte, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%v)", p, st.Mode().Type())
	}
	if st.Size() > MaxIncludeSize {
		return nil, fmt.Errorf("%s holds %d bytes, more than MaxIncludeSize (%d)", p, st.Size(), MaxIncludeSize)
	}
	return readBounded(p) // bounded still: the file may grow between Stat and the read
}

// MaxReloadNodes bounds the nodes [Registry.ReloadDocument] builds for one edit: the
// sum over the roots it builds of each root's size with its subtrees (a tree larger than
// [MaxNodes] counted as MaxNodes+1, the point where its build stops). Each SubTree is a
// copy of its tree, so a few KB of file can name far more nodes than it holds; 4 Mi nodes
// is 64 roots of the largest tree that builds, which builds in seconds, more than any
// hand-made document needs and far less than the hundreds of millions such a file can
// reach. A larger edit is refused before any build, with an error wrapping
// ErrTooManyNodes naming the largest roots and their sizes.
const MaxReloadNodes = 4 << 20

// checkReloadSize counts the nodes each of roots builds, from the definitions, each
// tree's size counted once (memoized), so the count is linear in the file.
func (r *Registry) checkReloadSize(path string, roots []string) error {
	treeSize := r.sizer()
	total := 0
	type root struct {
		id   string
		size int
	}
	var each []root
	for _, id := range roots {
		s := treeSize(id)
		total += s
		each = append(each, root{id, s})
	}
	if total <= MaxReloadNodes {
		return nil
	}
	slices.SortStableFunc(each, func(a, b root) int { return b.size - a.size })
	var list []string
	for i, e := range each {
		if i == 5 {
			list = append(list, fmt.Sprintf("and %d more", len(each)-i))
			break
		}
		list = append(list, fmt.Sprintf("%s %d", quote(e.id), e.size))
	}
	return fmt.Errorf("bt: %s: %w: its %d root trees would build %d nodes with their subtrees, more than %d (MaxReloadNodes): %s",
		path, ErrTooManyNodes, len(each), total, MaxReloadNodes, strings.Join(list, ", "))
}

// sizer returns a function giving the nodes the build of a tree makes with its subtrees,
// counted from the definitions (a tree registered from Go by its nodes), capped at
// MaxNodes+1, the point where a build stops. Each tree's size is counted once
// (memoized), so counting any number of trees is linear in their definitions, however
// their subtrees multiply: the count that lets [Registry.Tree] and
// [Registry.ReloadDocument] refuse a tree too large before building any of it. A tree
// using itself counts 0 where it recurs, an unknown tree 0: their builds fail with
// ErrRecursion and ErrUnknownTree.
func (r *Registry) sizer() func(id string) int {
	const busy = -1
	sizes := map[string]int{}
	var treeSize func(id string) int
	var nodeSize func(d *defNode) int
	nodeSize = func(d *defNode) int {
		if d == nil {
			return 0
		}
		n := 1
		if d.typ == "SubTree" {
			if id, ok := d.get("ID"); ok {
				n += treeSize(id)
			}
		}
		for _, k := range d.kids {
			n = min(n+nodeSize(k), MaxNodes+1)
		}
		return min(n, MaxNodes+1)
	}
	treeSize = func(id string) int {
		if s, ok := sizes[id]; ok {
			return max(s, 0) // a tree that uses itself: its build fails with ErrRecursion
		}
		t := r.trees[id]
		if t == nil {
			return 0 // unknown: its build fails with ErrUnknownTree
		}
		sizes[id] = busy
		s := 0
		if t.root != nil {
			s = nodeSize(t.root)
		} else if t.goRoot != nil {
			s = countNodes(t.goRoot, MaxNodes+1)
		}
		sizes[id] = s
		return s
	}
	return treeSize
}
