package flowfield

import (
	"cmp"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"unsafe"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// plainBestExit is bestExit as a plain scan of the sector's exits in node
// order, without the cost-sorted early stop.
func plainBestExit(f *SectorField, c grid.Cell) int32 {
	s := f.s
	i := s.SectorOf(c)
	if i < 0 || i == f.goalSec {
		return -1
	}
	sec := &s.secs[i]
	best, bestV := int32(-1), float32(math.Inf(1))
	for _, id := range sec.nodes {
		if f.next[id] < 0 || f.next[id] != s.nodes[id].partner || sec.nodeDir(int(s.nodes[id].slot), c) == nibNone {
			continue
		}
		if v := octile(c, s.nodes[id].cell)*s.minC + f.cost[id]; v < bestV {
			best, bestV = id, v
		}
	}
	return best
}

// TestSectorBestExitMatchesPlainScan: the cost-sorted exits with their
// early stop choose the same exit as scanning every node in order, for
// every passable cell of a town map and several goals.
func TestSectorBestExitMatchesPlainScan(t *testing.T) {
	g := townGrid(256, 9)
	s, err := NewSectors(g, 16)
	require.NoError(t, err)
	f := NewSectorField(s)
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for range 4 {
		goal := grid.Cell{X: int32(1 + rng.IntN(254)), Y: int32(1 + rng.IntN(254))}
		for !g.Passable(goal) {
			goal = grid.Cell{X: int32(1 + rng.IntN(254)), Y: int32(1 + rng.IntN(254))}
		}
		f.SetGoal(goal)
		for y := int32(0); y < 256; y++ {
			for x := int32(0); x < 256; x++ {
				c := grid.Cell{X: x, Y: y}
				if !g.Passable(c) {
					continue
				}
				want := plainBestExit(f, c)
				if got := f.bestExit(c); got != want { // testify (a stack walk) only on a mismatch
					require.Equal(t, want, got, "cell %v goal %v", c, goal)
				}
				if want >= 0 {
					checked++
				}
			}
		}
	}
	require.Greater(t, checked, 100000)
}

// TestSectorBucketSearchMatchesHeap: the bucket search, which lets only
// nodes entered across their portal relax their sector, gives every node
// the cost the heap search (relaxing every edge) gives, to float rounding.
func TestSectorBucketSearchMatchesHeap(t *testing.T) {
	g := townGrid(512, 11)
	s, err := NewSectors(g, 32)
	require.NoError(t, err)
	require.Positive(t, s.ring)
	fb, fh := NewSectorField(s), NewSectorField(s)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 4 {
		goal := grid.Cell{X: int32(1 + rng.IntN(510)), Y: int32(1 + rng.IntN(510))}
		for !g.Passable(goal) {
			goal = grid.Cell{X: int32(1 + rng.IntN(510)), Y: int32(1 + rng.IntN(510))}
		}
		fb.SetGoal(goal)
		ring := s.ring
		s.ring = 0
		fh.SetGoal(goal)
		s.ring = ring
		reached := 0
		for id := range fh.cost {
			h, b := fh.cost[id], fb.cost[id]
			if math.IsInf(float64(h), 1) {
				require.True(t, math.IsInf(float64(b), 1), "node %d", id)
				continue
			}
			reached++
			require.InEpsilon(t, h+1, b+1, 1e-5, "node %d goal %v", id, goal)
		}
		require.Greater(t, reached, s.Nodes()/2)
	}
}

// TestSectorNextAllMatchesNext: NextAll gives every cell of a town map
// (blocked ones and cells outside the grid included) what Next gives, with
// some sectors built and some not, in connected sectors and others, and
// allocates nothing: for one goal (three with ARCHAI_LONG=1).
func TestSectorNextAllMatchesNext(t *testing.T) {
	g := townGrid(256, 9)
	s, err := NewSectors(g, 16)
	require.NoError(t, err)
	conn := 0
	for i := range s.secs {
		if s.secs[i].conn {
			conn++
		}
	}
	require.Greater(t, conn, 0)
	require.Less(t, conn, len(s.secs), "some sectors must have cells that reach not every node")
	f := NewSectorField(s)
	rng := rand.New(rand.NewPCG(3, 4))
	var cells []grid.Cell
	for y := int32(-1); y <= 256; y++ {
		for x := int32(-1); x <= 256; x++ {
			cells = append(cells, grid.Cell{X: x, Y: y})
		}
	}
	rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	next, ok := make([]grid.Cell, len(cells)), make([]bool, len(cells))
	goals := 1
	if os.Getenv("ARCHAI_LONG") != "" {
		goals = 3
	}
	for range goals {
		goal := grid.Cell{X: int32(1 + rng.IntN(254)), Y: int32(1 + rng.IntN(254))}
		for !g.Passable(goal) {
			goal = grid.Cell{X: int32(1 + rng.IntN(254)), Y: int32(1 + rng.IntN(254))}
		}
		f.SetGoal(goal)
		for range 40 {
			f.Request(cells[rng.IntN(len(cells))])
		}
		f.Update(math.MaxInt)
		f.NextAll(cells, next, ok)
		with := 0
		for k, c := range cells {
			n, o := f.Next(c)
			if o != ok[k] || n != next[k] { // testify (a stack walk) only on a mismatch
				require.Equal(t, o, ok[k], "cell %v goal %v", c, goal)
				require.Equal(t, n, next[k], "cell %v goal %v", c, goal)
			}
			if o {
				with++
			}
			if k%16 == 0 { // SampleNext from NextAll's step is Sample
				p := g.Center(c)
				d, o := f.Sample(p)
				dn, on := f.SampleNext(p, next[k], ok[k])
				require.Equal(t, o, on, "cell %v goal %v", c, goal)
				require.Equal(t, d, dn, "cell %v goal %v", c, goal)
			}
		}
		require.Greater(t, with, 30000)
		require.Zero(t, testing.AllocsPerRun(3, func() { f.NextAll(cells, next, ok) }))
		// the same in tile order (4-cell tiles) and row-major order, the
		// orders crowds are kept in: runs of cells in one sector
		for _, tile := range []int32{4, 1 << 20} {
			ordered := slices.Clone(cells)
			slices.SortFunc(ordered, func(a, b grid.Cell) int {
				return cmp.Or(cmp.Compare(a.Y/tile, b.Y/tile), cmp.Compare(a.X/tile, b.X/tile), cmp.Compare(a.Y, b.Y), cmp.Compare(a.X, b.X))
			})
			f.NextAll(ordered, next, ok)
			for k, c := range ordered {
				n, o := f.Next(c)
				if o != ok[k] || n != next[k] {
					require.Equal(t, o, ok[k], "cell %v goal %v tile %d", c, goal, tile)
					require.Equal(t, n, next[k], "cell %v goal %v tile %d", c, goal, tile)
				}
			}
		}
	}
}

// TestSectorLookIsOneCacheLine: what Next reads of a sector fits one
// 64-byte cache line (and on big maps the array of them starts on a page,
// so with 8-byte pointers each one is a line; 32-bit builds have smaller
// records).
func TestSectorLookIsOneCacheLine(t *testing.T) {
	size := unsafe.Sizeof(sectorLook{})
	require.LessOrEqual(t, size, uintptr(64))
	if unsafe.Sizeof(uintptr(0)) == 8 {
		require.Equal(t, uintptr(64), size)
	}
}

// nodeDir returns the 4-bit direction code of cell c (in sector sec) in the
// direction field towards the sector's j-th node.
func (sec *sector) nodeDir(j int, c grid.Cell) byte {
	i := int(c.Y-sec.y0)*int(sec.w) + int(c.X-sec.x0)
	return sec.dirs[j*sec.plane+i>>1] >> (4 * (i & 1)) & 15
}
