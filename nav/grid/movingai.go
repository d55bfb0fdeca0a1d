package grid

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ReadMap reads a map in the MovingAI format (Sturtevant 2012):
//
//	type octile
//	height H
//	width W
//	map
//	H lines of W characters
//
// Tiles: '.' and 'G' are ground (cost 1); 'S' is swamp, passable at cost 1 as
// in the standard benchmark; '@' and 'O' (out of bounds), 'T' (trees) and 'W'
// (water, not reachable from land in the 8-connected benchmark) are Blocked.
// Trailing '\r' is ignored, as are blank lines after the map and a UTF-8 byte
// order mark before the header. Rows may be of
// any length within [MaxCells]; header lines are at most [MaxHeaderLine]
// bytes.
//
// name labels errors, which read "grid: <name> line <n>: ..." for a missing or
// malformed header, a bad number, a height or width given twice, a map of
// more than [MaxCells] cells (wrapping [ErrTooLarge]), a row shorter or
// longer than W (a row more than 2^20 tiles longer is not read further: a
// line that never ends, from a device or a pipe, is an error, not a hang;
// likewise a header line or a line after the rows past [MaxHeaderLine]), an
// unknown tile, or too few rows; text quoted from the input
// is cut to 64 bytes. Memory grows with the rows actually read, never with the header's
// claim alone: a header announcing 8192×8192 followed by nothing allocates
// next to nothing. ReadMap does not panic on bad input.
func ReadMap(r io.Reader, name string) (*Grid, error) {
	sc := newLineReader(r)
	var (
		w, h         int
		gotType      bool
		line         int
		gotW, gotH   bool
		headerClosed bool
	)
	for !headerClosed {
		text, ok := sc.text(MaxHeaderLine)
		line = sc.line
		if !ok {
			return nil, sc.errAt(name, "missing \"map\" line (header incomplete)")
		}
		if sc.long {
			return nil, lineErr(name, line, "header line longer than %d bytes: %s", MaxHeaderLine, quote(text))
		}
		fields := strings.Fields(text)
		if len(fields) == 0 {
			return nil, lineErr(name, line, "empty line in header")
		}
		switch fields[0] {
		case "type":
			if len(fields) != 2 {
				return nil, lineErr(name, line, "want \"type octile\", got %s", quote(text))
			}
			if fields[1] != "octile" {
				return nil, lineErr(name, line, "unsupported map type %s (want octile)", quote(fields[1]))
			}
			gotType = true
		case "height", "width":
			if len(fields) != 2 {
				return nil, lineErr(name, line, "want \"%s N\", got %s", fields[0], quote(text))
			}
			v, err := strconv.Atoi(fields[1])
			if err != nil || v <= 0 {
				return nil, lineErr(name, line, "bad %s %s (want a positive integer)", fields[0], quote(fields[1]))
			}
			if (fields[0] == "height" && gotH) || (fields[0] == "width" && gotW) {
				return nil, lineErr(name, line, "%s given twice", fields[0])
			}
			if fields[0] == "height" {
				h, gotH = v, true
			} else {
				w, gotW = v, true
			}
		case "map":
			if len(fields) != 1 {
				return nil, lineErr(name, line, "unexpected text after \"map\": %s", quote(text))
			}
			headerClosed = true
		default:
			return nil, lineErr(name, line, "unexpected header line %s (want type, height, width or map)", quote(text))
		}
	}
	switch {
	case !gotType:
		return nil, lineErr(name, line, "header lacks \"type octile\"")
	case !gotH:
		return nil, lineErr(name, line, "header lacks \"height\"")
	case !gotW:
		return nil, lineErr(name, line, "header lacks \"width\"")
	}
	if err := checkSize(w, h); err != nil {
		return nil, &sizeError{lineErr(name, line, "map %dx%d too large (at most %d cells)", w, h, MaxCells).Error(), ErrTooLarge}
	}

	// Costs grow with the tiles read (doubling, at most to w·h), so a header's
	// claim alone allocates little, even for one very wide row.
	var cost []float32
	for y := 0; y < h; y++ {
		n, bad, badAt, trail := 0, byte(0), -1, 0
		ok := sc.pieces(func(p []byte) bool {
			// the spaces and tabs the row ends with, so far (a row of width+1
			// tiles most often ends with one an editor left)
			k := len(p)
			for k > 0 && (p[k-1] == ' ' || p[k-1] == '\t') {
				k--
			}
			if k == 0 {
				trail += len(p)
			} else {
				trail = len(p) - k
			}
			if take := min(len(p), max(w-n, 0)); take > 0 {
				if len(cost)+take > cap(cost) {
					grown := make([]float32, len(cost), min(max(2*len(cost), len(cost)+take, 1<<16), w*h))
					copy(grown, cost)
					cost = grown
				}
				dst := cost[len(cost) : len(cost)+take]
				for i, b := range p[:take] {
					c, known := tileCost(b)
					if !known && badAt < 0 {
						bad, badAt = b, n+i
					}
					dst[i] = c
				}
				cost = cost[:len(cost)+take]
			}
			n += len(p)
			return n <= w+maxRowOverrun // a row that never ends is not read to its end
		})
		if !ok {
			return nil, sc.errAt(name, fmt.Sprintf("map has %d rows, header says height %d", y, h))
		}
		switch {
		case n > w+maxRowOverrun:
			return nil, lineErr(name, sc.line, "row %d has more than %d tiles, want width %d", y, w+maxRowOverrun, w)
		case n != w && trail > 0:
			return nil, lineErr(name, sc.line, "row %d has %d tiles, want width %d (it ends with %d spaces or tabs: trailing whitespace?)", y, n, w, trail)
		case n != w:
			return nil, lineErr(name, sc.line, "row %d has %d tiles, want width %d", y, n, w)
		case badAt >= 0:
			return nil, lineErr(name, sc.line, "column %d: unknown tile %q", badAt, bad)
		}
	}
	for {
		text, ok := sc.text(MaxHeaderLine)
		if !ok {
			break
		}
		if sc.long || strings.TrimSpace(text) != "" {
			return nil, lineErr(name, sc.line, "unexpected data after %d map rows", h)
		}
	}
	if sc.err != nil {
		return nil, sc.errAt(name, "")
	}
	return newGrid(w, h, cost[:w*h:w*h]), nil
}

// LoadMap reads the MovingAI map file at path; see [ReadMap]. Errors name the
// file by its base name.
func LoadMap(path string) (*Grid, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("grid: %w", err)
	}
	defer f.Close()
	return ReadMap(f, filepath.Base(path))
}

// Query is one problem of a MovingAI scenario: find a path from Start to Goal
// on Map (Width×Height cells). Optimal is the benchmark's optimal path length
// (8-connected, diagonals √2, no corner cutting); Bucket groups queries of
// similar length.
type Query struct {
	Bucket        int
	Map           string
	Width, Height int
	Start, Goal   Cell
	Optimal       float64
}

// ReadScenario reads a MovingAI scenario (.scen): a "version 1" line, then
// one query per line with nine tab-separated fields:
//
//	bucket  map  width  height  start-x  start-y  goal-x  goal-y  optimal-length
//
// Blank lines are skipped; a line is at most [MaxScenarioLine] bytes (a longer
// one is not read further: an error, also for a line that never ends). Errors
// read "grid: <name> line <n>: ..." for a missing version line, a line too
// long, a wrong field count, a bad number, a map size out of range, or a start
// or goal outside the stated map size; text quoted from the input is cut to
// 64 bytes.
func ReadScenario(r io.Reader, name string) ([]Query, error) {
	sc := newLineReader(r)
	text, ok := sc.text(MaxScenarioLine)
	if !ok {
		return nil, sc.errAt(name, "missing \"version 1\" line")
	}
	if f := strings.Fields(text); sc.long || len(f) != 2 || f[0] != "version" || (f[1] != "1" && f[1] != "1.0") {
		return nil, lineErr(name, sc.line, "want \"version 1\", got %s", quote(text))
	}
	var qs []Query
	for {
		text, ok := sc.text(MaxScenarioLine)
		if !ok {
			break
		}
		if sc.long {
			return nil, lineErr(name, sc.line, "line longer than %d bytes", MaxScenarioLine)
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		q, err := parseQuery(text)
		if err != nil {
			return nil, lineErr(name, sc.line, "%v", err)
		}
		qs = append(qs, q)
	}
	if sc.err != nil {
		return nil, sc.errAt(name, "")
	}
	return qs, nil
}

// LoadScenario reads the MovingAI scenario file at path; see [ReadScenario].
func LoadScenario(path string) ([]Query, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("grid: %w", err)
	}
	defer f.Close()
	return ReadScenario(f, filepath.Base(path))
}

func parseQuery(text string) (Query, error) {
	f := strings.Split(text, "\t")
	if len(f) != 9 {
		f = strings.Fields(text) // tolerate space-separated files
	}
	if len(f) != 9 {
		return Query{}, fmt.Errorf("want 9 fields (bucket map width height sx sy gx gy optimal), got %d", len(f))
	}
	names := [...]string{"bucket", "", "width", "height", "start x", "start y", "goal x", "goal y"}
	var v [8]int
	for i := range v {
		if i == 1 {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(f[i]))
		if err != nil {
			return Query{}, fmt.Errorf("bad %s %s", names[i], quote(f[i]))
		}
		v[i] = n
	}
	opt, err := strconv.ParseFloat(strings.TrimSpace(f[8]), 64)
	if err != nil || opt < 0 || math.IsInf(opt, 0) || math.IsNaN(opt) {
		return Query{}, fmt.Errorf("bad optimal length %s", quote(f[8]))
	}
	w, h := v[2], v[3]
	if err := checkSize(w, h); err != nil {
		return Query{}, fmt.Errorf("bad map size %dx%d", w, h)
	}
	for i := 4; i < 8; i += 2 {
		if v[i] < 0 || v[i] >= w || v[i+1] < 0 || v[i+1] >= h {
			return Query{}, fmt.Errorf("%s (%d, %d) outside %dx%d map", names[i][:len(names[i])-2], v[i], v[i+1], w, h)
		}
	}
	mapName := strings.TrimSpace(f[1])
	if mapName == "" {
		return Query{}, errors.New("empty map name")
	}
	return Query{
		Bucket:  v[0],
		Map:     mapName,
		Width:   w,
		Height:  h,
		Start:   Cell{int32(v[4]), int32(v[5])},
		Goal:    Cell{int32(v[6]), int32(v[7])},
		Optimal: opt,
	}, nil
}

func tileCost(b byte) (float32, bool) {
	switch b {
	case '.', 'G', 'S':
		return 1, true
	case '@', 'O', 'T', 'W':
		return Blocked, true
	}
	return 0, false
}

func lineErr(name string, line int, format string, args ...any) error {
	return fmt.Errorf("grid: %s line %d: %s", name, line, fmt.Sprintf(format, args...))
}

// MaxHeaderLine is the longest header line of a map file (and the longest
// line after its rows) that [ReadMap] accepts, in bytes.
const MaxHeaderLine = 4096

// maxRowOverrun is how far past its width [ReadMap] reads a map row before it
// stops with an error ("more than W+maxRowOverrun tiles"): a row that never
// ends (a device such as /dev/zero, a pipe) is not read forever.
const maxRowOverrun = 1 << 20

// MaxScenarioLine is the longest line of a scenario file that
// [ReadScenario] accepts, in bytes.
const MaxScenarioLine = 1 << 16

// maxQuote is the number of bytes of input text an error message quotes.
const maxQuote = 64

// quote returns s quoted for an error message, cut to maxQuote bytes with an
// ellipsis, so that a huge line does not make a huge message.
func quote(s string) string {
	if len(s) <= maxQuote {
		return strconv.Quote(s)
	}
	cut := maxQuote
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + fmt.Sprintf("… (%d bytes)", len(s))
}

// sizeError is a message of its own that still matches a sentinel with
// errors.Is.
type sizeError struct {
	msg string
	err error
}

func (e *sizeError) Error() string { return e.msg }
func (e *sizeError) Unwrap() error { return e.err }

// lineReader yields lines without their end-of-line bytes ("\n" or "\r\n")
// and counts them. Lines of any length are handled piece by piece, so
// memory does not depend on line length unless the caller keeps the text.
type lineReader struct {
	r    *bufio.Reader
	line int
	err  error // the first read error other than io.EOF
	eof  bool
	long bool // the last text call cut its line
	buf  []byte
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64*1024)}
}

// pieces calls fn with the bytes of the next line in order, without its line
// ending, and reports whether there was a line (false at end of input or
// after a read error). The slices passed to fn are valid only during the call.
// When fn returns false the line is left unread from there and the reader
// reads no more (its caller has found the line bad: a line that never ends,
// from a device or a pipe, is not read to its end).
func (s *lineReader) pieces(fn func([]byte) bool) bool {
	if s.eof || s.err != nil {
		return false
	}
	started, heldCR := false, false
	for {
		p, err := s.r.ReadSlice('\n')
		if len(p) > 0 {
			started = true
		}
		end := err == nil // p ends with '\n'
		if end {
			p = p[:len(p)-1]
		}
		more := true
		if heldCR && len(p) > 0 {
			more = fn([]byte{'\r'}) // a '\r' inside the line, not the end of "\r\n"
		}
		heldCR = false
		if len(p) > 0 && p[len(p)-1] == '\r' {
			p, heldCR = p[:len(p)-1], true
		}
		if more && len(p) > 0 {
			more = fn(p)
		}
		if !more {
			s.line++
			s.eof = true // the rest of the line, and of the input, is not read
			return true
		}
		switch {
		case end:
			s.line++
			return true
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			s.eof = true
			if started {
				s.line++ // a last line without "\n"
			}
			return started
		default:
			s.err = err
			return false
		}
	}
}

// text returns the next line, cut to max bytes (then long is set, and the
// reader reads no more), and whether there was one. A UTF-8 byte order mark at the start of the input
// (some editors write one) is left out of the first line.
func (s *lineReader) text(max int) (string, bool) {
	s.buf, s.long = s.buf[:0], false
	first := s.line == 0
	ok := s.pieces(func(p []byte) bool {
		if first && len(s.buf) == 0 {
			p = bytes.TrimPrefix(p, []byte(utf8BOM))
		}
		if room := max - len(s.buf); len(p) > room {
			p, s.long = p[:room], true
		}
		s.buf = append(s.buf, p...)
		return !s.long // a cut line is an error of every caller: read no further
	})
	return string(s.buf), ok
}

// utf8BOM is the UTF-8 encoding of U+FEFF, the byte order mark.
const utf8BOM = "\uFEFF"

// errAt reports a read error or premature end of input at the line after the
// last one read.
func (s *lineReader) errAt(name, msg string) error {
	if s.err != nil {
		return fmt.Errorf("grid: %s line %d: %w", name, s.line+1, s.err)
	}
	return lineErr(name, s.line+1, "unexpected end of input: %s", msg)
}
