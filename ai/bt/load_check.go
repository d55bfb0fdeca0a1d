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
// is not a finite number >= 0. ids holds the IDs of defs. At most limit errors.
func (r *Registry) checkNodes(defs []*treeDef, ids map[string]bool, limit int) []error {
	var errs []error
	var walk func(d *defNode, depth int)
	walk = func(d *defNode, depth int) {
		if d == nil || len(errs) >= limit || depth > maxDepth {
			return
		}
		switch {
		case !r.knownNode(d):
			errs = append(errs, r.unknownNodeError(d, ids))
		case timers[nodeType(d)] && !r.isLeaf(nodeType(d)):
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
	return errs
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
	if _, tree := r.trees[typ]; tree || ids[typ] {
		hint = "a tree ID: use <SubTree ID=" + quote(typ) + "/>"
	}
	return d.pos.err(d.label(), fmt.Errorf("%w %s (%s)", ErrUnknownNode, quote(typ), hint))
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
