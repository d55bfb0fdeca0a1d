package bt

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// timers are the built-in node types with a duration port.
var timers = map[string]bool{"Wait": true, "Sleep": true, "Timeout": true, "Delay": true, "Cooldown": true}

// durationPorts are the duration ports of the timers: name → in seconds (true) or
// milliseconds (false).
var durationPorts = map[string]bool{"seconds": true, "msec": false, "delay_msec": false}

// checkNodes reports, at load time, every node of defs whose type is unknown: not a
// built-in, not SubTree and not a leaf registered in r (for <Action ID=…/> and
// <Condition ID=…/>, the ID). A type that is a tree ID (of defs, or already in r) gets a
// hint to write <SubTree ID=…/>. It also reports built-in timers whose literal duration
// is not a finite number >= 0. ids holds the IDs of defs. At most limit errors, and
// then one more if nodes of unknown type were left out: their count and types
// (unknownTally).
func (r *Registry) checkNodes(defs []*treeDef, ids map[string]bool, limit int) []error {
	var errs []error
	var rest unknownTally
	var walk func(d *defNode, depth int)
	walk = func(d *defNode, depth int) {
		if d == nil || depth > maxDepth {
			return
		}
		switch {
		case !r.knownNode(d) && len(errs) >= limit:
			rest.add(nodeType(d), d.pos)
		case !r.knownNode(d):
			errs = append(errs, r.unknownNodeError(d, ids))
		case len(errs) < limit && timers[nodeType(d)] && !r.isLeaf(nodeType(d)):
			if err := checkDurations(d); err != nil {
				errs = append(errs, d.pos.err(d.label(), err))
			}
		}
		for _, k := range d.kids {
			walk(k, depth+1)
		}
	}
	for _, def := range defs {
		walk(def.root, 0)
	}
	if err := rest.err(r, ids); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// unknownTally counts the nodes of unknown type a load leaves out of its list of
// errors (past the 20th error), so that its last error still says how many there are,
// of which types, and which of those are tree IDs (the SubTree hint): 20 misspelt
// nodes must not hide a <B/> meant as <SubTree ID="B"/>, nor may four other misspelt
// types met before it.
type unknownTally struct {
	n      int            // nodes left out
	at     pos            // the first one's position
	names  []string       // their types, in the order met
	counts []int          // the nodes of each type of names
	index  map[string]int // names' indexes
	cut    bool           // the XML loader stopped skimming after MaxNodes elements
}

// tallyNames is the most tree IDs, and the most other types, an unknownTally names
// (the error text stays short).
const tallyNames = 4

// add counts a node of unknown type typ at position at.
func (t *unknownTally) add(typ string, at pos) {
	if t.n == 0 {
		t.at = at
		t.index = map[string]int{}
	}
	t.n++
	if i, ok := t.index[typ]; ok {
		t.counts[i]++
		return
	}
	t.index[typ] = len(t.names)
	t.names, t.counts = append(t.names, typ), append(t.counts, 1)
}

// err is the error of the nodes t counted, wrapping ErrUnknownNode, at the first
// one's position: `unknown node type: 5 more not listed: "B" (1, a tree ID: use
// <SubTree ID="B"/>), "Y" (4)`; nil if t counted none. It names the first tallyNames
// types that are tree IDs, with their hint, then the first tallyNames other types,
// and counts the nodes of the rest ("3 of other types (1 of them tree IDs: …)"). ids
// are the load's tree IDs (besides r's).
func (t *unknownTally) err(r *Registry, ids map[string]bool) error {
	if t.n == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d more not listed", t.n)
	others, otherTrees, trees, named := 0, 0, 0, 0
	for _, tree := range []bool{true, false} {
		for i, name := range t.names {
			if r.isTreeID(name, ids) != tree {
				continue
			}
			if (tree && trees == tallyNames) || (!tree && named == tallyNames) {
				if others += t.counts[i]; tree {
					otherTrees += t.counts[i]
				}
				continue
			}
			if tree {
				trees++
			} else {
				named++
			}
			sep := ", "
			if trees+named == 1 {
				sep = ": "
			}
			fmt.Fprintf(&b, "%s%s (%d", sep, quote(name), t.counts[i])
			if tree {
				b.WriteString(", a tree ID: use <SubTree ID=" + quote(name) + "/>")
			}
			b.WriteString(")")
		}
	}
	if others > 0 {
		fmt.Fprintf(&b, ", %d of other types", others)
		if otherTrees > 0 {
			fmt.Fprintf(&b, " (%d of them tree IDs: use <SubTree ID=…/>)", otherTrees)
		}
	}
	if t.cut {
		fmt.Fprintf(&b, "; the loader stopped reading %d elements (MaxNodes) further on: the rest of the file was not checked", MaxNodes)
	}
	return t.at.err("", fmt.Errorf("%w: %s", ErrUnknownNode, b.String()))
}

// nodeType is the type d is built as: its element, or for <Action ID=…/> and
// <Condition ID=…/> the ID.
func nodeType(d *defNode) string {
	if d.typ == "Action" || d.typ == "Condition" {
		if id, ok := d.get("ID"); ok {
			return id
		}
	}
	return d.typ
}

// knownNode reports whether d is SubTree, a built-in or a leaf registered in r.
func (r *Registry) knownNode(d *defNode) bool {
	if d.typ == "SubTree" {
		return true
	}
	typ := nodeType(d)
	_, isBuiltin := builtins[typ]
	return isBuiltin || r.isLeaf(typ)
}

func (r *Registry) isLeaf(typ string) bool {
	_, ok := r.leaves[typ]
	return ok
}

// unknownNodeError is the error of a node d of unknown type; a type that is a tree ID
// (of ids, or already in r) gets a hint to write <SubTree ID=…/>.
func (r *Registry) unknownNodeError(d *defNode, ids map[string]bool) error {
	typ := nodeType(d)
	hint := "not built in, not registered"
	if _, hasID := d.get("ID"); !hasID && (typ == "Action" || typ == "Condition") {
		hint = "<" + typ + "> needs ID=\"…\", the name a leaf is registered under"
	} else if r.isTreeID(typ, ids) {
		hint = "a tree ID: use <SubTree ID=" + quote(typ) + "/>"
	}
	return d.pos.err(d.label(), fmt.Errorf("%w %s (%s)", ErrUnknownNode, quote(typ), hint))
}

// isTreeID reports whether typ is the ID of a tree of r or of ids.
func (r *Registry) isTreeID(typ string, ids map[string]bool) bool {
	_, tree := r.trees[typ]
	return tree || ids[typ]
}

// checkDurations checks the literal duration ports of a built-in timer. A value that is
// not a number is left to [Registry.Tree], which names the type it wants.
func checkDurations(d *defNode) error {
	for _, a := range d.attrs {
		secs, ok := durationPorts[a.name]
		if !ok {
			continue
		}
		if _, isRef := refName(a.value); isRef {
			continue // a key: reported when the tree is built (durations must be literals)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(a.value), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			continue
		}
		if !secs {
			v /= 1000
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("%w: duration %v: %w", ErrPort, v, ErrInvalidDuration)
		}
	}
	return nil
}
