package save

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc64"
	"math"

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
}

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
	return gridPrint{Width: g.Width(), Height: g.Height(), Costs: fmt.Sprintf("crc64:%016x", h)}
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
	if now := fingerprint(g); now != *saved {
		return fmt.Errorf("%s: %w: the save was made on %s, this world has %s: %s", op, ErrGridMismatch, saved, now, fix)
	}
	return nil
}
