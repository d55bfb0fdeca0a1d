package systems

import "github.com/archai-go/archai/nav/grid"

// wallBits is a bitmap of a grid's blocked cells, one bit a cell row by row,
// for Steer's wall feelers: 832² cells fit in 85 KiB, which stays in cache
// where the grid's costs (4 bytes a cell) do not. With it, a byte a cell
// (more) of how much farther than the cell's clearance the nearest blocked
// cell is in each of the four quadrants (2 bits each, up to 3): a byte, not
// the four distances, as a wider table missed the cache often enough to
// cost more than the feelers it settled (measured at 100,000 swarm agents).
//
// Both follow the grid's edits (see patch): after a few, only the cells
// near them are redone; a new grid, or very many edits, rebuilds them whole.
type wallBits struct {
	bits    []uint64
	more    []uint8 // per cell, 2 bits a quadrant: see square
	side    []uint8 // square's scratch
	edge    []uint8 // square's scratch: the row before a window
	clr     []uint8 // the grid's clearance at version
	w, h    int
	g       *grid.Grid
	version uint64
	edits   []grid.Cell  // patch's scratch
	wins    []wallWindow // patch's scratch

	// bitsOnly keeps the bitmap alone (Movement's wall checks): no quadrant
	// table, no clearance read, and an edit only flips its bit.
	bitsOnly bool

	// withBeside keeps besideWall, a bit a cell set when the cell or one of the
	// eight around it is blocked or off the grid (Movement's small discs:
	// movement_disc.go); an edit sets the bits of the nine cells about it.
	withBeside bool
	besideWall []uint64
}

// wallWindow is a rectangle of cells, x0 to x1 by y0 to y1 (inclusive).
type wallWindow struct{ x0, y0, x1, y1 int }

// wallPatchMax is the most cell edits since the last update that update
// patches; after more it rebuilds the tables whole.
const wallPatchMax = 256

// update brings the bitmap and the quadrant table up to date with g: a patch
// of the cells near its edits when it can, else a rebuild.
func (b *wallBits) update(g *grid.Grid) {
	if b.g == g && b.version == g.Version() && b.bits != nil {
		return
	}
	if b.g == g && b.bits != nil && b.w == g.Width() && b.h == g.Height() && b.patch(g) {
		b.version = g.Version()
		return
	}
	b.rebuild(g)
}

// rebuild builds the bitmap and the quadrant table of g whole.
func (b *wallBits) rebuild(g *grid.Grid) {
	b.g, b.version, b.w, b.h = g, g.Version(), g.Width(), g.Height()
	n := b.w * b.h
	if cap(b.bits) < (n+63)/64 {
		b.bits = make([]uint64, (n+63)/64)
	}
	b.bits = b.bits[:(n+63)/64]
	clear(b.bits)
	for y := range b.h {
		for x := range b.w {
			if !g.Passable(grid.Cell{X: int32(x), Y: int32(y)}) {
				i := y*b.w + x
				b.bits[i>>6] |= 1 << (i & 63)
			}
		}
	}
	if b.withBeside {
		b.rebuildBeside()
	}
	if b.bitsOnly {
		return
	}
	b.more = grow(b.more, n)
	b.side = grow(b.side, n)
	b.clr = grow(b.clr, n)
	b.edge = grow(b.edge, b.w)
	for i := range b.clr {
		b.clr[i] = g.Clearance(grid.Cell{X: int32(i % b.w), Y: int32(i / b.w)})
	}
	if !b.settle(wallWindow{x0: 0, y0: 0, x1: b.w - 1, y1: b.h - 1}) {
		clear(b.more) // never, as the clearance is the least side of the four; but if so, no quadrant claims more
	}
}

// patch brings the tables from b.version up to g's edits since, and reports
// whether it could (false: too many edits, the edit log forgotten, or a
// table found wrong; the tables are then left for rebuild, with b.version
// 0 so that no later patch starts from them).
//
// The bound: a cell's byte and its clearance c depend only on the blocked
// cells at most min(c+2, 254) cells (Chebyshev) from it: the clearance is the
// nearest one's distance, each quadrant's excess is settled by those up to
// c+2 away (3, the most the byte holds, meaning "c+3 or more"), and both are
// capped at 255. So an edited cell e (one whose blockedness changed)
// changes only cells i with d(i, e) ≤ min(c(i)+2, 254) for c the clearance
// before the edits and for c after (the rule holds in either grid, and the
// least of the two is one of them). That function is 1-Lipschitz, so if no
// cell of the ring d cells from e passes, no cell of a farther ring does
// (each has a neighbour on the ring one nearer, the step towards e, inside
// the grid): window walks the rings out from e to the first that has none.
// Next to a wall, where clearances are small, that is a few cells; in the
// open it can reach 254.
//
// The windows that overlap or touch are merged, the cells in them get the
// grid's new clearance, and their bytes are settled again from those
// clearances and the bytes around the window (see settle): the work is the
// windows' area, never more than the grid's.
func (b *wallBits) patch(g *grid.Grid) bool {
	var ok bool
	b.edits, ok = g.EditsSince(b.version, b.edits[:0])
	if !ok || len(b.edits) > wallPatchMax {
		return false
	}
	n := 0
	for _, c := range b.edits { // newest first; a cell edited back and forth is no change
		i := int(c.Y)*b.w + int(c.X)
		if (b.bits[i>>6]&(1<<(i&63)) != 0) == g.Passable(c) {
			b.bits[i>>6] ^= 1 << (i & 63)
			b.edits[n] = c
			n++
		}
	}
	if b.withBeside {
		for _, c := range b.edits[:n] {
			b.patchBeside(c)
		}
	}
	if b.bitsOnly {
		return true
	}
	wins, area := b.wins[:0], 0
	for _, c := range b.edits[:n] {
		win := b.window(g, c)
		// each window's ring walk read about its area: past the grid's, a
		// rebuild is cheaper (many edits in the open)
		if area += (win.x1 - win.x0 + 1) * (win.y1 - win.y0 + 1); area > b.w*b.h {
			b.wins = wins
			return false
		}
		wins = addWallWindow(wins, win)
	}
	b.wins = wins
	for _, win := range wins {
		for y := win.y0; y <= win.y1; y++ {
			for x := win.x0; x <= win.x1; x++ {
				b.clr[y*b.w+x] = g.Clearance(grid.Cell{X: int32(x), Y: int32(y)})
			}
		}
	}
	for _, win := range wins {
		if !b.settle(win) {
			b.version = 0 // the bitmap is ahead of the table: a later patch would fail (EditsSince(0))
			return false
		}
	}
	return true
}

// window returns the cells an edit of e can change (see patch), a square
// around e cut at the grid's edges. b.clr holds the clearance from before
// the edits, g's from after.
func (b *wallBits) window(g *grid.Grid, e grid.Cell) wallWindow {
	ex, ey := int(e.X), int(e.Y)
	r := 0
	for r < 254 && b.ringNear(g, ex, ey, r+1) {
		r++
	}
	return wallWindow{x0: max(ex-r, 0), y0: max(ey-r, 0), x1: min(ex+r, b.w-1), y1: min(ey+r, b.h-1)}
}

// ringNear reports whether a cell of the grid d cells (Chebyshev) from
// (ex, ey) has a clearance of d−2 or more both before and after the edits.
func (b *wallBits) ringNear(g *grid.Grid, ex, ey, d int) bool {
	x0, x1 := max(ex-d, 0), min(ex+d, b.w-1)
	for _, y := range [2]int{ey - d, ey + d} {
		if y >= 0 && y < b.h {
			for x := x0; x <= x1; x++ {
				if b.near(g, x, y, d) {
					return true
				}
			}
		}
	}
	y0, y1 := max(ey-d+1, 0), min(ey+d-1, b.h-1)
	for _, x := range [2]int{ex - d, ex + d} {
		if x >= 0 && x < b.w {
			for y := y0; y <= y1; y++ {
				if b.near(g, x, y, d) {
					return true
				}
			}
		}
	}
	return false
}

// near reports whether cell (x, y)'s clearance, before the edits and after,
// is d−2 or more.
func (b *wallBits) near(g *grid.Grid, x, y, d int) bool {
	c := min(b.clr[y*b.w+x], g.Clearance(grid.Cell{X: int32(x), Y: int32(y)}))
	return int(c)+2 >= d
}

// addWallWindow adds win to wins, whose windows neither overlap nor touch,
// merging it with those it overlaps or touches into their bounding box.
func addWallWindow(wins []wallWindow, win wallWindow) []wallWindow {
	for i := 0; i < len(wins); {
		o := wins[i]
		if o.x0 <= win.x1+1 && win.x0 <= o.x1+1 && o.y0 <= win.y1+1 && win.y0 <= o.y1+1 {
			win = wallWindow{x0: min(o.x0, win.x0), y0: min(o.y0, win.y0), x1: max(o.x1, win.x1), y1: max(o.y1, win.y1)}
			wins[i] = wins[len(wins)-1]
			wins = wins[:len(wins)-1]
			i = 0 // the larger window may now touch one passed over
			continue
		}
		i++
	}
	return append(wins, win)
}

// settle sets the bytes of win's cells from b.clr (a blocked cell has
// clearance 0) and the bytes and clearances of the cells around win, and
// reports false (leaving them half done) if a quadrant's distance came out
// less than the clearance, which never happens. The cells around win must
// be right already: they are off the grid, or outside every window of patch
// (windows neither overlap nor touch), so their bytes and clearances are as
// before the edits.
//
// A byte holds, for quadrant q, T − c with T = min(s, c+3), for s the side
// of the cell's clear square in q (see square) and c its clearance. T
// follows s's recurrence, capped: T = min(c+3, 1 + the least T of the three
// neighbours away from the corner), 0 for a blocked cell, as a neighbour's
// cap c'+3 ≥ c+2 (neighbours' clearances differ by at most 1) never decides
// the least. So win's cells are walked in the square's order, each
// quadrant in turn, from the T of the cells around win (clearance + byte),
// with no cell beyond them: the work is win's area, four times.
func (b *wallBits) settle(win wallWindow) bool {
	for q := range 4 {
		if !b.square(q, win) {
			return false
		}
	}
	return true
}

// outside is T (see settle) of cell (x, y) for quadrant q from its byte and
// clearance, 0 off the grid.
func (b *wallBits) outside(x, y, q int) int {
	if x < 0 || y < 0 || x >= b.w || y >= b.h {
		return 0
	}
	i := y*b.w + x
	return int(b.clr[i]) + int(b.more[i]>>(2*q)&3)
}

// square fills b.side over win with quadrant q's distances capped at the
// clearance + 3 (q&1: towards −x, q&2: towards −y), from b.clr (a blocked
// cell is one of clearance 0) and the bytes around win. Uncapped, s is the side
// of the largest square of clear cells with the cell as its corner reaching
// into the quadrant (0 for a blocked cell; cells off the grid count as
// blocked), so the nearest blocked cell (dx, dy) with dx, dy of the
// quadrant's signs or 0 is s cells away (Chebyshev), never nearer: the
// classic recurrence, 1 + the least of the three neighbours' sides away from
// the corner; also capped at 255. The table keeps, in bits 2q and 2q+1 of
// b.more, how much it exceeds the cell's clearance (at most 3): square
// writes them as it goes, and reports false (never) if a distance is less
// than the clearance.
func (b *wallBits) square(q int, win wallWindow) bool {
	w, sh := b.w, uint(2*q)
	xs, step := win.x1, -1 // each row's first cell in the walk, and the step
	if q&1 != 0 {
		xs, step = win.x0, 1
	}
	nxs := xs - step // the column before the first cells, outside win
	for j := range win.y1 - win.y0 + 1 {
		y, ny := win.y1-j, win.y1-j+1 // the rows away from the corner first; ny the row before y in the walk
		if q&2 != 0 {
			y, ny = win.y0+j, win.y0+j-1
		}
		row, clr, more := b.side[y*w:(y+1)*w], b.clr[y*w:(y+1)*w], b.more[y*w:(y+1)*w]
		prev := b.edge // row ny: outside win before the walk's first row
		if j > 0 {
			prev = b.side[ny*w : (ny+1)*w]
		} else {
			for x := win.x0; x <= win.x1; x++ {
				prev[x] = uint8(b.outside(x, ny, q))
			}
		}
		// s = min(1 + the least, c+3, 255) = 1 + min(the least, min(c, 252)+2)
		// in bytes; a blocked cell is one of clearance 0
		x := xs
		s, c := uint8(0), clr[x]
		if c != 0 {
			m := min(b.outside(nxs, y, q), int(prev[x]), b.outside(nxs, ny, q), int(min(c, 252))+2)
			s = uint8(1 + m)
		}
		if s < c {
			return false
		}
		row[x], more[x] = s, more[x]&^(3<<sh)|(s-c)<<sh
		for range win.x1 - win.x0 {
			nx := x
			x += step
			s, c := uint8(0), clr[x]
			if c != 0 {
				s = 1 + min(row[nx], prev[x], prev[nx], min(c, 252)+2)
			}
			if s < c {
				return false
			}
			row[x], more[x] = s, more[x]&^(3<<sh)|(s-c)<<sh
		}
	}
	return true
}
