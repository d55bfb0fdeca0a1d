package plan

import (
	"strconv"
	"unicode/utf8"
)

// MaxQuote is the most bytes of a name (of a domain, task, fact, operator) an error
// message of the planners quotes.
const MaxQuote = 64

// Quote returns s quoted as by strconv.Quote, cut to MaxQuote bytes (on a rune
// boundary) with "…" and the full length when longer: a name of a megabyte read from a
// file makes a short message.
func Quote(s string) string {
	if len(s) <= MaxQuote {
		return strconv.Quote(s)
	}
	n := MaxQuote
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strconv.Quote(s[:n]) + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

// MaxMessage is the most bytes of another package's error text (encoding/json's, which
// quotes an unknown field in full) a loader's error keeps.
const MaxMessage = 256

// Clip returns err with its message cut in the middle to about MaxMessage bytes when
// longer (the start says where, the end usually what is wrong); errors.Is and
// errors.As still see err. Clip(nil) is nil.
func Clip(err error) error {
	if err == nil || len(err.Error()) <= MaxMessage {
		return err
	}
	return clipped{err}
}

type clipped struct{ err error }

func (e clipped) Error() string {
	s := e.err.Error()
	head, tail := MaxMessage/2, len(s)-MaxMessage/2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + "…(" + strconv.Itoa(len(s)) + " bytes)…" + s[tail:]
}

func (e clipped) Unwrap() error { return e.err }
