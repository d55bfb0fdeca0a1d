package bt

import (
	"encoding"
	"fmt"
	"reflect"
	"strings"
)

// setAnyType binds <SetBlackboard value=… output_key=…/> on a key of a type other than
// bool, int, float64 and string (a vector, an entity handle, a type defined on a number):
// value is either a key of the same type, copied, or a literal parsed as the type
// (encoding.TextUnmarshaler, or a type whose kind is a boolean, number or string). An
// output key nobody declared takes the type of the value's key.
func (p *Ports) setAnyType(n *Node, typ reflect.Type, out, v string) {
	schema := p.b.reg.schema
	dst, ok := p.outKeyName("output_key", out)
	if !ok {
		return
	}
	if err := schema.DeclareType(dst, typ); err != nil {
		p.fail(fmt.Errorf("%w: port %q: %w", ErrPort, "output_key", err))
		return
	}
	p.b.wroteKey(dst)
	var set func(c *Context) bool
	ref, isRef := refName(v)
	lit := v
	if isRef {
		if ref == "=" {
			ref = "value"
		}
		src, l, isLit := p.sc.resolve(ref)
		if !isLit {
			if err := schema.DeclareType(src, typ); err != nil {
				p.fail(fmt.Errorf("%w: port %q: %w", ErrPort, "value", err))
				return
			}
			cp, err := schema.Copier(dst, src)
			if err != nil {
				p.fail(fmt.Errorf("%w: port %q: %w", ErrPort, "value", err))
				return
			}
			set = func(c *Context) bool { return cp(c.Blackboard) }
		}
		lit = l
	}
	if set == nil {
		x, err := literalValue(typ, lit)
		if err != nil {
			p.fail(fmt.Errorf("%w: port %q: %w", ErrPort, "value", err))
			return
		}
		st, err := schema.Setter(dst, x.Interface())
		if err != nil {
			p.fail(fmt.Errorf("%w: port %q: %w", ErrPort, "value", err))
			return
		}
		set = func(c *Context) bool { return st(c.Blackboard) }
	}
	n.tick = func(c *Context) Status {
		if set(c) {
			return Success
		}
		return Failure
	}
}

// outKeyName resolves an output port's text ("{key}", a bare key, or "{=}") to a schema
// key name, as [OutputPort] does.
func (p *Ports) outKeyName(port, v string) (string, bool) {
	ref, isRef := refName(v)
	if !isRef {
		ref = strings.TrimSpace(v)
	}
	if ref == "=" {
		ref = port
	}
	if ref == "" {
		p.fail(fmt.Errorf("%w: output port %q: empty key", ErrPort, port))
		return "", false
	}
	key, lit, isLit := p.sc.resolve(ref)
	if isLit {
		p.fail(fmt.Errorf("%w: output port %q: key %q is bound to the literal %q by its SubTree", ErrPort, port, ref, lit))
		return "", false
	}
	return key, true
}

// literalValue parses s as a value of typ: with its UnmarshalText if *typ is an
// encoding.TextUnmarshaler, else by its kind (boolean, integer, float, string, or a slice
// as a ';'-separated list), so a type defined on a number takes the number's literals.
func literalValue(typ reflect.Type, s string) (reflect.Value, error) {
	v := reflect.New(typ)
	if u, ok := v.Interface().(encoding.TextUnmarshaler); ok {
		err := u.UnmarshalText([]byte(s))
		return v.Elem(), err
	}
	var x any
	var err error
	overflow := false
	switch k := typ.Kind(); {
	case k == reflect.String:
		x, err = parseLiteral[string](s)
	case k == reflect.Bool:
		x, err = parseLiteral[bool](s)
	case k >= reflect.Int && k <= reflect.Int64:
		var i int64
		i, err = parseLiteral[int64](s)
		x, overflow = i, v.Elem().OverflowInt(i)
	case k >= reflect.Uint && k <= reflect.Uintptr:
		var u uint64
		u, err = parseLiteral[uint64](s)
		x, overflow = u, v.Elem().OverflowUint(u)
	case k == reflect.Float32 || k == reflect.Float64:
		var f float64
		f, err = parseLiteral[float64](s)
		x, overflow = f, v.Elem().OverflowFloat(f)
	case k == reflect.Slice:
		return listValue(typ, s)
	default:
		return v.Elem(), fmt.Errorf("no literal form for %v (copy it from a key, or give the type an UnmarshalText method)", typ)
	}
	if err == nil && overflow {
		err = fmt.Errorf("%q overflows %v", s, typ)
	}
	if err != nil {
		return v.Elem(), err
	}
	v.Elem().Set(reflect.ValueOf(x).Convert(typ))
	return v.Elem(), nil
}
