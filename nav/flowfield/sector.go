package flowfield

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/archai-go/archai/nav/grid"
)

// DefaultSectorSize is the side of a sector in cells when [NewSectors] is
// given 0.
const DefaultSectorSize = 64

// MaxPortalWidth is the most cells one portal spans: a longer opening
// between two sectors is cut into portals of at most this many cells, so
// that routes through a wide opening need not bend to its middle.
const MaxPortalWidth = 64

// ErrSectorSize is returned by [NewSectors] for a sector side below 4 or
// above 256 cells.
var ErrSectorSize = errors.New("flowfield: sector size must be 4 to 256 cells (0 for the default)")

// MaxSectorBuildBytes is the most memory [NewSectors] accepts to allocate
// while building, by [SectorBuildBytes]' estimate: 1 GiB.
const MaxSectorBuildBytes = 1 << 30

// ErrSectorMemory is returned by [NewSectors] when its estimate of the
// memory the build allocates ([SectorBuildBytes]) is over
// [MaxSectorBuildBytes]: sectors too small for the map.
var ErrSectorMemory = errors.New("flowfield: sectors too small for the grid")

// SectorBuildBytes estimates the bytes [NewSectors] allocates while building
// sectors of size×size cells (DefaultSectorSize for 0) over a width×height
// grid: 1,700 per sector (measured: 104 bytes a cell, 1,664 a sector, for
// 4-cell sectors on an open 1024² grid; 864 a sector on a corridor one cell
// wide) plus 4 per cell (the node directions, about 2 to 5 bytes a cell with
// 64-cell sectors). About 7.1 GB for 4-cell sectors over 8192², 1.8 GB over
// 4096², 446 MB over 2048²; 64-cell sectors over 8192²: 0.3 GB.
func SectorBuildBytes(width, height, size int) int64 {
	if size == 0 {
		size = DefaultSectorSize
	}
	if size <= 0 || width <= 0 || height <= 0 {
		return 0
	}
	sectors := int64((width+size-1)/size) * int64((height+size-1)/size)
	return sectors*1700 + int64(width)*int64(height)*4
}

// Sectors is the static layer of sector flow fields (Emerson, "Crowd
// Pathfinding and Steering Using Flow Field Tiles", Game AI Pro ch. 23,
// section 23.4): the grid cut into square sectors, portals on the edges they
// share, and a portal graph. Route queries use it through [SectorField].
//
//   - A portal is a run of at most [MaxPortalWidth] cell pairs across the
//     edge of two side-by-side sectors, both passable. It has a node on
//     each side, at the run's middle cell; the two nodes are joined by the
//     move across (costing the entered cell's cost).
//   - Inside each sector, a Dijkstra search restricted to the sector from
//     every node gives the costs between the sector's nodes (the graph's
//     edges) and a direction field towards that node, kept at 4 bits per
//     cell: an agent in a sector whose field is not built yet walks by it
//     to its next portal, around walls, at once (see [SectorField.Next]).
//
// Memory: about nodes-per-sector/2 bytes per cell for the node directions
// (kept node by node, so that the agents of a sector heading for the same
// exit read one small run of memory)
// (about 5 bytes per cell on town-like maps with 64-cell sectors), and 8
// bytes per sector for a checksum of its costs. Construction runs the per-node searches (one Dijkstra
// over the sector per node) on runtime.GOMAXPROCS goroutines: about 11 s
// for a 4096² town map of 41,000 nodes on a shared 2-core machine.
//
// Important: the per-sector and per-node overheads dominate with small
// sectors. Measured on an open 1024² grid with 4-cell sectors (261,120
// nodes): 39 bytes per cell kept, 104 allocated while building (1.8 s), and
// 20 more per cell for each [SectorField]'s portal search; on a corridor one
// cell wide (1×2²⁰), 84 kept and 216 allocated. So 4-cell sectors over a
// map near [grid.MaxCells] take gigabytes (about 2.6 GiB kept and 7 GiB at
// the peak for 8192²); with 64-cell sectors the same 1024² grid keeps 2
// bytes per cell. Choose the side for the map: 32 to 64 cells on big maps.
// [NewSectors] refuses a side whose build it estimates over
// [MaxSectorBuildBytes] ([ErrSectorMemory]).
//
// Grid edits: [Sectors.Refresh] (called by [SectorField.Update]) finds the
// sectors whose costs changed since the last look, recomputes the portals
// and redoes the per-node searches of those sectors and of the sectors
// whose portals changed, and nothing else. A sector's costs count as changed
// when their 64-bit checksum does (a change that keeps it, at odds of about
// 2⁻⁶⁴, would go unseen); a sector's checksum covers the ring of cells
// around it too, which its searches read (whether its costs are uniform
// picks the search, and so the direction kept among equally short ones).
// The checksums are taken again only for the sectors holding, or bordering,
// the cells the grid logged as edited ([grid.Grid.EditsSince]), or for
// every sector when the grid no longer remembers every edit. A refresh that
// recomputes fewer than 8 sectors runs on the calling goroutine and, from
// the second edit on, allocates nothing (the first makes its scratch: a
// node array and a solver, about 50 bytes per node and 10 per cell of a
// sector); more run on runtime.GOMAXPROCS goroutines.
//
// A Sectors is not safe for concurrent writes; once built (or refreshed),
// any number of goroutines may read it.
type Sectors struct {
	g      *grid.Grid
	size   int    // sector side in cells
	shift  int    // log2(size) when size is a power of two, else -1
	sw, sh int    // sectors across and down
	gw, gh int    // the grid's size they cut (see layOut)
	layout uint64 // bumps whenever the grid is cut anew (its size changed): sector indices change meaning
	secs   []sector
	nodes  []portalNode
	sums   []uint64    // per sector: a checksum of its costs at ver (see sectorSum)
	edits  []grid.Cell // Refresh's scratch: the cells edited since ver
	ver    uint64      // grid version last looked at
	graph  uint64      // bumps whenever nodes or sector data change
	minC   float32     // the grid's smallest cost at ver
	ring   int         // buckets of the portal search's bucket queue (a power of two), 0 for its heap

	// The portal search's compact copy of the graph (see searchBuckets),
	// rebuilt with the nodes: per node what relaxing it reads, 16 bytes;
	// the first node of each sector (nodes are numbered by sector, plus
	// one past the last); and every sector's node costs (its dist) one
	// after the other, sector by sector.
	sn      []searchNode
	secBase []int32
	pool    []float32
	nc      []nodeCells // per node: its cell and its partner's, for the exits' records

	// rebuild's scratch, kept so that a grid edit (a few sectors to search)
	// allocates nothing once they have grown: the dirty flags, the node
	// array not in use (findPortals and renumber fill the two in turn),
	// renumber's new ids, the sectors to search, the next one to take, and
	// the calling goroutine's solver (a rebuild of many sectors makes one
	// for each other worker)
	dirty  []bool
	spare  []portalNode
	newID  []int32
	todo   []int
	next   atomic.Int64
	solver *localSolver
}

// nodeCells is a node's cell and its partner's, across the portal.
type nodeCells struct {
	cell, across grid.Cell
}

// searchNode is what the portal search reads of a node.
type searchNode struct {
	partner int32   // the node on the other side of its portal
	enter   float32 // the cost of stepping from the partner into this node's cell
	row     int32   // pool[row:][:k] is the cost from each node of its sector to it (k nodes)
	sector  int32
}

// sector is one sector's part of the graph.
type sector struct {
	x0, y0, w, h int32
	nodes        []int32   // node ids inside this sector
	dist         []float32 // k×k, k = len(nodes): dist[j·k+i] is the cost from node i to node j inside the sector, +Inf when none
	dirs         []byte    // per node, per cell (row-major over w×h): 4-bit direction codes towards the node, two cells a byte; node j's plane is dirs[j·plane:][:plane], cell i's code in it the low (even i) or high (odd i) half of byte i/2
	plane        int       // bytes per node in dirs: (w·h+1)/2
	conn         bool      // every node is reached from every passable cell of the sector (no nibNone but on blocked cells)
	version      uint64    // bumps when the sector's costs or nodes change
}

// portalNode is one side of a portal.
type portalNode struct {
	cell    grid.Cell // the middle cell of the run on this side
	first   grid.Cell // the run's first cell on this side
	along   grid.Cell // the step along the run: (1,0) or (0,1)
	n, mid  int32     // the run's length, and cell's position in it
	sector  int32
	slot    int32   // its index in the sector's nodes
	partner int32   // the node on the other side
	enter   float32 // the cost of entering cell
}

// 4-bit direction codes of the per-node direction fields: 0..7 index
// neighbourOffsets.
const (
	nibGoal = 8  // the node's own cell
	nibNone = 15 // no way to the node inside the sector
)

// NewSectors cuts g into sectors of size×size cells (DefaultSectorSize if
// size is 0) and builds the portal graph.
//
// Errors: [ErrSectorSize] when size is not 0 and below 4 or above 256;
// [ErrSectorMemory] when the build would allocate more than
// [MaxSectorBuildBytes] by [SectorBuildBytes]' estimate (such as 4-cell
// sectors over 4096² cells: choose larger sectors), before allocating any.
func NewSectors(g *grid.Grid, size int) (*Sectors, error) {
	if size == 0 {
		size = DefaultSectorSize
	}
	if size < 4 || size > 256 {
		return nil, fmt.Errorf("%w: got %d", ErrSectorSize, size)
	}
	if b := SectorBuildBytes(g.Width(), g.Height(), size); b > MaxSectorBuildBytes {
		least := size
		for least < 256 && SectorBuildBytes(g.Width(), g.Height(), least) > MaxSectorBuildBytes {
			least++
		}
		return nil, fmt.Errorf("%w: %d-cell sectors over %d×%d cells would allocate about %d MiB while building, over the limit of %d MiB (flowfield.MaxSectorBuildBytes); use sectors of %d cells or more (32 to 64 on big maps)",
			ErrSectorMemory, size, g.Width(), g.Height(), b>>20, MaxSectorBuildBytes>>20, least)
	}
	s := &Sectors{g: g, size: size, shift: -1}
	if size&(size-1) == 0 {
		s.shift = bits.TrailingZeros(uint(size))
	}
	s.layOut()
	// the scratch of edits is made by the first edit: a layer whose grid
	// never changes keeps no spare node array or solver
	s.spare, s.newID, s.solver = nil, nil, nil
	return s, nil
}

// layOut cuts the grid as it is now into sectors and builds the portal graph
// from nothing: NewSectors, and Refresh once the grid's size changed.
func (s *Sectors) layOut() {
	g, size := s.g, s.size
	s.gw, s.gh = g.Width(), g.Height()
	s.sw = (s.gw + size - 1) / size
	s.sh = (s.gh + size - 1) / size
	s.secs = make([]sector, s.sw*s.sh)
	for i := range s.secs {
		x0, y0 := (i%s.sw)*size, (i/s.sw)*size
		s.secs[i] = sector{x0: int32(x0), y0: int32(y0), w: int32(min(size, s.gw-x0)), h: int32(min(size, s.gh-y0))}
	}
	s.sums = make([]uint64, len(s.secs))
	for i := range s.sums {
		s.sums[i] = s.sectorSum(i)
	}
	s.ver = g.Version()
	s.minC = g.MinCost()
	s.dirty = resizeBools(s.dirty, len(s.secs))
	for i := range s.dirty {
		s.dirty[i] = true
	}
	s.secBase = s.secBase[:0] // no node of the old layout is compared with the new ones
	s.layout++
	s.rebuild(s.dirty)
}

// Grid returns the grid.
func (s *Sectors) Grid() *grid.Grid { return s.g }

// Size returns the side of a sector in cells.
func (s *Sectors) Size() int { return s.size }

// Count returns the number of sectors across and down.
func (s *Sectors) Count() (across, down int) { return s.sw, s.sh }

// Nodes returns the number of portal nodes (two per portal).
func (s *Sectors) Nodes() int { return len(s.nodes) }

// SectorOf returns the index of the sector holding c (row-major), or -1
// when c is outside the grid.
func (s *Sectors) SectorOf(c grid.Cell) int {
	if c.X < 0 || c.Y < 0 || int(c.X) >= s.gw || int(c.Y) >= s.gh {
		return -1
	}
	if s.shift >= 0 {
		return int(c.Y)>>s.shift*s.sw + int(c.X)>>s.shift
	}
	return int(c.Y)/s.size*s.sw + int(c.X)/s.size
}

// Refresh brings the portal graph up to date with the grid's costs and
// returns the number of sectors whose data was recomputed (0 when the grid
// did not change). When the grid's size changed (a map of another size
// copied over it in place, *g = *other.Clone()), it cuts the grid anew, as
// [NewSectors] does, and returns the new number of sectors; sector indices
// then name other sectors, and each [SectorField] drops its built sectors and
// requests at its next Update or SetGoal (no cell has a direction until
// then).
func (s *Sectors) Refresh() int {
	if s.ver == s.g.Version() {
		return 0
	}
	if s.g.Width() != s.gw || s.g.Height() != s.gh { // another map copied over the grid in place
		s.layOut()
		return len(s.secs)
	}
	s.dirty = resizeBools(s.dirty, len(s.secs))
	dirty := s.dirty
	var ok bool
	if s.edits, ok = s.g.EditsSince(s.ver, s.edits[:0]); ok {
		for _, c := range s.edits { // the sectors to look at: those edited, and those whose ring holds c
			for dy := int32(-1); dy <= 1; dy++ {
				for dx := int32(-1); dx <= 1; dx++ {
					if k := s.SectorOf(grid.Cell{X: c.X + dx, Y: c.Y + dy}); k >= 0 {
						dirty[k] = true
					}
				}
			}
		}
	} else { // the grid forgot some edits: every sector
		for i := range dirty {
			dirty[i] = true
		}
	}
	any := false
	for i, d := range dirty {
		if !d {
			continue
		}
		if sum := s.sectorSum(i); sum != s.sums[i] {
			s.sums[i], any = sum, true
		} else {
			dirty[i] = false // edited back as it was
		}
	}
	s.ver = s.g.Version()
	s.minC = s.g.MinCost()
	if !any {
		return 0
	}
	return s.rebuild(dirty)
}

// sectorSum returns a checksum of the costs of sector i and of its ring
// (the cells around it, which the sector's searches read: see localSolver)
// (their bits, in row-major order): a 64-bit multiply-xorshift hash, so
// that sectors whose costs differ get different sums but at odds of about
// 2⁻⁶⁴.
func (s *Sectors) sectorSum(i int) uint64 {
	sec := &s.secs[i]
	costs, w := s.g.Costs(), s.g.Width()
	x0, x1 := max(int(sec.x0)-1, 0), min(int(sec.x0+sec.w)+1, w)
	y0, y1 := max(int(sec.y0)-1, 0), min(int(sec.y0+sec.h)+1, s.g.Height())
	h := uint64(0x243f6a8885a308d3) ^ uint64(i)
	for y := y0; y < y1; y++ {
		for _, c := range costs[y*w+x0 : y*w+x1] {
			h = (h ^ uint64(math.Float32bits(c))) * 0x9e3779b97f4a7c15
			h ^= h >> 32
		}
	}
	return h
}

// rebuild recomputes the portals, and the per-node searches of the dirty
// sectors and of those whose nodes changed. It returns the number of
// sectors recomputed.
func (s *Sectors) rebuild(dirty []bool) int {
	// the new nodes go to the spare array, the old ones stay in s.nodes
	// until compared: each sector's, sector i's from secBase[i] (compact),
	// as the nodes are numbered sector by sector (renumber)
	prev := s.nodes
	for i := range s.secs {
		s.secs[i].nodes = s.secs[i].nodes[:0]
	}
	s.nodes = s.spare[:0]
	s.findPortals()
	s.todo = s.todo[:0]
	for i := range s.secs {
		var before []portalNode
		if len(s.secBase) == len(s.secs)+1 {
			before = prev[s.secBase[i]:s.secBase[i+1]]
		}
		if dirty[i] || !sameNodes(before, s.nodes, s.secs[i].nodes) {
			s.todo = append(s.todo, i)
			s.secs[i].version++
		}
	}
	s.spare = prev[:0]
	s.renumber()
	s.graph++
	workers := min(runtime.GOMAXPROCS(0), max(1, len(s.todo)/4))
	if s.solver == nil {
		s.solver = newLocalSolver(s.size)
	}
	if workers == 1 { // a few sectors (a grid edit): on the calling goroutine
		for _, i := range s.todo {
			s.searchSector(s.solver, i)
		}
	} else { // the calling goroutine and workers−1 more, each with its solver
		s.next.Store(0)
		work := func(ls *localSolver) {
			for {
				j := int(s.next.Add(1)) - 1
				if j >= len(s.todo) {
					return
				}
				s.searchSector(ls, s.todo[j])
			}
		}
		var wg sync.WaitGroup
		for range workers - 1 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				work(newLocalSolver(s.size))
			}()
		}
		work(s.solver)
		wg.Wait()
	}
	s.compact()
	// The portal search's bucket queue: buckets as wide as the cheapest
	// edge (a move into a cell of the smallest cost), enough of them to
	// span the farthest push, an in-sector cost plus a portal's crossing
	// (searchBuckets relaxes a node's partner when it relaxes the node).
	maxCost, maxDist := s.g.MaxCost(), float32(0) // the largest passable cost, kept by the grid (no scan)
	for _, d := range s.pool {
		if d <= math.MaxFloat32 {
			maxDist = max(maxDist, d)
		}
	}
	s.ring = 0
	if span := (float64(maxDist)+float64(maxCost))/float64(s.minC) + 3; span < 1<<20 {
		s.ring = 1
		for float64(s.ring) < span {
			s.ring <<= 1
		}
	}
	return len(s.todo)
}

// compact fills the portal search's copy of the graph (sn, secBase, pool)
// from the nodes and the sectors' node costs.
func (s *Sectors) compact() {
	n := len(s.nodes)
	if cap(s.sn) < n {
		s.sn = make([]searchNode, n)
	}
	s.sn = s.sn[:n]
	if cap(s.secBase) < len(s.secs)+1 {
		s.secBase = make([]int32, len(s.secs)+1)
	}
	s.secBase = s.secBase[:len(s.secs)+1]
	if cap(s.nc) < n {
		s.nc = make([]nodeCells, n)
	}
	s.nc = s.nc[:n]
	for v := range s.nodes {
		s.nc[v] = nodeCells{s.nodes[v].cell, s.nodes[s.nodes[v].partner].cell}
	}
	total := 0
	for i := range s.secs {
		total += len(s.secs[i].dist)
	}
	s.pool = resize(s.pool, total)
	off, id := 0, int32(0)
	for i := range s.secs {
		sec := &s.secs[i]
		s.secBase[i] = id
		k := len(sec.nodes)
		copy(s.pool[off:], sec.dist)
		for j, v := range sec.nodes {
			nd := &s.nodes[v]
			s.sn[v] = searchNode{partner: nd.partner, enter: nd.enter, row: int32(off + j*k), sector: int32(i)}
		}
		off += len(sec.dist)
		id += int32(k)
	}
	s.secBase[len(s.secs)] = id
}

// sameNodes reports whether a sector's new nodes (ids into nodes) have the
// same runs as before (partners may be renumbered).
func sameNodes(before []portalNode, nodes []portalNode, ids []int32) bool {
	if len(before) != len(ids) {
		return false
	}
	for k, id := range ids {
		a, b := before[k], nodes[id]
		if a.cell != b.cell || a.first != b.first || a.n != b.n {
			return false
		}
	}
	return true
}

// findPortals cuts every edge between side-by-side sectors into runs of
// passable cell pairs, at most MaxPortalWidth long, and adds a node on each
// side of each.
func (s *Sectors) findPortals() {
	g := s.g
	add := func(a0, b0, along grid.Cell, n int32) {
		mid := n / 2
		ia, ib := int32(len(s.nodes)), int32(len(s.nodes)+1)
		mk := func(first grid.Cell, partner int32) portalNode {
			c := grid.Cell{X: first.X + along.X*mid, Y: first.Y + along.Y*mid}
			return portalNode{cell: c, first: first, along: along, n: n, mid: mid, sector: int32(s.SectorOf(c)), partner: partner, enter: g.Cost(c)}
		}
		s.nodes = append(s.nodes, mk(a0, ib), mk(b0, ia))
		for _, id := range []int32{ia, ib} {
			sec := &s.secs[s.nodes[id].sector]
			s.nodes[id].slot = int32(len(sec.nodes))
			sec.nodes = append(sec.nodes, id)
		}
	}
	scan := func(a, across, along grid.Cell, length int) {
		var n int32
		var a0, b0 grid.Cell
		flush := func() {
			if n > 0 {
				add(a0, b0, along, n)
			}
			n = 0
		}
		for i := 0; i < length; i++ {
			ca := grid.Cell{X: a.X + along.X*int32(i), Y: a.Y + along.Y*int32(i)}
			cb := grid.Cell{X: ca.X + across.X, Y: ca.Y + across.Y}
			if !g.Passable(ca) || !g.Passable(cb) {
				flush()
				continue
			}
			if n == 0 {
				a0, b0 = ca, cb
			}
			n++
			if n == MaxPortalWidth {
				flush()
			}
		}
		flush()
	}
	for sy := 0; sy < s.sh; sy++ {
		for sx := 0; sx < s.sw; sx++ {
			sec := &s.secs[sy*s.sw+sx]
			if sx+1 < s.sw { // the edge to the right
				x := sec.x0 + sec.w - 1
				scan(grid.Cell{X: x, Y: sec.y0}, grid.Cell{X: 1}, grid.Cell{Y: 1}, int(sec.h))
			}
			if sy+1 < s.sh { // the edge below
				y := sec.y0 + sec.h - 1
				scan(grid.Cell{X: sec.x0, Y: y}, grid.Cell{Y: 1}, grid.Cell{X: 1}, int(sec.w))
			}
		}
	}
}

// renumber gives the nodes of each sector consecutive ids, sector by
// sector, so that the portal search reads a sector's node costs from one
// run of memory.
func (s *Sectors) renumber() {
	n := len(s.nodes)
	if cap(s.newID) < n {
		s.newID = make([]int32, n)
	}
	newID := s.newID[:n]
	k := int32(0)
	for i := range s.secs {
		for _, id := range s.secs[i].nodes {
			newID[id] = k
			k++
		}
	}
	if cap(s.spare) < n {
		s.spare = make([]portalNode, n)
	}
	nodes := s.spare[:n]
	for id, nd := range s.nodes {
		nd.partner = newID[nd.partner]
		nodes[newID[id]] = nd
	}
	s.nodes, s.spare = nodes, s.nodes[:0]
	for i := range s.secs {
		for j, id := range s.secs[i].nodes {
			s.secs[i].nodes[j] = newID[id]
		}
	}
}

// searchSector runs the search towards each node of sector i inside it,
// filling its node costs and direction fields.
func (s *Sectors) searchSector(ls *localSolver, i int) {
	sec := &s.secs[i]
	k := len(sec.nodes)
	sec.dist = resize(sec.dist, k*k)
	cells := int(sec.w * sec.h)
	sec.plane = (cells + 1) / 2
	sec.dirs = resizeBytes(sec.dirs, k*sec.plane)
	w := int(sec.w)
	if w&1 != 0 { // odd rows: the codes are ORed in below
		clear(sec.dirs)
	}
	sec.conn = true
	ls.load(s.g, int(sec.x0), int(sec.y0), int(sec.w), int(sec.h))
	ls.loadMoves()
	outs := 0 // the sector's cells not inside: blocked
	for y := 0; y < int(sec.h); y++ {
		for _, in := range ls.inside[(y+2)*ls.ls+2:][:w] {
			if !in {
				outs++
			}
		}
	}
	for j, id := range sec.nodes {
		ls.reset()
		ls.seed(ls.local(s.nodes[id].cell), 0)
		ls.runMoves()
		for a, ida := range sec.nodes {
			sec.dist[j*k+a] = ls.d[ls.local(s.nodes[ida].cell)]
		}
		// The 4-bit codes are the low bits of the solver's directions
		// (dirGoal is nibGoal, dirNone's low bits nibNone), packed without
		// a branch. The cells left at dirNone (top bit set) are the blocked
		// ones and any passable one with no way to the node.
		plane := sec.dirs[j*sec.plane:][:sec.plane]
		none := 0
		for y := 0; y < int(sec.h); y++ {
			row := ls.dir[(y+2)*ls.ls+2:][:w]
			c := y * w
			if w&1 == 0 {
				out := plane[c>>1:][:w>>1]
				for x := range out {
					a, b := row[2*x], row[2*x+1]
					none += int(a>>7) + int(b>>7)
					out[x] = a&15 | (b&15)<<4
				}
				continue
			}
			for x, code := range row {
				none += int(code >> 7)
				plane[(c+x)>>1] |= (code & 15) << (4 * ((c + x) & 1))
			}
		}
		if none != outs {
			sec.conn = false // a passable cell with no way to the node
		}
	}
}

func resize(b []float32, n int) []float32 {
	if cap(b) < n {
		return make([]float32, n)
	}
	return b[:n]
}

func resizeBools(b []bool, n int) []bool {
	if cap(b) < n {
		return make([]bool, n)
	}
	b = b[:n]
	clear(b)
	return b
}

func resizeBytes(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// octile returns the octile distance between a and b in cells.
func octile(a, b grid.Cell) float32 {
	dx, dy := a.X-b.X, a.Y-b.Y
	if dx < 0 {
		dx = -dx
	}
	if dy < 0 {
		dy = -dy
	}
	return float32(max(dx, dy)) + float32((math.Sqrt2-1)*float32(min(dx, dy)))
}
