package script

import (
	"encoding/binary"
	"math"
	"reflect"

	"github.com/archai-go/archai/ai/blackboard"
)

// Evaluation: one function per kind, each handling the nodes of its kind. The compiler
// guarantees every operand has the kind its parent asks for.

// eps is BT.CPP's tolerance for == and != when a float is involved: float32's machine
// epsilon, an absolute difference.
const eps = 1.1920928955078125e-07

// budget is the state of one evaluation ([Program.Run], [Program.Bool], [Program.Exec]):
// the bytes of strings it may still build, counted down from [MaxBuild]. It lives on the
// caller's stack, so a Program stays immutable and safe for concurrent use.
type budget struct{ left int }

// exec evaluates node i for its effects.
func (p *Program) exec(st *blackboard.Store, bg *budget, i int32) error {
	var err error
	switch p.nodes[i].kind {
	case Bool:
		_, err = p.evalBool(st, bg, i)
	case Int:
		_, err = p.evalInt(st, bg, i)
	case Float:
		_, err = p.evalFloat(st, bg, i)
	default:
		_, err = p.evalString(st, bg, i)
	}
	return err
}

// value evaluates node i as a Value.
func (p *Program) value(st *blackboard.Store, bg *budget, i int32) (Value, error) {
	switch p.nodes[i].kind {
	case Bool:
		b, err := p.evalBool(st, bg, i)
		return BoolValue(b), err
	case Int:
		v, err := p.evalInt(st, bg, i)
		return IntValue(v), err
	case Float:
		v, err := p.evalFloat(st, bg, i)
		return FloatValue(v), err
	}
	s, err := p.evalString(st, bg, i)
	return StringValue(s), err
}

// truth evaluates node i (not a String) as a condition.
func (p *Program) truth(st *blackboard.Store, bg *budget, i int32) (bool, error) {
	switch p.nodes[i].kind {
	case Bool:
		return p.evalBool(st, bg, i)
	case Int:
		v, err := p.evalInt(st, bg, i)
		return v != 0, err
	}
	v, err := p.evalFloat(st, bg, i)
	return v != 0, err
}

func (p *Program) evalBool(st *blackboard.Store, bg *budget, i int32) (bool, error) {
	n := &p.nodes[i]
	switch n.op {
	case opConst:
		return n.n != 0, nil
	case opLoad:
		w, ok := n.key.Word(st)
		if !ok {
			return false, n.err
		}
		return bytesOf(w)[0] != 0, nil
	case opAssign:
		v, err := p.evalBool(st, bg, n.a)
		if err != nil {
			return false, err
		}
		var b [8]byte
		if v {
			b[0] = 1
		}
		n.key.SetWord(st, wordOf(b))
		return v, nil
	case opTernary:
		c, err := p.evalBool(st, bg, n.cond)
		if err != nil {
			return false, err
		}
		if c {
			return p.evalBool(st, bg, n.a)
		}
		return p.evalBool(st, bg, n.b)
	case opNot:
		v, err := p.evalBool(st, bg, n.a)
		return !v, err
	case opAnd, opOr:
		v, err := p.evalBool(st, bg, n.a)
		if err != nil || v == (n.op == opOr) {
			return v, err
		}
		return p.evalBool(st, bg, n.b)
	case opCmp:
		return p.compare(st, bg, n.dom, n.cmp, n.a, n.b)
	case opChain:
		return p.chain(st, bg, n)
	case opTruth:
		switch p.nodes[n.a].kind {
		case Int:
			v, err := p.evalInt(st, bg, n.a)
			return v != 0, err
		case Float:
			v, err := p.evalFloat(st, bg, n.a)
			return v != 0, err
		}
		v, err := p.evalString(st, bg, n.a)
		return v != "", err
	case opToBool:
		v, err := p.evalInt(st, bg, n.a)
		if err != nil {
			return false, err
		}
		if v != 0 && v != 1 {
			return false, n.err
		}
		return v == 1, nil
	}
	return false, errInternal
}

func (p *Program) evalInt(st *blackboard.Store, bg *budget, i int32) (int64, error) {
	n := &p.nodes[i]
	switch n.op {
	case opConst:
		return n.n, nil
	case opLoad:
		w, ok := n.key.Word(st)
		if !ok {
			return 0, n.err
		}
		v, ok := decodeInt(w, n.ek)
		if !ok {
			return 0, n.err2
		}
		return v, nil
	case opAssign:
		v, err := p.evalInt(st, bg, n.a)
		if err != nil {
			return 0, err
		}
		w, ok := encodeInt(v, n.ek)
		if !ok {
			return 0, n.err
		}
		n.key.SetWord(st, w)
		return v, nil
	case opTernary:
		c, err := p.evalBool(st, bg, n.cond)
		if err != nil {
			return 0, err
		}
		if c {
			return p.evalInt(st, bg, n.a)
		}
		return p.evalInt(st, bg, n.b)
	case opNeg:
		v, err := p.evalInt(st, bg, n.a)
		if err != nil {
			return 0, err
		}
		if v == math.MinInt64 {
			return 0, n.err
		}
		return -v, nil
	case opCompl:
		v, err := p.evalInt(st, bg, n.a)
		return ^v, err
	case opAdd, opSub, opMul, opBitAnd, opBitOr, opBitXor:
		a, err := p.intOperand(st, bg, n.a)
		if err != nil {
			return 0, err
		}
		b, err := p.intOperand(st, bg, n.b)
		if err != nil {
			return 0, err
		}
		var r int64
		switch n.op {
		case opAdd:
			r = a + b
			if (a^r)&(b^r) < 0 {
				return 0, n.err
			}
		case opSub:
			r = a - b
			if (a^b)&(a^r) < 0 {
				return 0, n.err
			}
		case opMul:
			r = a * b
			if a != 0 && (r/a != b || (a == -1 && b == math.MinInt64)) {
				return 0, n.err
			}
		case opBitAnd:
			r = a & b
		case opBitOr:
			r = a | b
		default:
			r = a ^ b
		}
		return r, nil
	case opToInt:
		switch p.nodes[n.a].kind {
		case Bool:
			v, err := p.evalBool(st, bg, n.a)
			return b2i(v), err
		case Float:
			f, err := p.evalFloat(st, bg, n.a)
			if err != nil {
				return 0, err
			}
			v, ok := floatToInt(f)
			if !ok {
				return 0, n.err
			}
			return v, nil
		}
	}
	return 0, errInternal
}

func (p *Program) evalFloat(st *blackboard.Store, bg *budget, i int32) (float64, error) {
	n := &p.nodes[i]
	switch n.op {
	case opConst:
		return n.f, nil
	case opLoad:
		w, ok := n.key.Word(st)
		if !ok {
			return 0, n.err
		}
		if n.ek == reflect.Float32 {
			b := bytesOf(w)
			return float64(math.Float32frombits(binary.NativeEndian.Uint32(b[:4]))), nil
		}
		return math.Float64frombits(w), nil
	case opAssign:
		v, err := p.evalFloat(st, bg, n.a)
		if err != nil {
			return 0, err
		}
		if n.ek == reflect.Float32 {
			f := float32(v)
			if math.IsInf(float64(f), 0) && !math.IsInf(v, 0) {
				return 0, n.err
			}
			var b [8]byte
			binary.NativeEndian.PutUint32(b[:4], math.Float32bits(f))
			n.key.SetWord(st, wordOf(b))
			return float64(f), nil
		}
		n.key.SetWord(st, math.Float64bits(v))
		return v, nil
	case opTernary:
		c, err := p.evalBool(st, bg, n.cond)
		if err != nil {
			return 0, err
		}
		if c {
			return p.evalFloat(st, bg, n.a)
		}
		return p.evalFloat(st, bg, n.b)
	case opNeg:
		v, err := p.evalFloat(st, bg, n.a)
		return -v, err
	case opAdd, opSub, opMul, opDiv:
		a, err := p.floatOperand(st, bg, n.a)
		if err != nil {
			return 0, err
		}
		b, err := p.floatOperand(st, bg, n.b)
		if err != nil {
			return 0, err
		}
		switch n.op {
		case opAdd:
			return a + b, nil
		case opSub:
			return a - b, nil
		case opMul:
			return a * b, nil
		}
		if b == 0 {
			return 0, n.err
		}
		return a / b, nil
	case opToFloat:
		if p.nodes[n.a].kind == Bool {
			v, err := p.evalBool(st, bg, n.a)
			return float64(b2i(v)), err
		}
		v, err := p.evalInt(st, bg, n.a)
		return float64(v), err
	case opParse:
		s, err := p.evalString(st, bg, n.a)
		if err != nil {
			return 0, err
		}
		f, ok := p.parseNumber(s)
		if !ok {
			return 0, n.err
		}
		return f, nil
	}
	return 0, errInternal
}

func (p *Program) evalString(st *blackboard.Store, bg *budget, i int32) (string, error) {
	n := &p.nodes[i]
	switch n.op {
	case opSetText, opTextConv:
		return p.evalText(st, bg, n)
	case opConst:
		return n.s, nil
	case opLoad:
		s, ok := n.key.Str(st)
		if !ok {
			return "", n.err
		}
		return s, nil
	case opAssign:
		v, err := p.evalString(st, bg, n.a)
		if err != nil {
			return "", err
		}
		if len(v) > MaxString {
			return "", n.err // a string read from an entry the program did not write
		}
		n.key.SetStr(st, v)
		return v, nil
	case opTernary:
		c, err := p.evalBool(st, bg, n.cond)
		if err != nil {
			return "", err
		}
		if c {
			return p.evalString(st, bg, n.a)
		}
		return p.evalString(st, bg, n.b)
	case opConcat:
		a, err := p.evalString(st, bg, n.a)
		if err != nil {
			return "", err
		}
		b, err := p.evalString(st, bg, n.b)
		if err != nil {
			return "", err
		}
		// Check before joining: the limits bound what a script allocates.
		l := len(a) + len(b)
		if l > MaxString {
			return "", n.err
		}
		if l > bg.left {
			return "", n.err2
		}
		bg.left -= l
		return a + b, nil
	case opToString:
		v, err := p.value(st, bg, n.a)
		return v.String(), err
	}
	return "", errInternal
}

// intOperand is evalInt with the common operands (a constant, an int or int64 entry)
// read in place.
func (p *Program) intOperand(st *blackboard.Store, bg *budget, i int32) (int64, error) {
	n := &p.nodes[i]
	if n.op == opConst {
		return n.n, nil
	}
	if n.op == opLoad && ((n.ek == reflect.Int && intSize == 8) || n.ek == reflect.Int64) {
		if w, ok := n.key.Word(st); ok {
			return int64(w), nil
		}
	}
	return p.evalInt(st, bg, i)
}

// floatOperand is evalFloat with the common operands (a constant, a float64 entry) read
// in place.
func (p *Program) floatOperand(st *blackboard.Store, bg *budget, i int32) (float64, error) {
	n := &p.nodes[i]
	if n.op == opConst {
		return n.f, nil
	}
	if n.op == opLoad && n.ek == reflect.Float64 {
		if w, ok := n.key.Word(st); ok {
			return math.Float64frombits(w), nil
		}
	}
	return p.evalFloat(st, bg, i)
}

// errInternal is returned if the compiled form is inconsistent: a bug of this package.
var errInternal = &Error{Msg: "internal error: inconsistent program", Err: ErrType, Line: 1, Col: 1}
