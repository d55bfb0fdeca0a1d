package script

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Error is a script error, at Compile or at run time: where it is and what is wrong.
type Error struct {
	Where  string // the caller's prefix ([Env.Where]), such as "trees/main.xml:12"
	Offset int    // byte offset in the script, 0-based
	Line   int    // line in the script, 1-based (scripts may hold newlines)
	Col    int    // byte column in that line, 1-based
	Msg    string // what is wrong
	Quote  string // the script around Offset, at most about 64 bytes
	Err    error  // the sentinel: ErrSyntax, ErrUnknownEntry, ErrType, ErrLimit, ErrNotSet, …
}

// Error formats e as "where: script col 7: msg in `quote`" ("line 2 col 7" when the
// script has several lines).
func (e *Error) Error() string {
	var b strings.Builder
	if e.Where != "" {
		b.WriteString(e.Where)
		b.WriteString(": ")
	}
	b.WriteString("script ")
	if e.Line > 1 {
		b.WriteString("line ")
		b.WriteString(strconv.Itoa(e.Line))
		b.WriteByte(' ')
	}
	b.WriteString("col ")
	b.WriteString(strconv.Itoa(e.Col))
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Quote != "" {
		b.WriteString(" in `")
		b.WriteString(e.Quote)
		b.WriteByte('`')
	}
	return b.String()
}

// Unwrap returns the sentinel.
func (e *Error) Unwrap() error { return e.Err }

// quoteWidth is the most bytes of the script an error quotes.
const quoteWidth = 64

// newError builds the error at byte offset off of src, whose lines start at the offsets
// lines (ascending, the first 0).
func newError(where, src string, lines []int, off int, sentinel error, msg string) *Error {
	off = max(0, min(off, len(src)))
	line := sort.SearchInts(lines, off+1) // lines[line-1] <= off
	col := off - lines[line-1] + 1
	return &Error{Where: where, Offset: off, Line: line, Col: col, Msg: msg, Quote: quote(src, off), Err: sentinel}
}

// quote returns the script around off, trimmed to about quoteWidth bytes with … marking
// the cuts, newlines and tabs shown as spaces.
func quote(src string, off int) string {
	lo, hi := 0, len(src)
	if hi-lo > quoteWidth {
		lo = max(0, off-quoteWidth/2)
		hi = min(len(src), lo+quoteWidth)
		lo = max(0, hi-quoteWidth)
	}
	// Do not cut a UTF-8 sequence.
	for lo > 0 && lo < len(src) && src[lo]&0xC0 == 0x80 {
		lo--
	}
	for hi < len(src) && src[hi]&0xC0 == 0x80 {
		hi++
	}
	q := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, src[lo:hi])
	if lo > 0 {
		q = "…" + q
	}
	if hi < len(src) {
		q += "…"
	}
	return q
}

// errf builds an error at byte offset off.
func (c *compiler) errf(off int, sentinel error, format string, args ...any) *Error {
	if c.lines == nil {
		c.lines = []int{0}
		for i := range len(c.src) {
			if c.src[i] == '\n' {
				c.lines = append(c.lines, i+1)
			}
		}
	}
	return newError(c.env.Where, c.src, c.lines, off, sentinel, fmt.Sprintf(format, args...))
}
