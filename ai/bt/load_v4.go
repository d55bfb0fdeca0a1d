package bt

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/archai-go/archai/ai/blackboard"
)

// Loaders of the BehaviorTree.CPP 4.x nodes of nodes_v4.go, with BehaviorTree.CPP's tags
// and ports:
//
//	<TryCatch catch_on_halt="false">try… catch</TryCatch>
//	<ParallelAll max_failures="1">…</ParallelAll>
//	<AsyncSequence>…</AsyncSequence>
//	<LoopInt queue="1;2;3" value="{v}" if_empty="SUCCESS">child</LoopInt>  (also LoopDouble, LoopString, LoopBool)
//	<WasEntryUpdated entry="{key}"/>
//	<SkipUnlessUpdated entry="{key}">child</SkipUnlessUpdated>  (and WaitValueUpdate)
//	<Sleep msec="500"/>
//	<AsyncFallback>…</AsyncFallback>
//	<UnsetBlackboard key="key"/>  (a bare key name or {key})

// addBuiltinsV4 adds the loaders of nodes_v4.go to builtins (called by load.go's init).
func addBuiltinsV4() {
	builtins["TryCatch"] = builtin{2, manyKids, func(p *Ports, k []*Node) *Node {
		return TryCatch(constant(p, "catch_on_halt", false), k...)
	}}
	builtins["ParallelAll"] = builtin{1, manyKids, func(p *Ports, k []*Node) *Node {
		f := constant(p, "max_failures", 1)
		if t := threshold(f, len(k)); t < 1 || t > len(k) {
			p.fail(fmt.Errorf("%w: max_failures %d with %d children: %w", ErrPort, f, len(k), ErrInvalidCount))
		}
		return ParallelAll(f, k...)
	}}
	builtins["AsyncSequence"] = builtin{1, manyKids, func(_ *Ports, k []*Node) *Node { return AsyncSequence(k...) }}
	builtins["AsyncFallback"] = builtin{1, manyKids, func(_ *Ports, k []*Node) *Node { return AsyncFallback(k...) }}
	builtins["UnsetBlackboard"] = builtin{0, 0, func(p *Ports, _ []*Node) *Node {
		n := UnsetBlackboard(blackboard.Entry{})
		p.keyEntry("key", func(e blackboard.Entry) { n.tick = UnsetBlackboard(e).tick })
		return n
	}}
	builtins["LoopInt"] = loopBuiltin[int]()
	builtins["LoopDouble"] = loopBuiltin[float64]()
	builtins["LoopString"] = loopBuiltin[string]()
	builtins["LoopBool"] = loopBuiltin[bool]()
	builtins["WasEntryUpdated"] = builtin{0, 0, func(p *Ports, _ []*Node) *Node {
		n := &Node{kind: kindWasEntryUpdated}
		p.entryPort(n)
		return n
	}}
	builtins["SkipUnlessUpdated"] = builtin{1, 1, func(p *Ports, k []*Node) *Node {
		n := SkipUnlessUpdated(blackboard.Entry{}, k[0])
		p.entryPort(n)
		return n
	}}
	builtins["WaitValueUpdate"] = builtin{1, 1, func(p *Ports, k []*Node) *Node {
		n := WaitValueUpdate(blackboard.Entry{}, k[0])
		p.entryPort(n)
		return n
	}}
	builtins["Sleep"] = builtin{0, 0, func(p *Ports, _ []*Node) *Node { return Sleep(seconds(p, "", "msec")) }}
}

// loopBuiltin is the loader of LoopInt, LoopDouble, LoopString and LoopBool.
func loopBuiltin[T any]() builtin {
	return builtin{1, 1, func(p *Ports, k []*Node) *Node {
		ifEmpty := Success
		switch v, _ := p.attr("if_empty"); v {
		case "", "SUCCESS":
		case "FAILURE":
			ifEmpty = Failure
		case "SKIPPED":
			ifEmpty = Skipped
		default:
			p.fail(fmt.Errorf("%w: if_empty=%s, want SUCCESS, FAILURE or SKIPPED", ErrPort, quote(v)))
		}
		q := queuePort[T](p)
		var out Out[T]
		if p.Has("value") {
			out = OutputPort[T](p, "value")
		}
		return Loop(q, out, ifEmpty, k[0])
	}}
}

// queuePort binds the queue port of a loop: "{key}", a blackboard entry of type []T, or
// a literal list of elements separated by ';' ("" is the empty queue).
func queuePort[T any](p *Ports) In[[]T] {
	v, ok := p.attr("queue")
	if !ok {
		p.fail(fmt.Errorf("%w: missing input port \"queue\"", ErrPort))
		return In[[]T]{}
	}
	if ref, isRef := refName(v); isRef {
		if ref == "=" {
			ref = "queue"
		}
		key, lit, isLit := p.sc.resolve(ref)
		if !isLit {
			k, err := blackboard.Declare[[]T](p.b.reg.schema, key)
			if err != nil {
				p.fail(fmt.Errorf("%w: port \"queue\": %w", ErrPort, err))
				return In[[]T]{}
			}
			p.b.wroteKey(key) // the loop pops from it
			return FromKey(k)
		}
		v = lit
	}
	if strings.TrimSpace(v) == "" {
		return Literal([]T{})
	}
	parts := strings.Split(v, ";")
	q := make([]T, len(parts))
	for i, s := range parts {
		x, err := parseLiteral[T](s)
		if err != nil {
			p.fail(fmt.Errorf("%w: port \"queue\" element %d: %w", ErrPort, i+1, err))
			return In[[]T]{}
		}
		q[i] = x
	}
	return Literal(q)
}

// entryPort binds the entry port of WasEntryUpdated, SkipUnlessUpdated and
// WaitValueUpdate into n.cond, after every leaf has declared its keys: "{key}" or a bare
// key name, which some port or script of the tree must declare (the key's type does not
// matter).
func (p *Ports) entryPort(n *Node) {
	p.keyEntry("entry", func(e blackboard.Entry) { n.cond = updated(e) })
}

// keyEntry binds the port called port, naming a key as "{key}" or a bare key name, to the
// key's untyped Entry once every port, blackboard node and script of the tree has
// declared its keys, and passes it to set. A key
// no port or script of the tree declares is a load error (it could never be set: most
// likely a typo), as is one its SubTree binds to a literal.
func (p *Ports) keyEntry(port string, set func(blackboard.Entry)) {
	v, ok := p.attr(port)
	if !ok {
		p.fail(fmt.Errorf("%w: missing input port %q", ErrPort, port))
		return
	}
	ref, isRef := refName(v)
	if !isRef {
		ref = strings.TrimSpace(v)
	}
	if ref == "" || ref == "=" {
		p.fail(fmt.Errorf("%w: %s=%s: want {key}", ErrPort, port, quote(v)))
		return
	}
	p.b.last = append(p.b.last, func() {
		key, lit, isLit := p.sc.resolve(ref)
		if isLit {
			p.fail(fmt.Errorf("%w: %s %s is bound to the literal %s by its SubTree", ErrPort, port, quote(ref), quote(lit)))
			return
		}
		e, err := p.b.reg.schema.Entry(key)
		if err != nil {
			p.fail(fmt.Errorf("%w: %s %s: no port or script of the tree declares this key: %w", ErrPort, port, quote(ref), err))
			return
		}
		p.b.wroteKey(key)
		set(e)
	})
}

// Switch in files compares numbers as numbers (BehaviorTree.CPP 4.x): on a key of a number
// type the cases are parsed as numbers, so case_1="5.0" matches 5; on a string key a case
// matches when the strings are equal or when both parse whole as numbers and are equal
// ("5" matches "5.0", "5abc" and "5 " do not match "5").

// switchNumber builds a file Switch on an int or float64 key: each case is a number
// (else a load error: it could never match) compared with the value as float64.
func switchNumber[T int | float64](p *Ports, v string, cases []string, kids []*Node) *Node {
	cs := make([]float64, len(cases))
	for i, c := range cases {
		x, ok := number(strings.TrimSpace(c))
		if !ok {
			p.fail(fmt.Errorf("%w: case_%d: %s is not a number (the key is a %T)", ErrPort, i+1, quote(c), T(0)))
		}
		cs[i] = x
	}
	repeatedCase(p, cases, func(i, j int) bool { return cs[i] == cs[j] })
	value := bindIn[T](p, "variable", v)
	n := composite(kindSwitch, kids)
	n.n1 = len(cs) + 1
	n.choose = func(c *Context) int {
		if x, ok := value.Get(c); ok {
			for i, y := range cs {
				if float64(x) == y {
					return i
				}
			}
		}
		return len(cs)
	}
	return n
}

// switchString builds a file Switch on a string key.
func switchString(p *Ports, v string, cases []string, kids []*Node) *Node {
	nums := make([]float64, len(cases))
	isNum := make([]bool, len(cases))
	for i, c := range cases {
		nums[i], isNum[i] = number(c)
	}
	cs := append([]string(nil), cases...)
	repeatedCase(p, cases, func(i, j int) bool { return cs[i] == cs[j] || isNum[i] && isNum[j] && nums[i] == nums[j] })
	value := bindIn[string](p, "variable", v)
	n := composite(kindSwitch, kids)
	n.n1 = len(cs) + 1
	n.choose = func(c *Context) int {
		x, ok := value.Get(c)
		if !ok {
			return len(cs)
		}
		xn, xIsNum := number(x)
		for i, y := range cs {
			if x == y || (xIsNum && isNum[i] && xn == nums[i]) {
				return i
			}
		}
		return len(cs)
	}
	return n
}

// number parses s whole as a decimal number (optional sign, digits, point, exponent; no
// spaces). It allocates nothing unless s is a number beyond float64's range: strconv is
// only called on text of that shape.
func number(s string) (float64, bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return 0, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, exp = i+1, exp+1
		}
		if exp == 0 || exp > 4 {
			return 0, false
		}
	}
	if i != len(s) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}
