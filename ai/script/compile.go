package script

import (
	"reflect"

	"github.com/archai-go/archai/ai/blackboard"
)

// op is an operation of the compiled form: a flat slice of typed nodes, each naming its
// operands by index. Every node has a static [Kind]; the compiler inserts conversions,
// so evaluation never checks a kind at run time.
type op uint8

const (
	opConst    op = iota // the constant
	opLoad               // the entry's value
	opAssign             // store a (converted to the entry's kind) into the entry
	opTernary            // cond ? a : b
	opNeg                // -a
	opNot                // !a (a is Bool)
	opCompl              // ~a (a is Int)
	opAdd                // a + b, both of the node's kind (Int or Float)
	opSub                // a - b
	opMul                // a * b
	opDiv                // a / b (Float)
	opAnd                // a && b (Bool)
	opOr                 // a || b (Bool)
	opBitAnd             // a & b (Int)
	opBitOr              // a | b
	opBitXor             // a ^ b
	opConcat             // a .. b (String)
	opCmp                // a cmp b, both of kind dom
	opChain              // list[a:a+b] compared pairwise by cmps, all of kind dom
	opToFloat            // Int or Bool a as a Float
	opToInt              // Bool a as 0 or 1; Float a if whole and in range
	opTruth              // Int, Float or String a as a Bool: not zero, not ""
	opToBool             // Int a as a Bool if 0 or 1 (assignment to a bool entry)
	opToString           // Bool, Int or Float a as text
	opParse              // String a as a Float: true, false, an enum name or a number
	opSetText            // store setters[n] (a literal converted by UnmarshalText at compile time; text.go)
	opTextConv           // convert String a with UnmarshalText and store it: parsers[n] (text.go)
)

// cmp is a comparison operator.
type cmp uint8

const (
	cmpEq cmp = iota
	cmpNe
	cmpLt
	cmpGt
	cmpLe
	cmpGe
)

var cmpOf = map[tok]cmp{tEq: cmpEq, tNe: cmpNe, tLess: cmpLt, tGreater: cmpGt, tLe: cmpLe, tGe: cmpGe}

// node is one operation.
type node struct {
	op   op
	kind Kind
	dom  Kind         // opCmp, opChain: kind of the operands
	cmp  cmp          // opCmp
	ek   reflect.Kind // opLoad, opAssign: the entry's Go kind
	a, b int32
	cond int32
	key  blackboard.Scalar // opLoad, opAssign
	n    int64             // opConst Bool and Int
	f    float64           // opConst Float
	s    string            // opConst String
	cmps []cmp             // opChain
	err  *Error            // the run-time error this node reports
	err2 *Error            // a second one (opLoad: uint64 out of int64 range)
}

type compiler struct {
	env   *Env
	src   string
	p     *Program
	fold  *Error // the first constant that does not convert
	lines []int  // byte offsets where the script's lines start
}

func (c *compiler) emit(n node) int32 {
	c.p.nodes = append(c.p.nodes, n)
	return int32(len(c.p.nodes) - 1)
}

// expr compiles e and returns its node and kind.
func (c *compiler) expr(e *ast) (int32, Kind, error) {
	switch e.op {
	case tInt:
		return c.emit(node{op: opConst, kind: Int, n: e.tok.i}), Int, nil
	case tReal:
		return c.emit(node{op: opConst, kind: Float, f: e.tok.f}), Float, nil
	case tString:
		return c.emit(node{op: opConst, kind: String, s: e.tok.text}), String, nil
	case tTrue:
		return c.emit(node{op: opConst, kind: Bool, n: 1}), Bool, nil
	case tFalse:
		return c.emit(node{op: opConst, kind: Bool}), Bool, nil
	case tIdent:
		return c.load(e)
	case tDefine, tAssign, tAddAssign, tSubAssign, tMulAssign, tDivAssign:
		return c.assign(e)
	case tQuestion:
		return c.ternary(e)
	case tEq:
		return c.compare(e)
	}
	if e.unary {
		return c.unary(e)
	}
	return c.binary(e)
}

// name resolves an identifier: an enum constant, a constant binding, or an entry name.
func (c *compiler) name(e *ast) (key string, konst Value, isConst bool, err error) {
	name, root := e.tok.text, false
	if name[0] == '@' {
		name, root = name[1:], true
		if name == "" {
			return "", Value{}, false, c.errf(e.pos, ErrSyntax, "a name must follow @")
		}
	}
	if v, ok := c.env.Enums[name]; ok && !root {
		return "", IntValue(int64(v)), true, nil
	}
	if c.env.Resolve == nil {
		return name, Value{}, false, nil
	}
	b, rerr := c.env.Resolve(name, root)
	if rerr != nil {
		return "", Value{}, false, c.errf(e.pos, ErrUnknownEntry, "%s: %v", e.tok.text, rerr)
	}
	if b.IsConst {
		if b.Const.kind == Invalid {
			return "", Value{}, false, c.errf(e.pos, ErrType, "%s stands for an invalid value", e.tok.text)
		}
		return "", b.Const, true, nil
	}
	if b.Key == "" {
		return "", Value{}, false, c.errf(e.pos, ErrUnknownEntry, "%s resolves to no entry", e.tok.text)
	}
	return b.Key, Value{}, false, nil
}

// entry looks up the entry called key for a script.
func (c *compiler) entry(e *ast, key string) (blackboard.Scalar, reflect.Type, Kind, error) {
	if c.env.Schema == nil || c.env.Schema.Type(key) == nil {
		return blackboard.Scalar{}, nil, Invalid, c.errf(e.pos, ErrUnknownEntry, "unknown entry %q", key)
	}
	k, typ, err := c.env.Schema.Scalar(key)
	if err != nil {
		return blackboard.Scalar{}, nil, Invalid, c.errf(e.pos, ErrType,
			"entry %q has type %v: scripts use booleans, numbers and strings", key, typ)
	}
	c.p.useSt = true
	return k, typ, kindOf(typ.Kind()), nil
}

func kindOf(k reflect.Kind) Kind {
	switch k {
	case reflect.Bool:
		return Bool
	case reflect.Float32, reflect.Float64:
		return Float
	case reflect.String:
		return String
	}
	return Int
}

func (c *compiler) constant(v Value) int32 {
	return c.emit(node{op: opConst, kind: v.kind, n: v.n, f: v.f, s: v.s})
}

func (c *compiler) load(e *ast) (int32, Kind, error) {
	key, konst, isConst, err := c.name(e)
	if err != nil {
		return 0, Invalid, err
	}
	if isConst {
		return c.constant(konst), konst.kind, nil
	}
	k, typ, kind, err := c.entry(e, key)
	if err != nil {
		return 0, Invalid, err
	}
	n := node{op: opLoad, kind: kind, ek: typ.Kind(), key: k,
		err: c.errf(e.pos, ErrNotSet, "entry %q has no value", key)}
	if n.ek == reflect.Uint64 || n.ek == reflect.Uint || n.ek == reflect.Uintptr {
		n.err2 = c.errf(e.pos, ErrConversion, "entry %q (%v) holds a value beyond int64", key, typ)
	}
	return c.emit(n), kind, nil
}

// goType is the type of an entry a := creates for a value of kind k.
func goType(k Kind) reflect.Type {
	switch k {
	case Bool:
		return reflect.TypeFor[bool]()
	case Int:
		return reflect.TypeFor[int]()
	case Float:
		return reflect.TypeFor[float64]()
	}
	return reflect.TypeFor[string]()
}

var compound = map[tok]tok{tAddAssign: tPlus, tSubAssign: tMinus, tMulAssign: tStar, tDivAssign: tSlash}

func (c *compiler) assign(e *ast) (int32, Kind, error) {
	if e.a.op != tIdent {
		return 0, Invalid, c.errf(e.pos, ErrSyntax, "the left side of %s is not a blackboard entry", e.op)
	}
	key, _, isConst, err := c.name(e.a)
	if err != nil {
		return 0, Invalid, err
	}
	if isConst {
		return 0, Invalid, c.errf(e.a.pos, ErrType, "cannot assign to %s: it is a constant", e.a.tok.text)
	}
	if e.op == tDefine || e.op == tAssign {
		if typ := c.textEntry(key); typ != nil {
			return c.assignText(e, key, typ, e.b)
		}
	}
	rhs := e.b
	if bin, ok := compound[e.op]; ok {
		rhs = &ast{op: bin, pos: e.pos, a: e.a, b: e.b}
	}
	if e.op == tDefine && (c.env.Schema == nil || c.env.Schema.Type(key) == nil) {
		if c.env.Schema == nil {
			return 0, Invalid, c.errf(e.a.pos, ErrUnknownEntry, "cannot create entry %q: no schema", key)
		}
		// Type the value first: the new entry takes its kind, and the value may not
		// read the entry it creates.
		v, k, err := c.expr(rhs)
		if err != nil {
			return 0, Invalid, err
		}
		if err := c.env.Schema.DeclareType(key, goType(k)); err != nil {
			return 0, Invalid, c.errf(e.a.pos, ErrUnknownEntry, "cannot create entry %q: %v", key, err)
		}
		return c.store(e, key, v, k)
	}
	if c.env.Schema == nil || c.env.Schema.Type(key) == nil {
		return 0, Invalid, c.errf(e.a.pos, ErrUnknownEntry, "unknown entry %q (use := to create it)", key)
	}
	v, k, err := c.expr(rhs)
	if err != nil {
		return 0, Invalid, err
	}
	return c.store(e, key, v, k)
}

// store emits the assignment of value v of kind k to the entry called key.
func (c *compiler) store(e *ast, key string, v int32, k Kind) (int32, Kind, error) {
	sk, typ, ek, err := c.entry(e.a, key)
	if err != nil {
		return 0, Invalid, err
	}
	var conv *Error // the run-time error of the assignment
	if ek == String {
		conv = c.errLongStore(e.pos, key)
	} else {
		conv = c.errf(e.pos, ErrConversion, "the value does not fit entry %q (%v)", key, typ)
	}
	switch {
	case ek == String && k != String:
		return 0, Invalid, c.errf(e.pos, ErrType, "cannot assign %s to entry %q of type %v", article(k), key, typ)
	case ek != String && k == String:
		v, k = c.convert(v, k, Float, conv)
		fallthrough
	default:
		switch ek {
		case Bool:
			if k != Bool {
				v, _ = c.convert(v, k, Int, conv)
				v = c.emit(node{op: opToBool, kind: Bool, a: v, err: conv})
			}
		case Int, Float:
			v, _ = c.convert(v, k, ek, conv)
		}
	}
	if c.fold == nil && !c.fits(v, typ.Kind()) {
		c.fold = conv
	}
	return c.emit(node{op: opAssign, kind: ek, ek: typ.Kind(), key: sk, a: v, err: conv}), ek, nil
}

func isNum(k Kind) bool { return k == Bool || k == Int || k == Float }

func (c *compiler) unary(e *ast) (int32, Kind, error) {
	v, k, err := c.expr(e.a)
	if err != nil {
		return 0, Invalid, err
	}
	if k == String {
		return 0, Invalid, c.errf(e.pos, ErrType, "operator %s does not apply to a string", e.op)
	}
	switch e.op {
	case tBang:
		v, _ = c.convert(v, k, Bool, nil)
		return c.emit(node{op: opNot, kind: Bool, a: v}), Bool, nil
	case tTilde:
		v, _ = c.convert(v, k, Int, c.errf(e.a.start, ErrConversion, "operand of ~ is not a whole number"))
		return c.emit(node{op: opCompl, kind: Int, a: v}), Int, nil
	}
	if k == Bool {
		v, k = c.convert(v, k, Int, nil)
	}
	return c.emit(node{op: opNeg, kind: k, a: v, err: c.errf(e.pos, ErrOverflow, "-x overflows int64")}), k, nil
}

var binOp = map[tok]op{
	tPlus: opAdd, tMinus: opSub, tStar: opMul, tSlash: opDiv, tAndAnd: opAnd, tOrOr: opOr,
	tAmp: opBitAnd, tPipe: opBitOr, tCaret: opBitXor, tDotDot: opConcat,
}

func (c *compiler) binary(e *ast) (int32, Kind, error) {
	a, ka, err := c.expr(e.a)
	if err != nil {
		return 0, Invalid, err
	}
	b, kb, err := c.expr(e.b)
	if err != nil {
		return 0, Invalid, err
	}
	o := binOp[e.op]
	switch {
	case o == opConcat:
		if ka != String && kb != String {
			return 0, Invalid, c.errf(e.pos, ErrType, "operator .. joins strings: %v .. %v", ka, kb)
		}
		a, _ = c.convert(a, ka, String, nil)
		b, _ = c.convert(b, kb, String, nil)
		return c.concat(e, a, b), String, nil
	case o == opAdd && ka == String && kb == String:
		return c.concat(e, a, b), String, nil
	case ka == String || kb == String:
		hint := ""
		if o == opAdd {
			hint = " (use .. to join a string and a number)"
		}
		return 0, Invalid, c.errf(e.pos, ErrType, "operator %s does not apply to %v and %v%s", e.op, ka, kb, hint)
	case o == opAnd || o == opOr:
		a, _ = c.convert(a, ka, Bool, nil)
		b, _ = c.convert(b, kb, Bool, nil)
		return c.emit(node{op: o, kind: Bool, a: a, b: b}), Bool, nil
	case o == opBitAnd || o == opBitOr || o == opBitXor:
		a, _ = c.convert(a, ka, Int, c.errf(e.a.start, ErrConversion, "left operand of %s is not a whole number", e.op))
		b, _ = c.convert(b, kb, Int, c.errf(e.b.start, ErrConversion, "right operand of %s is not a whole number", e.op))
		return c.emit(node{op: o, kind: Int, a: a, b: b}), Int, nil
	}
	k := Int
	if ka == Float || kb == Float || o == opDiv {
		k = Float
	}
	a, _ = c.convert(a, ka, k, nil)
	b, _ = c.convert(b, kb, k, nil)
	n := node{op: o, kind: k, a: a, b: b}
	switch {
	case o == opDiv:
		n.err = c.errf(e.pos, ErrDivisionByZero, "division by zero")
	case k == Int:
		n.err = c.errf(e.pos, ErrOverflow, "%s overflows int64", e.op)
	}
	return c.emit(n), k, nil
}

// concat emits the join of the strings a and b by e (.. or +, or the + of +=), with the
// errors of its limits.
func (c *compiler) concat(e *ast, a, b int32) int32 {
	return c.emit(node{op: opConcat, kind: String, a: a, b: b,
		err:  c.errf(e.pos, ErrLimit, "%s would build a string longer than %d bytes (MaxString)", e.op, MaxString),
		err2: c.errf(e.pos, ErrLimit, "%s would take the strings the script builds in one run beyond %d bytes (MaxBuild)", e.op, MaxBuild)})
}

// errLongStore is the error of storing a string longer than MaxString into the entry
// called key (a string the script read from an entry it did not write).
func (c *compiler) errLongStore(pos int, key string) *Error {
	return c.errf(pos, ErrLimit, "the string for entry %q is longer than %d bytes (MaxString)", key, MaxString)
}

// article returns the kind with its article: "a bool", "an int".
func article(k Kind) string {
	if k == Int {
		return "an int"
	}
	return "a " + k.String()
}

// unify returns the kind two values of kinds a and b meet in: the same kind, Int for a
// Bool and an Int, Float for a Float and another number; Invalid for a string and a
// number.
func unify(a, b Kind) Kind {
	switch {
	case a == b:
		return a
	case a == String || b == String:
		return Invalid
	case a == Float || b == Float:
		return Float
	}
	return Int
}

func (c *compiler) ternary(e *ast) (int32, Kind, error) {
	cv, ck, err := c.expr(e.cond)
	if err != nil {
		return 0, Invalid, err
	}
	cv, _ = c.truth(e.cond, cv, ck, "", true)
	a, ka, err := c.expr(e.a)
	if err != nil {
		return 0, Invalid, err
	}
	b, kb, err := c.expr(e.b)
	if err != nil {
		return 0, Invalid, err
	}
	k := unify(ka, kb)
	if k == Invalid {
		return 0, Invalid, c.errf(e.pos, ErrType, "the branches of ?: are %s and %s", article(ka), article(kb))
	}
	a, _ = c.convert(a, ka, k, nil)
	b, _ = c.convert(b, kb, k, nil)
	return c.emit(node{op: opTernary, kind: k, cond: cv, a: a, b: b}), k, nil
}

// compare compiles a comparison chain a op b op c …: true if every adjacent pair
// compares true; each operand is evaluated once, left to right, and evaluation stops at
// the first false pair. The operands meet in one kind: strings if all are strings, else
// Float if any is a Float or a string (a string converts to a number), else Int.
func (c *compiler) compare(e *ast) (int32, Kind, error) {
	vs := make([]int32, len(e.chain))
	ks := make([]Kind, len(e.chain))
	dom := Invalid
	anyStr, anyNum := false, false
	for i, x := range e.chain {
		v, k, err := c.expr(x)
		if err != nil {
			return 0, Invalid, err
		}
		vs[i], ks[i] = v, k
		anyStr = anyStr || k == String
		anyNum = anyNum || isNum(k)
		if k == Float {
			dom = Float
		}
	}
	switch {
	case !anyNum:
		dom = String
	case anyStr:
		dom = Float
	case dom != Float:
		dom = Int
	}
	for i := range vs {
		vs[i], _ = c.convert(vs[i], ks[i], dom,
			c.errf(e.chain[i].start, ErrConversion, "cannot compare this string with a number: it is not a number"))
	}
	if len(vs) == 2 {
		return c.emit(node{op: opCmp, kind: Bool, dom: dom, cmp: cmpOf[e.ops[0]], a: vs[0], b: vs[1]}), Bool, nil
	}
	start := int32(len(c.p.list))
	c.p.list = append(c.p.list, vs...)
	cmps := make([]cmp, len(e.ops))
	for i, o := range e.ops {
		cmps[i] = cmpOf[o]
	}
	return c.emit(node{op: opChain, kind: Bool, dom: dom, a: start, b: int32(len(vs)), cmps: cmps}), Bool, nil
}
