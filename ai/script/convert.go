package script

import (
	"math"
	"reflect"
	"strconv"
)

// Conversions between kinds: which the compiler inserts, and their folding for constants.

// fits reports whether node v, if a constant (or a conversion of one to a Bool), fits an
// entry of Go kind k.
func (c *compiler) fits(v int32, k reflect.Kind) bool {
	x := c.p.nodes[v]
	if x.op == opToBool {
		x = c.p.nodes[x.a]
		return x.op != opConst || x.n == 0 || x.n == 1
	}
	if x.op != opConst {
		return true
	}
	switch x.kind {
	case Int:
		_, ok := encodeInt(x.n, k)
		return ok
	case Float:
		return k != reflect.Float32 || !math.IsInf(float64(float32(x.f)), 0) || math.IsInf(x.f, 0)
	}
	return true
}

// convert converts node v of kind k to kind to (numbers among themselves, strings to
// Float, anything to String), reporting err where a value does not convert. Constants
// are folded.
func (c *compiler) convert(v int32, k, to Kind, err *Error) (int32, Kind) {
	if k == to {
		return v, k
	}
	var o op
	switch {
	case to == Float && k == String:
		o = opParse
	case to == Float:
		o = opToFloat
	case to == Int && k == String:
		v, k = c.convert(v, k, Float, err)
		o = opToInt
	case to == Int:
		o = opToInt
	case to == String:
		o = opToString
	case to == Bool:
		o = opTruth
	}
	n := node{op: o, kind: to, a: v, err: err}
	if x := c.p.nodes[v]; x.op == opConst {
		// Fold a constant; one that does not convert is an error at Compile.
		r, ok := c.p.eval1(n, x)
		if ok {
			c.p.nodes[v] = r
			return v, to
		}
		if c.fold == nil {
			c.fold = err
		}
	}
	return c.emit(n), to
}

// truth converts v to a Bool by truth. Strings are rejected unless allowStr.
func (c *compiler) truth(e *ast, v int32, k Kind, what string, allowStr bool) (int32, error) {
	if k == String && !allowStr {
		return 0, c.errf(e.pos, ErrType, "%s is a string, not a condition", what)
	}
	v, _ = c.convert(v, k, Bool, nil)
	return v, nil
}

// eval1 folds the conversion n of the constant x, if it succeeds.
func (p *Program) eval1(n node, x node) (node, bool) {
	r := node{op: opConst, kind: n.kind}
	switch n.op {
	case opParse:
		f, ok := p.parseNumber(x.s)
		r.f = f
		return r, ok
	case opToFloat:
		r.f = float64(x.n)
	case opToInt:
		if x.kind == Float {
			i, ok := floatToInt(x.f)
			r.n = i
			return r, ok
		}
		r.n = x.n
	case opTruth:
		r.n = b2i((x.kind == String && x.s != "") || (x.kind == Float && x.f != 0) || (x.kind == Int && x.n != 0))
	case opToString:
		r.s = Value{kind: x.kind, n: x.n, f: x.f}.String()
	default:
		return node{}, false
	}
	return r, true
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// floatToInt returns f as an int64 if it is a whole number in range.
func floatToInt(f float64) (int64, bool) {
	if f != math.Trunc(f) || f < -(1<<63) || f >= 1<<63 {
		return 0, false
	}
	return int64(f), true
}

// parseNumber converts a string to a number as BT.CPP does: true is 1, false 0, an enum
// name its value, else a decimal number (strconv.ParseFloat; NaN and infinities refused).
func (p *Program) parseNumber(s string) (float64, bool) {
	switch s {
	case "true":
		return 1, true
	case "false":
		return 0, true
	}
	if v, ok := p.enums[s]; ok {
		return float64(v), true
	}
	if !isDecimal(s) {
		return 0, false // ParseFloat would allocate its error
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// isDecimal reports whether s is a decimal number: an optional sign, digits with an
// optional fraction (at least one digit in all), an optional exponent.
func isDecimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(s) && isDigit(s[i]); i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && isDigit(s[i]); i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && s[i]|0x20 == 'e' {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		e := i
		for ; i < len(s) && isDigit(s[i]); i++ {
		}
		if i == e {
			return false
		}
	}
	return i == len(s)
}
