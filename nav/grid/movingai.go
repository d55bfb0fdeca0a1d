package grid

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxCells bounds the size of a map read from a file (64 Mi cells, 256 MiB of
// costs), so that a corrupt header cannot ask for an absurd allocation.
const maxCells = 1 << 26

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
// Trailing '\r' is ignored, as are blank lines after the map.
//
// name labels errors, which read "grid: <name> line <n>: ..." for a missing or
// malformed header, a bad number, a row shorter or longer than W, an unknown
// tile, or too few rows. ReadMap does not panic on bad input.
func ReadMap(r io.Reader, name string) (*Grid, error) {
	sc := newLineScanner(r)
	var (
		w, h         int
		gotType      bool
		line         int
		gotW, gotH   bool
		headerClosed bool
	)
	for !headerClosed {
		text, ok := sc.next()
		line = sc.line
		if !ok {
			return nil, sc.errAt(name, "missing \"map\" line (header incomplete)")
		}
		fields := strings.Fields(text)
		if len(fields) == 0 {
			return nil, lineErr(name, line, "empty line in header")
		}
		switch fields[0] {
		case "type":
			if len(fields) != 2 {
				return nil, lineErr(name, line, "want \"type octile\", got %q", text)
			}
			if fields[1] != "octile" {
				return nil, lineErr(name, line, "unsupported map type %q (want octile)", fields[1])
			}
			gotType = true
		case "height", "width":
			if len(fields) != 2 {
				return nil, lineErr(name, line, "want \"%s N\", got %q", fields[0], text)
			}
			v, err := strconv.Atoi(fields[1])
			if err != nil || v <= 0 {
				return nil, lineErr(name, line, "bad %s %q (want a positive integer)", fields[0], fields[1])
			}
			if fields[0] == "height" {
				h, gotH = v, true
			} else {
				w, gotW = v, true
			}
		case "map":
			if len(fields) != 1 {
				return nil, lineErr(name, line, "unexpected text after \"map\": %q", text)
			}
			headerClosed = true
		default:
			return nil, lineErr(name, line, "unexpected header line %q (want type, height, width or map)", text)
		}
	}
	switch {
	case !gotType:
		return nil, lineErr(name, line, "header lacks \"type octile\"")
	case !gotH:
		return nil, lineErr(name, line, "header lacks \"height\"")
	case !gotW:
		return nil, lineErr(name, line, "header lacks \"width\"")
	case w > maxCells/h:
		return nil, lineErr(name, line, "map %dx%d too large (max %d cells)", w, h, maxCells)
	}

	g := New(w, h)
	for y := 0; y < h; y++ {
		text, ok := sc.next()
		if !ok {
			return nil, sc.errAt(name, fmt.Sprintf("map has %d rows, header says height %d", y, h))
		}
		if len(text) != w {
			return nil, lineErr(name, sc.line, "row %d has %d tiles, want width %d", y, len(text), w)
		}
		row := g.cost[y*w : (y+1)*w]
		for x := 0; x < w; x++ {
			cost, ok := tileCost(text[x])
			if !ok {
				return nil, lineErr(name, sc.line, "column %d: unknown tile %q", x, text[x])
			}
			row[x] = cost
		}
	}
	for {
		text, ok := sc.next()
		if !ok {
			break
		}
		if strings.TrimSpace(text) != "" {
			return nil, lineErr(name, sc.line, "unexpected data after %d map rows", h)
		}
	}
	if sc.err != nil {
		return nil, sc.errAt(name, "")
	}
	g.version++
	g.topoVersion++
	g.minCostDirty = true
	return g, nil
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
// Blank lines are skipped. Errors read "grid: <name> line <n>: ..." for a
// missing version line, a wrong field count, a bad number, or a start or goal
// outside the stated map size.
func ReadScenario(r io.Reader, name string) ([]Query, error) {
	sc := newLineScanner(r)
	text, ok := sc.next()
	if !ok {
		return nil, sc.errAt(name, "missing \"version 1\" line")
	}
	if f := strings.Fields(text); len(f) != 2 || f[0] != "version" || (f[1] != "1" && f[1] != "1.0") {
		return nil, lineErr(name, sc.line, "want \"version 1\", got %q", text)
	}
	var qs []Query
	for {
		text, ok := sc.next()
		if !ok {
			break
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
			return Query{}, fmt.Errorf("bad %s %q", names[i], f[i])
		}
		v[i] = n
	}
	opt, err := strconv.ParseFloat(strings.TrimSpace(f[8]), 64)
	if err != nil || opt < 0 || math.IsInf(opt, 0) || math.IsNaN(opt) {
		return Query{}, fmt.Errorf("bad optimal length %q", f[8])
	}
	w, h := v[2], v[3]
	if w <= 0 || h <= 0 || w > math.MaxInt32 || h > math.MaxInt32 {
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

// lineScanner yields lines without their end-of-line bytes and counts them.
type lineScanner struct {
	sc   *bufio.Scanner
	line int
	err  error
}

func newLineScanner(r io.Reader) *lineScanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	return &lineScanner{sc: sc}
}

func (s *lineScanner) next() (string, bool) {
	if s.err != nil || !s.sc.Scan() {
		if s.err == nil {
			s.err = s.sc.Err()
		}
		return "", false
	}
	s.line++
	return strings.TrimSuffix(s.sc.Text(), "\r"), true
}

// errAt reports a read error or premature end of input at the line after the
// last one read.
func (s *lineScanner) errAt(name, msg string) error {
	if s.err != nil {
		return fmt.Errorf("grid: %s line %d: %w", name, s.line+1, s.err)
	}
	return lineErr(name, s.line+1, "unexpected end of input: %s", msg)
}
