package save

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc64"
	"math"
	"strings"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
)

// The grid is the program's to add again after a load (from the same map, with the
// same edits), so a save records its fingerprint and a load onto another grid is an
// error, not a run that silently diverges: paths, flow fields and moves read the
// grid's costs.

// gridPrint is the fingerprint of a world's *grid.Grid resource that a save records
// under "grid": its size and a hash of its costs as they were when saving, edits
// (a door closed, a bridge opened) included. A file whose "grid" is null was saved
// from a world without a grid; a file without the key (written before fingerprints)
// is not checked.
type gridPrint struct {
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Costs  string `json:"costs"` // "crc64:" and 16 hex digits: the CRC-64 of the costs, see fingerprint
	// Rows and Cols (absent in files written before them, and for grids of more
	// than maxLineHashes rows and columns together) locate a difference: a
	// 32-bit hash of each row's and each column's costs (lineHashes), 4
	// little-endian bytes each, in base64 (standard, padded). The mismatch
	// error then names the cell that differs, or the rows and columns that do.
	Rows string `json:"rows,omitempty"`
	Cols string `json:"cols,omitempty"`
	// Lines is how Rows and Cols were hashed: foldedLines (1) in files written
	// since 2026-12-06, absent (0) before, when each hash was the FNV state's low
	// 32 bits alone (see lineHashes).
	Lines int `json:"lines,omitempty"`
}

// foldedLines is gridPrint.Lines for line hashes that fold the FNV state's high
// 32 bits into the low ones (see lineHashes).
const foldedLines = 1

// maxLineHashes bounds the rows and columns, together, whose hashes a save
// records: 65,536 of them take 350 KB of base64 at most (a 1024×1024 grid
// 11 KB); a grid beyond it is fingerprinted by its CRC alone.
const maxLineHashes = 1 << 16

// fingerprint returns g's fingerprint: the CRC-64 (ECMA-182 polynomial, hash/crc64) of
// its costs' float32 bits, 4 little-endian bytes a cell, in row-major order. A CRC
// detects every change confined to 64 consecutive bits (any one cell), and every pair
// of one-bit changes less than 8,589,606,914 bits apart (the order of x modulo the
// polynomial; a grid holds at most 2³¹ bits): a door closed (cost 1 to Blocked flips
// one bit) and another anywhere is never missed. A multiply-only hash over 64-bit words,
// 4× faster, missed such pairs (a high-bit difference stays in the top bits and two can
// cancel). It costs about 11 ns a cell here (BenchmarkGridFingerprint: 0.8 ms for the
// default bench map of 256×256, under a second for grid.MaxCells).
func fingerprint(g *grid.Grid) gridPrint {
	var buf [4096]byte
	h := uint64(0)
	c := g.Costs()
	for len(c) > 0 {
		n := min(len(c), len(buf)/4)
		for i, v := range c[:n] {
			binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(v))
		}
		h = crc64.Update(h, crcTable, buf[:4*n])
		c = c[n:]
	}
	p := gridPrint{Width: g.Width(), Height: g.Height(), Costs: fmt.Sprintf("crc64:%016x", h)}
	if g.Width()+g.Height() <= maxLineHashes {
		rows, cols := lineHashes(g, true)
		p.Rows, p.Cols, p.Lines = encodeLines(rows), encodeLines(cols), foldedLines
	}
	return p
}

// lineHashes returns a hash of each row's costs (rows[y]) and of each
// column's (cols[x]): FNV-1a over the costs' float32 bits, one 32-bit word a
// step (h = (h ^ bits) · the 64-bit FNV prime), in row order along a row and
// column order down a column, folded to 32 bits (the state's high half XORed
// onto its low half; with folded false, the low 32 bits alone, as files from
// before gridPrint.Lines hold). Each step is a bijection of the low 32 bits,
// so a row or column with one cell changed always hashes otherwise. Two
// changes in one line may cancel (then a difference is located less
// precisely, never wrongly: the CRC decides whether the grids differ), but
// unfolded they did so often: a multiply carries a difference only upwards,
// and a door's (cost 1 to Blocked) is in bit 30 of the float, so its trace in
// the low 32 bits was two bits wide, and a 4-cell door in one column hashed
// that column alike about one time in four (the error then named the rows
// only). Folded, the high half, which the later multiplies have mixed, carries
// it too.
func lineHashes(g *grid.Grid, folded bool) (rows, cols []uint32) {
	const offset, prime = 14695981039346656037, 1099511628211
	w, h := g.Width(), g.Height()
	c := g.Costs()
	rows = make([]uint32, h)
	colState := make([]uint64, w)
	for x := range colState {
		colState[x] = offset
	}
	for y := range h {
		r := uint64(offset)
		for x, v := range c[y*w : (y+1)*w] {
			b := uint64(math.Float32bits(v))
			r = (r ^ b) * prime
			colState[x] = (colState[x] ^ b) * prime
		}
		rows[y] = fold(r, folded)
	}
	cols = make([]uint32, w)
	for x, v := range colState {
		cols[x] = fold(v, folded)
	}
	return rows, cols
}

// fold returns h's two halves XORed if folded, else its low 32 bits.
func fold(h uint64, folded bool) uint32 {
	if folded {
		return uint32(h ^ h>>32)
	}
	return uint32(h)
}

func encodeLines(v []uint32) string {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// decodeLines decodes n hashes from s (encodeLines), or reports false.
func decodeLines(s string, n int) ([]uint32, bool) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) != 4*n {
		return nil, false
	}
	v := make([]uint32, n)
	for i := range v {
		v[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return v, true
}

// sameGrid reports whether p and q fingerprint the same grid: size and CRC
// (the line hashes only locate a difference; a file may lack them).
func (p gridPrint) sameGrid(q gridPrint) bool {
	return p.Width == q.Width && p.Height == q.Height && p.Costs == q.Costs
}

// where returns, for a saved fingerprint p that differs from the grid g of
// the same size, where they differ, to follow "the grids differ": "at the
// cell (3, 4) (cost 2 in this world)", or the rows and columns whose hashes
// differ; "" when p has no line hashes.
func (p gridPrint) where(g *grid.Grid) string {
	rows, okR := decodeLines(p.Rows, p.Height)
	cols, okC := decodeLines(p.Cols, p.Width)
	if !okR || !okC || p.Width != g.Width() || p.Height != g.Height() {
		return ""
	}
	nowR, nowC := lineHashes(g, p.Lines == foldedLines)
	var ys, xs []int
	for y := range rows {
		if rows[y] != nowR[y] {
			ys = append(ys, y)
		}
	}
	for x := range cols {
		if cols[x] != nowC[x] {
			xs = append(xs, x)
		}
	}
	switch {
	case len(ys) == 1 && len(xs) == 1:
		c := grid.Cell{X: int32(xs[0]), Y: int32(ys[0])}
		cost := "blocked"
		if v := g.Cost(c); v != grid.Blocked {
			cost = fmt.Sprintf("cost %g", v)
		}
		return fmt.Sprintf("they differ at the cell (%d, %d) only (%s in this world)", c.X, c.Y, cost)
	case len(ys) > 0 && len(xs) > 0:
		return fmt.Sprintf("they differ only in cells of the rows y = %s and the columns x = %s", lines(ys), lines(xs))
	case len(ys) > 0:
		return fmt.Sprintf("they differ in the rows y = %s", lines(ys))
	case len(xs) > 0:
		return fmt.Sprintf("they differ in the columns x = %s", lines(xs))
	}
	return ""
}

// lines lists v (ascending): up to 8 numbers, then how many in all.
func lines(v []int) string {
	var b strings.Builder
	for i, n := range v[:min(len(v), 8)] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, n)
	}
	if len(v) > 8 {
		fmt.Fprintf(&b, ", … (%d in all)", len(v))
	}
	return b.String()
}

var crcTable = crc64.MakeTable(crc64.ECMA)

func (p gridPrint) String() string {
	return fmt.Sprintf("a %dx%d grid (costs %s)", p.Width, p.Height, p.Costs)
}

// gridJSON returns the "grid" value a save of w records: w's grid's fingerprint, or
// null if w has no grid.
func gridJSON(w *arche.World) json.RawMessage {
	g := ecs.Resource[grid.Grid](w)
	if g == nil {
		return json.RawMessage("null")
	}
	raw, _ := json.Marshal(fingerprint(g)) // cannot fail: ints and a string
	return raw
}

// parseGrid checks a file's "grid" value: nil (no key: not checked), null (no grid) or
// a fingerprint. It returns an error wrapping ErrFormat for anything else.
func parseGrid(raw json.RawMessage) (saved *gridPrint, checked bool, err error) {
	if raw == nil {
		return nil, false, nil
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, true, nil
	}
	var p gridPrint
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, false, fmt.Errorf("grid: %w: %v", ErrFormat, err)
	}
	if p.Width <= 0 || p.Height <= 0 || len(p.Costs) != len("crc64:")+16 {
		return nil, false, fmt.Errorf("grid: %w: %dx%d, costs %q: not a grid fingerprint", ErrFormat, p.Width, p.Height, p.Costs)
	}
	if p.Lines != 0 && p.Lines != foldedLines {
		return nil, false, fmt.Errorf("grid: %w: lines: %d, not a line hash scheme (%d, or none)", ErrFormat, p.Lines, foldedLines)
	}
	if p.Rows != "" || p.Cols != "" {
		if _, ok := decodeLines(p.Rows, p.Height); !ok {
			return nil, false, fmt.Errorf("grid: %w: rows: not %d row hashes in base64", ErrFormat, p.Height)
		}
		if _, ok := decodeLines(p.Cols, p.Width); !ok {
			return nil, false, fmt.Errorf("grid: %w: cols: not %d column hashes in base64", ErrFormat, p.Width)
		}
	}
	return &p, true, nil
}

// checkGrid returns an error wrapping ErrGridMismatch if the world's grid g (nil: none)
// is not the one the file's fingerprint saved describes (nil: the saved world had none),
// starting with op ("load" for LoadInto, "restore" for Loaded.Restore).
func checkGrid(op string, saved *gridPrint, g *grid.Grid) error {
	const fix = "add the saved run's grid before LoadInto or Restore: the same map with the edits it had when saved (doors, bridges); " +
		"the file holds only the grid's fingerprint, so record the edits in the save's meta and rebuild them from save.ReadMeta (save.ReadClock gives the saved frame)"
	switch {
	case saved == nil && g == nil:
		return nil
	case saved == nil:
		return fmt.Errorf("%s: %w: the save was made from a world without a grid, this world has %s: load it into a world without one", op, ErrGridMismatch, fingerprint(g))
	case g == nil:
		return fmt.Errorf("%s: %w: the save was made on %s, this world has no *grid.Grid resource: %s", op, ErrGridMismatch, saved, fix)
	}
	if now := fingerprint(g); !now.sameGrid(*saved) {
		if at := saved.where(g); at != "" {
			return fmt.Errorf("%s: %w: the save was made on %s, this world has %s; %s: %s", op, ErrGridMismatch, saved, now, at, fix)
		}
		return fmt.Errorf("%s: %w: the save was made on %s, this world has %s: %s", op, ErrGridMismatch, saved, now, fix)
	}
	return nil
}
