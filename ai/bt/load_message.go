package bt

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// Error messages quote what a file says (names, IDs, attribute values) cut to
// maxQuote bytes, so that a 100 MB attribute makes a short message. Messages of other
// packages (encoding/xml, blackboard) and of leaf factories may quote the file at any
// length: a [LoadError] keeps the first and last bytes of its node label and of its
// error text, at most about maxMessage bytes each.
const (
	maxQuote   = 64
	maxMessage = 512
)

// quote returns s quoted as by strconv.Quote, cut to maxQuote bytes (on a rune
// boundary) with "…" and the full length when longer.
func quote(s string) string {
	if len(s) <= maxQuote {
		return strconv.Quote(s)
	}
	return strconv.Quote(cut(s, maxQuote)) + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

// shorten returns unquoted text from a file (an element name) cut to maxQuote bytes.
func shorten(s string) string { return shortenTo(s, maxQuote) }

// shortenTo returns s cut to n bytes with "…" and the full length when longer.
func shortenTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return cut(s, n) + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

// clipMiddle returns s, or when it is longer than n bytes its first and last n/2 bytes
// around "…(N bytes)…": the start says where, the end usually says what is wrong.
func clipMiddle(s string, n int) string {
	if len(s) <= n {
		return s
	}
	tail := len(s) - n/2
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return cut(s, n/2) + "…(" + strconv.Itoa(len(s)) + " bytes)…" + s[tail:]
}

// cut returns at most the first n bytes of s, ending on a rune boundary.
func cut(s string, n int) string {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// clipped wraps an error of another package (encoding/xml) whose message may
// quote the input at any length: its text is cut in the middle to maxMessage/2
// bytes; errors.Is and errors.As still see the original.
type clipped struct{ err error }

func (e clipped) Error() string { return clipMiddle(e.err.Error(), maxMessage/2) }
func (e clipped) Unwrap() error { return e.err }

// byteOrderMark is the UTF-8 encoding of U+FEFF, which some editors (Windows Notepad)
// write first in a UTF-8 file.
const byteOrderMark = "\uFEFF"

// trimBOM returns data without the UTF-8 byte order mark it starts with, if any: XML
// allows one before the document (XML 1.0 §4.3.3; BehaviorTree.CPP's parser skips it)
// and RFC 8259 lets a JSON reader ignore it. Lines and columns are counted after it.
func trimBOM(data []byte) []byte { return bytes.TrimPrefix(data, []byte(byteOrderMark)) }
