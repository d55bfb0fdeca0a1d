package script

import (
	"strconv"
	"strings"
)

// tok is a token kind.
type tok uint8

const (
	tEOF tok = iota
	tInt
	tReal
	tString
	tTrue
	tFalse
	tIdent
	// operators and delimiters
	tPlus
	tMinus
	tStar
	tSlash
	tAmp
	tPipe
	tCaret
	tTilde
	tBang
	tLess
	tGreater
	tAssign // =
	tQuestion
	tColon
	tLParen
	tRParen
	tSemi
	tDotDot
	tAndAnd
	tOrOr
	tEq
	tNe
	tLe
	tGe
	tDefine // :=
	tAddAssign
	tSubAssign
	tMulAssign
	tDivAssign
)

var tokText = [...]string{
	tEOF: "end of script", tInt: "integer", tReal: "number", tString: "string", tTrue: "true",
	tFalse: "false", tIdent: "name", tPlus: "+", tMinus: "-", tStar: "*", tSlash: "/",
	tAmp: "&", tPipe: "|", tCaret: "^", tTilde: "~", tBang: "!", tLess: "<", tGreater: ">",
	tAssign: "=", tQuestion: "?", tColon: ":", tLParen: "(", tRParen: ")", tSemi: ";",
	tDotDot: "..", tAndAnd: "&&", tOrOr: "||", tEq: "==", tNe: "!=", tLe: "<=", tGe: ">=",
	tDefine: ":=", tAddAssign: "+=", tSubAssign: "-=", tMulAssign: "*=", tDivAssign: "/=",
}

func (t tok) String() string { return tokText[t] }

// token is one token: its kind, its byte offset in the script and its text (a string
// literal's text is without the quotes).
type token struct {
	kind tok
	pos  int
	end  int // byte offset after the token
	text string
	i    int64   // tInt
	f    float64 // tReal
}

var twoChar = map[string]tok{
	"..": tDotDot, "&&": tAndAnd, "||": tOrOr, "==": tEq, "!=": tNe, "<=": tLe, ">=": tGe,
	":=": tDefine, "+=": tAddAssign, "-=": tSubAssign, "*=": tMulAssign, "/=": tDivAssign,
}

var oneChar = [128]tok{
	'+': tPlus, '-': tMinus, '*': tStar, '/': tSlash, '&': tAmp, '|': tPipe, '^': tCaret,
	'~': tTilde, '!': tBang, '<': tLess, '>': tGreater, '=': tAssign, '?': tQuestion,
	':': tColon, '(': tLParen, ')': tRParen, ';': tSemi,
}

func isDigit(c byte) bool      { return '0' <= c && c <= '9' }
func isHex(c byte) bool        { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }
func isLetter(c byte) bool     { return 'a' <= c|0x20 && c|0x20 <= 'z' || c == '_' }
func isIdentChar(c byte) bool  { return isLetter(c) || isDigit(c) }
func isIdentStart(c byte) bool { return isLetter(c) || c == '@' }

// lex splits src into tokens, ending with tEOF. Whitespace is space, tab, CR and LF.
func lex(src string, c *compiler) ([]token, error) {
	var toks []token
	for i := 0; i < len(src); {
		ch := src[i]
		start := i
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
			i++
			continue
		case ch == '\'':
			end := strings.IndexByte(src[i+1:], '\'')
			if end < 0 {
				return nil, c.errf(start, ErrSyntax, "unterminated string (a string is 'single-quoted')")
			}
			toks = append(toks, token{kind: tString, pos: start, text: src[i+1 : i+1+end]})
			i += end + 2
			continue
		case isDigit(ch):
			t, n, err := lexNumber(src, i, c)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i = n
			continue
		case isIdentStart(ch):
			i++
			for i < len(src) && isIdentChar(src[i]) {
				i++
			}
			t := token{kind: tIdent, pos: start, text: src[start:i]}
			switch t.text {
			case "true":
				t.kind = tTrue
			case "false":
				t.kind = tFalse
			}
			toks = append(toks, t)
			continue
		}
		if i+1 < len(src) {
			if k, ok := twoChar[src[i:i+2]]; ok {
				toks = append(toks, token{kind: k, pos: start, text: src[i : i+2]})
				i += 2
				continue
			}
		}
		if ch < 128 && oneChar[ch] != tEOF {
			toks = append(toks, token{kind: oneChar[ch], pos: start, text: src[i : i+1]})
			i++
			continue
		}
		if ch == '"' {
			return nil, c.errf(start, ErrSyntax, "unexpected '\"': strings are 'single-quoted'")
		}
		if ch >= 0x20 && ch < 0x7f {
			return nil, c.errf(start, ErrSyntax, "unexpected character %q", ch)
		}
		return nil, c.errf(start, ErrSyntax, "unexpected byte %#02x", ch)
	}
	toks = append(toks, token{kind: tEOF, pos: len(src), end: len(src)})
	for k := range toks {
		if toks[k].end == 0 {
			toks[k].end = toks[k].pos + len(toks[k].text)
			if toks[k].kind == tString {
				toks[k].end += 2 // the quotes
			}
		}
	}
	return toks, nil
}

// lexNumber reads the number at src[i]: decimal digits with an optional fraction
// (digits after the point: "65." is an error, "65..x" is 65 then ..) and exponent
// (e or E, an optional sign, digits), or 0x/0X and hex digits (no fraction or exponent).
// A letter, digit or point right after a number is an error ("3foo"). An integer beyond
// int64 is an error.
func lexNumber(src string, i int, c *compiler) (token, int, error) {
	start := i
	bad := func(msg string) (token, int, error) {
		for i < len(src) && (isIdentChar(src[i]) || src[i] == '.') {
			i++
		}
		return token{}, 0, c.errf(start, ErrSyntax, "malformed number %q: %s", src[start:i], msg)
	}
	if src[i] == '0' && i+1 < len(src) && src[i+1]|0x20 == 'x' {
		i += 2
		d := i
		for i < len(src) && isHex(src[i]) {
			i++
		}
		if i == d {
			return bad("no hex digits after 0x")
		}
		if i < len(src) && (isIdentChar(src[i]) || src[i] == '.') {
			return bad("a hex integer has no fraction or exponent")
		}
		v, err := strconv.ParseInt(src[d:i], 16, 64)
		if err != nil {
			return token{}, 0, c.errf(start, ErrSyntax, "integer %s out of range (int64)", src[start:i])
		}
		return token{kind: tInt, pos: start, text: src[start:i], i: v}, i, nil
	}
	real := false
	for i < len(src) && isDigit(src[i]) {
		i++
	}
	if i < len(src) && src[i] == '.' && !(i+1 < len(src) && src[i+1] == '.') {
		if i+1 >= len(src) || !isDigit(src[i+1]) {
			i++
			return bad("digits must follow the point")
		}
		real = true
		i++
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	if i < len(src) && src[i]|0x20 == 'e' {
		real = true
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if i >= len(src) || !isDigit(src[i]) {
			return bad("digits must follow the exponent")
		}
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	if i < len(src) && (isIdentStart(src[i]) || (src[i] == '.' && !(i+1 < len(src) && src[i+1] == '.'))) {
		return bad("a letter or point follows it")
	}
	text := src[start:i]
	if real {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return token{}, 0, c.errf(start, ErrSyntax, "number %s out of range (float64)", text)
		}
		return token{kind: tReal, pos: start, text: text, f: f}, i, nil
	}
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return token{}, 0, c.errf(start, ErrSyntax, "integer %s out of range (int64)", text)
	}
	return token{kind: tInt, pos: start, text: text, i: v}, i, nil
}
