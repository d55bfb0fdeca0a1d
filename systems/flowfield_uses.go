package systems

import "github.com/archai-go/archai/nav/grid"

// useScan is the length up to which a list of goal uses is searched by a
// scan (the common case: a few goals); past it, by a useIndex.
const useScan = 16

// useIndex finds the goalUses of a list, from a position on, in a hash table
// of their positions, so that listing n distinct goals costs about n steps
// and not the n²/2 comparisons of a scan (followers each with a goal of its
// own). It answers only membership: the list itself keeps the order of first
// use. A table is emptied by bumping its stamp, not cleared, and keeps its
// size, so that steady frames allocate nothing.
type useIndex struct {
	slots []uint64 // per slot: stamp<<32 | position in the list (from on); a slot of another stamp is free
	stamp uint32   // of the current list's entries; never 0 (the stamp of a new slot)
	n     int      // the list's entries indexed so far: list[from : from+n]
}

// reset readies x for a new list: no entry indexed.
func (x *useIndex) reset() {
	x.n = 0
	x.stamp++
	if x.stamp == 0 { // wrapped: slots may hold any stamp
		clear(x.slots)
		x.stamp = 1
	}
}

// useHash mixes u's fields into a word whose high bits pick a slot.
func useHash(u goalUse) uint64 {
	h := cellBits(u.goal)*0x9e3779b97f4a7c15 ^ cellBits(u.active)*0xc2b2ae3d27d4eb4f
	if u.other {
		h ^= 0x165667b19e3779f9
	}
	h ^= h >> 29
	return h * 0xbf58476d1ce4e5b9
}

// addUse adds u to list unless list[from:] holds it already, and returns
// the list. list[from:] must have been built by addUse with x, reset when
// the list (or from) began.
func addUse(list []goalUse, from int, u goalUse, x *useIndex) []goalUse {
	if len(list) > from && list[len(list)-1] == u {
		return list // most often: the agent before used the same goals
	}
	if len(list)-from <= useScan {
		for _, v := range list[from:] {
			if v == u {
				return list
			}
		}
		return append(list, u)
	}
	if 2*(len(list)-from+1) > len(x.slots) {
		x.grow(2 * (len(list) - from + 1))
	}
	for ; x.n < len(list)-from; x.n++ { // the entries listed by the scan, the first time
		x.place(list, from, x.n)
	}
	if x.lookup(list, from, u) >= 0 {
		return list
	}
	list = append(list, u)
	x.place(list, from, x.n)
	x.n++
	return list
}

// grow gives x at least size slots (a power of two), indexing again.
func (x *useIndex) grow(size int) {
	k := max(64, len(x.slots))
	for k < size {
		k *= 2
	}
	x.slots = make([]uint64, k)
	x.stamp, x.n = 1, 0
}

// lookup returns the slot of u, -1 if list[from:] does not hold it.
func (x *useIndex) lookup(list []goalUse, from int, u goalUse) int {
	mask := uint64(len(x.slots) - 1)
	for i := useHash(u) >> 32 & mask; ; i = (i + 1) & mask {
		e := x.slots[i]
		if uint32(e>>32) != x.stamp {
			return -1
		}
		if list[from+int(uint32(e))] == u {
			return int(i)
		}
	}
}

// place indexes list[from+k], not indexed yet (slots are at least twice
// the entries, so a free slot is found).
func (x *useIndex) place(list []goalUse, from, k int) {
	mask := uint64(len(x.slots) - 1)
	i := useHash(list[from+k]) >> 32 & mask
	for uint32(x.slots[i]>>32) == x.stamp {
		i = (i + 1) & mask
	}
	x.slots[i] = uint64(x.stamp)<<32 | uint64(uint32(k))
}

// cellScan is the length up to which a list of goals is searched by a scan
// (a few goals, the common case); past it, by a cellIndex.
const cellScan = 16

// cellIndex finds a goal cell's position in a list of distinct goals
// (FlowField.goals, ref and prev, rebuilt each frame; reaches and ground,
// kept from frame to frame), so that looking up each of n goals costs about
// n steps, not n²/2 (followers each with a goal of their own). A scan
// answers for lists of up to cellScan entries. The map is only looked up,
// never iterated (nothing decides by a map's order), and is cleared, not
// made again, so that steady frames allocate nothing.
type cellIndex struct {
	at map[grid.Cell]int32
	n  int // a list rebuilt each frame: its entries indexed so far (see sync)
}

// reset readies x for a list rebuilt from empty.
func (x *cellIndex) reset() {
	x.n = 0
	clear(x.at)
}

// sync indexes the entries of a list of n entries (the i-th's goal cell(i))
// that x has not indexed since its reset: the list must have kept its first
// x.n entries. Lists of up to cellScan entries are not indexed.
func (x *cellIndex) sync(n int, cell func(i int) grid.Cell) {
	if n <= cellScan {
		return
	}
	if x.at == nil {
		x.at = make(map[grid.Cell]int32, n)
	}
	for ; x.n < n; x.n++ {
		x.at[cell(x.n)] = int32(x.n)
	}
}

// find returns the position of c in a list of n entries (the i-th's goal
// cell(i)), -1 if absent. A list of more than cellScan entries must be
// synced (sync) or kept (set, del): find only reads, so workers may call it
// at once.
func (x *cellIndex) find(c grid.Cell, n int, cell func(i int) grid.Cell) int {
	if n <= cellScan {
		for i := range n {
			if cell(i) == c {
				return i
			}
		}
		return -1
	}
	if i, ok := x.at[c]; ok {
		return int(i)
	}
	return -1
}

// set notes that the entry at i of a kept list (reaches, ground: every
// entry indexed, at any length) holds goal c, replacing old, the goal it
// held (reused) unless fresh (appended).
func (x *cellIndex) set(c grid.Cell, i int, old grid.Cell, fresh bool) {
	if x.at == nil {
		x.at = make(map[grid.Cell]int32)
	}
	if !fresh {
		delete(x.at, old)
	}
	x.at[c] = int32(i)
}

// get returns the position of c in a kept list (see set), -1 if absent.
func (x *cellIndex) get(c grid.Cell) int {
	if i, ok := x.at[c]; ok {
		return int(i)
	}
	return -1
}
