package bt

import (
	"encoding"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// InputPortDefault is [InputPort] with a default written as in a file, used when the node
// does not write the port: a literal parsed as T, "{key}" (a blackboard entry of the
// node's scope), "{@key}" (the agent's root blackboard) or "{=}" (the entry named like the
// port), as BehaviorTree.CPP's InputPort<T>(name, "{key}", description). A default that
// does not parse as T, or a key declared with another type, is a load error naming the
// node.
func InputPortDefault[T any](p *Ports, name, def string) In[T] {
	if p.probe != nil {
		probeTextDefault[T](p, name, dirIn, def)
		return In[T]{}
	}
	v, ok := p.attr(name)
	if !ok {
		v = def
	}
	return bindIn[T](p, name, v)
}

// OutputPortDefault is [OutputPort] with a default key, used when the node does not write
// the port: "{key}", "{@key}", a bare key name, or "{=}" (the key named like the port).
func OutputPortDefault[T any](p *Ports, name, def string) Out[T] {
	if p.probe != nil {
		probeTextDefault[T](p, name, dirOut, def)
		return Out[T]{}
	}
	v, ok := p.attr(name)
	if !ok {
		v = def
	}
	return bindOut[T](p, name, v)
}

// listValue parses a ';'-separated list ("1;2;3") as the slice type typ, each element as
// [literalValue] parses it (strings are kept as written, spaces included). The empty
// string is the empty list.
func listValue(typ reflect.Type, s string) (reflect.Value, error) {
	if s == "" {
		return reflect.MakeSlice(typ, 0, 0), nil
	}
	parts := strings.Split(s, ";")
	out := reflect.MakeSlice(typ, len(parts), len(parts))
	for i, part := range parts {
		v, err := literalValue(typ.Elem(), part)
		if err != nil {
			if k := typ.Elem().Kind(); k >= reflect.Bool && k <= reflect.Float64 && !v.Addr().Type().Implements(textUnmarshaler) && !errors.Is(err, errNaN) {
				err = fmt.Errorf("%s cannot be read as %v", quote(part), typ.Elem()) // not the int64 it was parsed as
			}
			return out, fmt.Errorf("element %d of %s: %w", i+1, quote(s), err)
		}
		out.Index(i).Set(v)
	}
	return out, nil
}

// subTreeModel applies the TreeNodesModel of the subtree id, if any, to a <SubTree>
// without _autoremap: a model port the SubTree does not remap takes the model's default;
// one without a default is an error.
func (b *builder) subTreeModel(p *Ports, id string, inner *scope) {
	m, ok := b.reg.models[id]
	if !ok || m.tag != "SubTree" || inner.auto {
		return
	}
	for _, mp := range m.ports {
		if _, written := inner.remap[mp.name]; written {
			continue
		}
		if !mp.hasDef {
			p.fail(fmt.Errorf("%w: missing port %s: the SubTree model of %s (%s) gives it no default", ErrPort, quote(mp.name), quote(id), mp.pos))
			continue
		}
		inner.remap[mp.name] = mp.def
	}
}

// checkSubTreeNames reports two <SubTree> nodes with one name attribute in one tree
// definition: BehaviorTree.CPP (and Groot2, and our tracers' readers) tell subtree
// instances apart by that name. At most limit errors.
func checkSubTreeNames(defs []*treeDef, limit int) []error {
	var errs []error
	for _, def := range defs {
		seen := map[string]*defNode{}
		var walk func(d *defNode, depth int)
		walk = func(d *defNode, depth int) {
			if d == nil || depth > maxDepth || len(errs) >= limit {
				return
			}
			if d.typ == "SubTree" {
				if name, ok := d.get("name"); ok {
					if first, dup := seen[name]; dup {
						errs = append(errs, d.pos.err(d.label(), fmt.Errorf("%w: two SubTrees named %s in tree %s (the other at %s)", ErrDuplicateID, quote(name), quote(def.id), first.pos)))
					} else {
						seen[name] = d
					}
				}
			}
			for _, k := range d.kids {
				walk(k, depth+1)
			}
		}
		walk(def.root, 0)
	}
	return errs
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
