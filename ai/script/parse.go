package script

import "strings"

// ast is a parsed expression.
type ast struct {
	op    tok // the operator or literal token kind; tIdent for a name; tLParen unused
	unary bool
	pos   int
	tok   token  // literals and names
	a, b  *ast   // operands; the condition and branches of ?: are cond, a, b
	cond  *ast   // ?:
	chain []*ast // comparison chain operands
	ops   []tok  // comparison chain operators
	depth int
	start int // byte offset of the expression's first token
}

// Binding powers (higher binds tighter), as BT.CPP 4.x's Pratt parser: assignment 2
// (right side a full expression, not chainable), ?: 4, || 6, && 8, comparisons 10
// (chainable), | and ^ 12, & 14, + - .. 16, * / 18, prefix - ~ ! 20.
const (
	bpAssign  = 2
	bpTernary = 4
	bpCompare = 10
	bpPrefix  = 20
)

func leftBP(t tok) int {
	switch t {
	case tDefine, tAssign, tAddAssign, tSubAssign, tMulAssign, tDivAssign:
		return bpAssign
	case tQuestion:
		return bpTernary
	case tOrOr:
		return 6
	case tAndAnd:
		return 8
	case tEq, tNe, tLess, tGreater, tLe, tGe:
		return bpCompare
	case tPipe, tCaret:
		return 12
	case tAmp:
		return 14
	case tPlus, tMinus, tDotDot:
		return 16
	case tStar, tSlash:
		return 18
	}
	return -1
}

func isAssign(t tok) bool  { return leftBP(t) == bpAssign }
func isCompare(t tok) bool { return leftBP(t) == bpCompare }

type parser struct {
	toks  []token
	i     int
	depth int
	c     *compiler
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// script parses statements separated by one or more ';' or by a line break (a trailing
// ';' is allowed).
func (p *parser) script() ([]*ast, error) {
	var stmts []*ast
	for p.peek().kind != tEOF {
		e, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		stmts = append(stmts, e)
		t := p.peek()
		if t.kind != tSemi && t.kind != tEOF && !strings.Contains(p.c.src[p.toks[p.i-1].end:t.pos], "\n") {
			return nil, p.c.errf(t.pos, ErrSyntax, "unexpected %s %s: expected an operator, ';' or the end", describe(t), quoteTok(t))
		}
		for p.peek().kind == tSemi {
			p.next()
		}
	}
	if len(stmts) == 0 {
		return nil, p.c.errf(0, ErrSyntax, "empty script")
	}
	return stmts, nil
}

func describe(t token) string {
	switch t.kind {
	case tInt, tReal, tString, tIdent:
		return t.kind.String()
	}
	return "token"
}

func quoteTok(t token) string {
	switch t.kind {
	case tEOF:
		return "(end of script)"
	case tString:
		return "'" + t.text + "'"
	}
	return "`" + t.text + "`"
}

// node makes an ast node, checking MaxDepth.
func (p *parser) node(e *ast) (*ast, error) {
	d := 0
	for _, k := range [...]*ast{e.a, e.b, e.cond} {
		if k != nil {
			d = max(d, k.depth)
		}
	}
	for _, k := range e.chain {
		d = max(d, k.depth)
	}
	e.depth = d + 1
	e.start = e.pos
	for _, k := range [...]*ast{e.a, e.cond} {
		if k != nil {
			e.start = min(e.start, k.start)
		}
	}
	if len(e.chain) > 0 {
		e.start = min(e.start, e.chain[0].start)
	}
	if e.depth > MaxDepth {
		return nil, p.c.errf(e.pos, ErrLimit, "expression nested deeper than %d", MaxDepth)
	}
	return e, nil
}

// expr parses an expression whose operators bind at least as tightly as minBP.
func (p *parser) expr(minBP int) (*ast, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > MaxDepth {
		return nil, p.c.errf(p.peek().pos, ErrLimit, "expression nested deeper than %d", MaxDepth)
	}
	left, err := p.prefix()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		bp := leftBP(t.kind)
		if bp < 0 || bp < minBP {
			return left, nil
		}
		switch {
		case isAssign(t.kind):
			p.next()
			right, err := p.expr(0)
			if err != nil {
				return nil, err
			}
			return p.node(&ast{op: t.kind, pos: t.pos, a: left, b: right})
		case t.kind == tQuestion:
			p.next()
			then, err := p.expr(0)
			if err != nil {
				return nil, err
			}
			if c := p.peek(); c.kind != tColon {
				return nil, p.c.errf(c.pos, ErrSyntax, "expected ':' of the ?: at col %d, got %s", t.pos+1, quoteTok(c))
			}
			p.next()
			els, err := p.expr(bpTernary)
			if err != nil {
				return nil, err
			}
			return p.node(&ast{op: tQuestion, pos: t.pos, cond: left, a: then, b: els})
		case isCompare(t.kind):
			e := &ast{op: tEq, pos: t.pos, chain: []*ast{left}} // tEq marks a chain
			for isCompare(p.peek().kind) {
				e.ops = append(e.ops, p.next().kind)
				r, err := p.expr(bpCompare + 1)
				if err != nil {
					return nil, err
				}
				e.chain = append(e.chain, r)
			}
			if left, err = p.node(e); err != nil {
				return nil, err
			}
		default:
			p.next()
			right, err := p.expr(bp + 1)
			if err != nil {
				return nil, err
			}
			if left, err = p.node(&ast{op: t.kind, pos: t.pos, a: left, b: right}); err != nil {
				return nil, err
			}
		}
	}
}

// prefix parses an operand: a literal, a name, a parenthesized expression or a prefix
// operator (- ~ !) and its operand.
func (p *parser) prefix() (*ast, error) {
	t := p.next()
	switch t.kind {
	case tMinus, tTilde, tBang:
		x, err := p.expr(bpPrefix)
		if err != nil {
			return nil, err
		}
		if t.kind == tMinus && x.op == tInt && x.tok.i != -1<<63 {
			x.tok.i = -x.tok.i
			x.pos, x.start = t.pos, t.pos
			return x, nil
		}
		if t.kind == tMinus && x.op == tReal {
			x.tok.f = -x.tok.f
			x.pos, x.start = t.pos, t.pos
			return x, nil
		}
		return p.node(&ast{op: t.kind, unary: true, pos: t.pos, a: x})
	case tLParen:
		x, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		if c := p.peek(); c.kind != tRParen {
			return nil, p.c.errf(c.pos, ErrSyntax, "expected ')' closing the '(' at col %d, got %s", t.pos+1, quoteTok(c))
		}
		p.next()
		x.start = t.pos
		return x, nil
	case tInt, tReal, tString, tTrue, tFalse, tIdent:
		return p.node(&ast{op: t.kind, pos: t.pos, tok: t})
	case tEOF:
		return nil, p.c.errf(t.pos, ErrSyntax, "unexpected end of script: expected an operand")
	}
	return nil, p.c.errf(t.pos, ErrSyntax, "unexpected %s: expected an operand", quoteTok(t))
}
