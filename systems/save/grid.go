package save

import (
	"bytes"
	"encoding/json"
	"fmt"
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
	Costs  string `json:"costs"` // "fnv1a64:" and 16 hex digits: FNV-1a over the costs, see fingerprint
}

// fingerprint returns g's fingerprint: FNV-1a (64 bits: offset basis
// 14695981039346656037, prime 1099511628211) taken over 64-bit words rather than
// bytes, each word two cells' float32 bits (the first cell in the low half; a last odd
// cell alone), in row-major order. Each step is a bijection of the state, so grids
// differing in one cell never share a fingerprint; one multiplication per two cells
// makes it about 2 ns a cell on the 2-core development machine (an 8192×8192 grid in
// an eighth of a second).
func fingerprint(g *grid.Grid) gridPrint {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	c := g.Costs()
	i := 0
	for ; i+1 < len(c); i += 2 {
		h = (h ^ (uint64(math.Float32bits(c[i])) | uint64(math.Float32bits(c[i+1]))<<32)) * prime
	}
	if i < len(c) {
		h = (h ^ uint64(math.Float32bits(c[i]))) * prime
	}
	return gridPrint{Width: g.Width(), Height: g.Height(), Costs: fmt.Sprintf("fnv1a64:%016x", h)}
}

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
	if p.Width <= 0 || p.Height <= 0 || len(p.Costs) != len("fnv1a64:")+16 {
		return nil, false, fmt.Errorf("grid: %w: %dx%d, costs %q: not a grid fingerprint", ErrFormat, p.Width, p.Height, p.Costs)
	}
	return &p, true, nil
}

// checkGrid returns an error wrapping ErrGridMismatch if the world's grid g (nil: none)
// is not the one the file's fingerprint saved describes (nil: the saved world had none).
func checkGrid(saved *gridPrint, g *grid.Grid) error {
	const fix = "add the saved run's grid (the same map, with the edits it had when saved: doors, bridges) before LoadInto or Restore"
	switch {
	case saved == nil && g == nil:
		return nil
	case saved == nil:
		return fmt.Errorf("load: %w: the save was made from a world without a grid, this world has %s: load it into a world without one", ErrGridMismatch, fingerprint(g))
	case g == nil:
		return fmt.Errorf("load: %w: the save was made on %s, this world has no *grid.Grid resource: %s", ErrGridMismatch, saved, fix)
	}
	if now := fingerprint(g); now != *saved {
		return fmt.Errorf("load: %w: the save was made on %s, this world has %s: %s", ErrGridMismatch, saved, now, fix)
	}
	return nil
}
