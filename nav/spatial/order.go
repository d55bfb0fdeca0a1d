package spatial

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/r2"
)

// ErrTileSize is returned by [TileOrder] for a tile side that is not a
// positive finite number.
var ErrTileSize = errors.New("spatial: tile side must be positive and finite")

// TileOrder appends to dst[:0] the indices of ps (0 to len(ps)−1) in tile
// order and returns it: square tiles of side tile (world units, cells for
// positions from nav/grid), rows of tiles by increasing Y and tiles within a
// row by increasing X; inside a tile, unit cells row by row; equal keys keep
// their index order. Points with a NaN or infinite coordinate come last, in
// index order.
//
// Creating a crowd's entities in this order puts agents that are near each
// other next to each other in Arche's columns. Systems that visit agents in
// spatial order (Spatial's bucket sort, Steer's neighbour scans, FlowField's
// per-cell reads) then read and write memory nearly in sequence instead of at
// random: in the 100,000-agent swarm of cmd/bench (8-cell tiles) a frame
// takes about 15 % less CPU than with the agents created in random order.
// Agents that later move far apart keep their place in memory, so the gain
// lasts as long as neighbours stay neighbours (a crowd heading one way, a
// squad, guards around their posts).
//
// It allocates a key per point. Errors: [ErrTileSize].
func TileOrder(ps []r2.Vec, tile float64, dst []int32) ([]int32, error) {
	if !(tile > 0) || math.IsInf(tile, 1) {
		return dst[:0], ErrTileSize
	}
	type keyed struct {
		ty, tx, y, x float64 // tile row and column, unit cell row and column
		bad          bool    // a NaN or infinite coordinate
		i            int32
	}
	keys := make([]keyed, len(ps))
	for i, p := range ps {
		k := keyed{i: int32(i)}
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) {
			k.bad = true
		} else {
			k.ty, k.tx = math.Floor(p.Y/tile), math.Floor(p.X/tile)
			k.y, k.x = math.Floor(p.Y), math.Floor(p.X)
		}
		keys[i] = k
	}
	slices.SortStableFunc(keys, func(a, b keyed) int {
		switch {
		case a.bad || b.bad:
			if a.bad == b.bad {
				return 0
			}
			if a.bad {
				return 1
			}
			return -1
		}
		if c := cmp.Compare(a.ty, b.ty); c != 0 {
			return c
		}
		if c := cmp.Compare(a.tx, b.tx); c != 0 {
			return c
		}
		if c := cmp.Compare(a.y, b.y); c != 0 {
			return c
		}
		return cmp.Compare(a.x, b.x)
	})
	dst = dst[:0]
	for _, k := range keys {
		dst = append(dst, k.i)
	}
	return dst, nil
}
