package script

import (
	"errors"
	"math"
	"strconv"

	"github.com/archai-go/archai/ai/blackboard"
)

// Limits on a script: its size, checked by [Compile], and the strings it builds, checked
// when it runs ([Program.Run], [Program.Bool], [Program.Exec]) before the string is
// allocated. Exceeding one is an [*Error] wrapping [ErrLimit]. They keep loading and
// evaluation bounded in time and memory for any input.
const (
	// MaxSource is the longest script in bytes.
	MaxSource = 16 << 10
	// MaxDepth is the deepest nesting of expressions: parentheses, unary operators,
	// operands of operators (a chain a+b+c+… is as deep as it is long).
	MaxDepth = 128
	// MaxString is the longest string in bytes that a script builds (with .. or + of
	// strings, or +=) or stores into an entry (=, :=, or a string converted by an
	// entry type's UnmarshalText): s = s .. s doubles s at most 16 times from one
	// byte. It is 4 MaxSource, so any string literal fits. A longer string read from
	// an entry (written by Go code) can be compared, not stored or joined.
	MaxString = 64 << 10
	// MaxBuild bounds, in bytes, the strings one evaluation builds in all: the sum of
	// the lengths of the results of .. and + of strings (a number joined to a string is
	// counted with the result). Copying a string (t = s) builds nothing. It keeps a
	// long script of joins (t = s .. s; t = s .. s; …) from allocating MaxString per
	// statement; each evaluation starts afresh.
	MaxBuild = 4 * MaxString
)

// Errors wrapped by [*Error]. Compile reports the first four, and ErrConversion for a
// constant that does not convert (hp = 2.5 with hp an int); Run, Bool and Exec report
// the others, and ErrLimit for a string beyond [MaxString] or [MaxBuild].
var (
	ErrSyntax       = errors.New("syntax error")
	ErrUnknownEntry = errors.New("unknown entry")
	ErrType         = errors.New("type error")
	ErrLimit        = errors.New("script too large") // MaxSource, MaxDepth; at run time MaxString, MaxBuild

	ErrNotSet         = errors.New("entry has no value")
	ErrDivisionByZero = errors.New("division by zero")
	ErrOverflow       = errors.New("integer overflow")
	ErrConversion     = errors.New("value does not convert")
	ErrStore          = errors.New("store of another schema")
)

// Env is what a script is compiled against.
type Env struct {
	// Schema holds the blackboard entries a script reads and writes. Compile declares in
	// it the entries a := creates. Nil: the script may use no entry.
	Schema *blackboard.Schema
	// Enums are named integer constants (BT.CPP's registered scripting enums). A name
	// here shadows an entry of the same name. Do not change the map once a program is
	// compiled: programs read it when they convert a string to a number.
	Enums map[string]int
	// Resolve maps an identifier of the script to what it stands for: name without the @
	// prefix, and root reports whether it had one (BT.CPP's root blackboard). Nil maps
	// both name and @name to the entry called name. A behavior-tree loader passes the
	// SubTree remapping here. An error it returns is a compile error wrapping
	// ErrUnknownEntry, with its message.
	Resolve func(name string, root bool) (Binding, error)
	// Where prefixes every error, as "file.xml:12" (the attribute holding the script).
	Where string
}

// Binding is what [Env.Resolve] maps an identifier to: the entry called Key, or the
// constant Const when IsConst (a SubTree port remapped to a literal).
type Binding struct {
	Key     string
	Const   Value
	IsConst bool
}

// Program is a compiled script: immutable, shared by every agent that runs it, safe for
// concurrent use on different stores.
type Program struct {
	src     string
	schema  *blackboard.Schema
	enums   map[string]int
	nodes   []node
	list    []int32 // operands of comparison chains
	stmts   []int32
	kind    Kind
	useSt   bool   // reads or writes an entry
	errSt   *Error // store nil or of another schema
	errBool *Error // Bool on a string result

	// Strings converted by an entry type's UnmarshalText (text.go): opSetText stores
	// setters[n], opTextConv converts and stores with parsers[n].
	setters []func(*blackboard.Store) bool
	parsers []func(*blackboard.Store, string) bool
}

// Compile parses and type-checks src once, at load. It returns an [*Error] wrapping
// [ErrSyntax], [ErrUnknownEntry], [ErrType], [ErrLimit] or [ErrConversion], with the
// column. It declares in env.Schema the entries a := creates (those of the statements
// before a failing one stay declared), so it is not safe concurrently with other uses
// of that schema. A nil env is an empty one.
func Compile(src string, env *Env) (*Program, error) {
	if env == nil {
		env = &Env{}
	}
	c := &compiler{env: env, src: src, p: &Program{src: src, schema: env.Schema, enums: env.Enums}}
	if len(src) > MaxSource {
		return nil, c.errf(MaxSource, ErrLimit, "script is %d bytes, longer than %d", len(src), MaxSource)
	}
	toks, err := lex(src, c)
	if err != nil {
		return nil, err
	}
	ps := &parser{toks: toks, c: c}
	stmts, err := ps.script()
	if err != nil {
		return nil, err
	}
	for _, s := range stmts {
		idx, k, err := c.expr(s)
		if err != nil {
			return nil, err
		}
		if c.fold != nil {
			return nil, c.fold
		}
		c.p.stmts = append(c.p.stmts, idx)
		c.p.kind = k
	}
	c.p.errSt = c.errf(0, ErrStore, "store is nil or not made from the script's schema")
	c.p.errBool = c.errf(0, ErrType, "the script's value is a string, not a condition")
	return c.p, nil
}

// MustCompile is [Compile] for scripts in Go source and tests.
//
// Panics: if Compile returns an error.
func MustCompile(src string, env *Env) *Program {
	p, err := Compile(src, env)
	if err != nil {
		panic(err)
	}
	return p
}

// Source returns the script's text.
func (p *Program) Source() string { return p.src }

// Kind returns the kind of the script's value: the kind of its last statement.
func (p *Program) Kind() Kind { return p.kind }

// Writes reports whether the script assigns an entry anywhere (=, :=, +=, ...,
// also inside an expression: "hunger = 60" used as a condition).
func (p *Program) Writes() bool {
	for _, n := range p.nodes {
		if isStore(n.op) {
			return true
		}
	}
	return false
}

// AssignsOnly reports whether every statement of the script is an assignment
// (a script of effects: "ammo -= 1; inCover = true"), so that none is a value
// computed and dropped ("hunger == 0", a comparison written for an effect).
func (p *Program) AssignsOnly() bool {
	for _, s := range p.stmts {
		if !isStore(p.nodes[s].op) {
			return false
		}
	}
	return len(p.stmts) > 0
}

// StoresFloatInInt reports whether the script assigns a Float expression
// ("wood += 0.5", "n = n * 1.5") to an integer entry: the value is converted
// when the script runs, and fails with ErrConversion unless it is whole.
func (p *Program) StoresFloatInInt() bool {
	for _, n := range p.nodes {
		if n.op == opAssign && n.kind == Int && p.nodes[n.a].op == opToInt && p.nodes[p.nodes[n.a].a].kind == Float {
			return true
		}
	}
	return false
}

// isStore reports whether op stores into an entry.
func isStore(o op) bool { return o == opAssign || o == opSetText || o == opTextConv }

// Run evaluates the statements in order on st and returns the value of the last one. It
// allocates nothing unless it builds a string, and never builds a string longer than
// [MaxString] nor more than [MaxBuild] bytes of strings in all. On error (an [*Error]
// wrapping [ErrNotSet], [ErrDivisionByZero], [ErrOverflow], [ErrConversion], [ErrLimit]
// or [ErrStore]) it stops and returns the zero Value: assignments of earlier statements
// stay done.
//
// Important: the errors Run returns are built at Compile and shared by every agent: do
// not modify them.
func (p *Program) Run(st *blackboard.Store) (Value, error) {
	if err := p.checkStore(st); err != nil {
		return Value{}, err
	}
	bg := budget{left: MaxBuild}
	last := len(p.stmts) - 1
	for _, s := range p.stmts[:last] {
		if err := p.exec(st, &bg, s); err != nil {
			return Value{}, err
		}
	}
	return p.value(st, &bg, p.stmts[last])
}

// Exec evaluates the statements in order on st, discarding the value: a Script node.
// Errors as [Program.Run].
func (p *Program) Exec(st *blackboard.Store) error {
	if err := p.checkStore(st); err != nil {
		return err
	}
	bg := budget{left: MaxBuild}
	for _, s := range p.stmts {
		if err := p.exec(st, &bg, s); err != nil {
			return err
		}
	}
	return nil
}

// Bool evaluates the script as a condition: the truth of its value (see [Value.Bool]).
// A script whose value is a string is an error wrapping [ErrType] (check [Program.Kind]
// at load). Other errors as [Program.Run]. It allocates nothing unless it builds a
// string.
func (p *Program) Bool(st *blackboard.Store) (bool, error) {
	if p.kind == String {
		return false, p.errBool
	}
	if err := p.checkStore(st); err != nil {
		return false, err
	}
	bg := budget{left: MaxBuild}
	last := len(p.stmts) - 1
	for _, s := range p.stmts[:last] {
		if err := p.exec(st, &bg, s); err != nil {
			return false, err
		}
	}
	return p.truth(st, &bg, p.stmts[last])
}

func (p *Program) checkStore(st *blackboard.Store) error {
	if p.useSt && (st == nil || st.Schema() != p.schema) {
		return p.errSt
	}
	return nil
}

// Kind is the kind of a script value.
type Kind uint8

// Kinds of values. Blackboard entries of kind bool are Bool; of any integer kind Int;
// float32 and float64 Float; string String.
const (
	Invalid Kind = iota
	Bool
	Int
	Float
	String
)

var kindNames = [...]string{"invalid", "bool", "int", "float", "string"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is a script value: a kind and a boolean, an int64, a float64 or a string,
// without boxing. The zero Value is Invalid.
type Value struct {
	kind Kind
	n    int64 // Bool (0 or 1) and Int
	f    float64
	s    string
}

// BoolValue returns the Bool value b.
func BoolValue(b bool) Value {
	if b {
		return Value{kind: Bool, n: 1}
	}
	return Value{kind: Bool}
}

// IntValue returns the Int value i.
func IntValue(i int64) Value { return Value{kind: Int, n: i} }

// FloatValue returns the Float value f.
func FloatValue(f float64) Value { return Value{kind: Float, f: f} }

// StringValue returns the String value s.
func StringValue(s string) Value { return Value{kind: String, s: s} }

// Kind returns v's kind.
func (v Value) Kind() Kind { return v.kind }

// Bool returns v's truth: a Bool's value, a number other than zero, a string other than
// "" (the rule of the ternary operator's condition).
func (v Value) Bool() bool {
	switch v.kind {
	case Bool, Int:
		return v.n != 0
	case Float:
		return v.f != 0
	case String:
		return v.s != ""
	}
	return false
}

// Int returns an Int's value, 1 or 0 for a Bool, a Float truncated toward zero
// (saturated at the int64 range), 0 for others.
func (v Value) Int() int64 {
	switch v.kind {
	case Bool, Int:
		return v.n
	case Float:
		if i, ok := floatToInt(math.Trunc(v.f)); ok {
			return i
		}
		if v.f > 0 {
			return 1<<63 - 1
		}
		if v.f < 0 {
			return -1 << 63
		}
	}
	return 0
}

// Float returns a number's value as a float64 (1 or 0 for a Bool), 0 for others.
func (v Value) Float() float64 {
	switch v.kind {
	case Bool, Int:
		return float64(v.n)
	case Float:
		return v.f
	}
	return 0
}

// String returns v as text, as the operator .. writes it: a string as it is, true or
// false, an integer in decimal, a float in the shortest form that reads back the same
// (strconv 'g'), "<invalid>" for the zero Value.
func (v Value) String() string {
	switch v.kind {
	case Bool:
		return strconv.FormatBool(v.n != 0)
	case Int:
		return strconv.FormatInt(v.n, 10)
	case Float:
		return strconv.FormatFloat(v.f, 'g', -1, 64)
	case String:
		return v.s
	}
	return "<invalid>"
}
