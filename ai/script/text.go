package script

import (
	"encoding"
	"reflect"

	"github.com/archai-go/archai/ai/blackboard"
)

// Assigning a string to an entry of a user type: an entry whose type is not a boolean,
// number or string, but whose pointer implements encoding.TextUnmarshaler (a Position2D
// written "x;y" in files), takes a string with = or := (of an entry that exists), which
// the type's UnmarshalText converts (BehaviorTree.CPP's convertFromString):
//   - a string literal (goal = '-1;3') is converted once, when the script compiles; a
//     literal the type refuses is a compile error wrapping ErrConversion. Running the
//     assignment stores the converted value and allocates nothing.
//   - any other string expression (goal = prefix .. ';3') is converted each time the
//     assignment runs; that allocates (the bytes handed to UnmarshalText and the new
//     value), and a string the type refuses is a run-time error wrapping ErrConversion;
//     a string longer than MaxString is not handed over: an error wrapping ErrLimit.
//
// The value of such an assignment is the string. Reading such an entry in a script, or
// +=, -=, *=, /= on it, remains an error wrapping ErrType.

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// textEntry returns the type of the entry called key if a string assigned to it is
// converted by the type's UnmarshalText, else nil.
func (c *compiler) textEntry(key string) reflect.Type {
	if c.env.Schema == nil {
		return nil
	}
	typ := c.env.Schema.Type(key)
	if typ == nil || !reflect.PointerTo(typ).Implements(textUnmarshaler) {
		return nil
	}
	if _, _, err := c.env.Schema.Scalar(key); err == nil {
		return nil // a boolean, number or string type: the usual conversions
	}
	return typ
}

// unmarshalText converts s with typ's UnmarshalText.
func unmarshalText(typ reflect.Type, s string) (any, error) {
	v := reflect.New(typ)
	if err := v.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
		return nil, err
	}
	return v.Elem().Interface(), nil
}

// assignText compiles the assignment of rhs to the entry called key of type typ (see
// textEntry).
func (c *compiler) assignText(e *ast, key string, typ reflect.Type, rhs *ast) (int32, Kind, error) {
	schema := c.env.Schema
	c.p.useSt = true
	if rhs.op == tString {
		v, err := unmarshalText(typ, rhs.tok.text)
		if err != nil {
			return 0, Invalid, c.errf(rhs.pos, ErrConversion, "%q does not convert to entry %q (%v): %v", rhs.tok.text, key, typ, err)
		}
		set, err := schema.Setter(key, v)
		if err != nil {
			return 0, Invalid, c.errf(e.a.pos, ErrType, "entry %q: %v", key, err)
		}
		c.p.setters = append(c.p.setters, set)
		return c.emit(node{op: opSetText, kind: String, s: rhs.tok.text, n: int64(len(c.p.setters) - 1)}), String, nil
	}
	v, k, err := c.expr(rhs)
	if err != nil {
		return 0, Invalid, err
	}
	if k != String {
		return 0, Invalid, c.errf(e.pos, ErrType, "cannot assign %s to entry %q of type %v (only a string, which %v's UnmarshalText converts)", article(k), key, typ, typ)
	}
	c.p.parsers = append(c.p.parsers, func(st *blackboard.Store, s string) bool {
		x, err := unmarshalText(typ, s)
		if err != nil {
			return false
		}
		set, err := schema.Setter(key, x)
		return err == nil && set(st)
	})
	return c.emit(node{op: opTextConv, kind: String, a: v, n: int64(len(c.p.parsers) - 1),
		err:  c.errf(e.pos, ErrConversion, "the string does not convert to entry %q (%v)", key, typ),
		err2: c.errLongStore(e.pos, key)}), String, nil
}

// evalText runs an opSetText or opTextConv node.
func (p *Program) evalText(st *blackboard.Store, bg *budget, n *node) (string, error) {
	if n.op == opSetText {
		p.setters[n.n](st)
		return n.s, nil
	}
	s, err := p.evalString(st, bg, n.a)
	if err != nil {
		return "", err
	}
	if len(s) > MaxString {
		return "", n.err2 // not copied for UnmarshalText
	}
	if !p.parsers[n.n](st, s) {
		return "", n.err
	}
	return s, nil
}
