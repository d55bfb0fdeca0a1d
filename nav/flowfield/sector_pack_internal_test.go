package flowfield

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/archai-go/archai/nav/grid"
)

// referenceSearchSector is searchSector as it was before the branch-free
// packing of the direction codes and runQueues' locals (session of
// 2026-12-02 15:53): each
// cell's code picked by a switch, the connectivity flag cleared by any
// passable cell left without a direction.
func referenceSearchSector(s *Sectors, i int) (dist []float32, dirs []byte, conn bool) {
	sec := &s.secs[i]
	ls := newLocalSolver(s.size)
	k := len(sec.nodes)
	dist, dirs, conn = make([]float32, k*k), make([]byte, k*sec.plane), true
	ls.load(s.g, int(sec.x0), int(sec.y0), int(sec.w), int(sec.h))
	for j, id := range sec.nodes {
		ls.reset()
		ls.seed(ls.local(s.nodes[id].cell), 0)
		if ls.uni {
			sortItems(ls.q[2])
			ls.runQueuesRef()
		} else {
			ls.runHeap()
		}
		for a, ida := range sec.nodes {
			dist[j*k+a] = ls.d[ls.local(s.nodes[ida].cell)]
		}
		plane := dirs[j*sec.plane:][:sec.plane]
		for y := 0; y < int(sec.h); y++ {
			for x := 0; x < int(sec.w); x++ {
				code := byte(nibNone)
				switch d := ls.dir[(y+2)*ls.ls+x+2]; d {
				case dirNone:
					if ls.inside[(y+2)*ls.ls+x+2] {
						conn = false
					}
				case dirGoal:
					code = nibGoal
				default:
					code = d
				}
				c := y*int(sec.w) + x
				plane[c>>1] |= code << (4 * (c & 1))
			}
		}
	}
	return dist, dirs, conn
}

// TestSearchSectorPackingSameAsSwitch checks that the sector layer's
// branch-free packing of the 4-bit direction codes gives bit for bit the
// node costs, direction planes and connectivity flag of the switch it
// replaced: on town maps, random maps with walls (many sectors not
// connected), weighted maps (the heap search), an open grid and a shared
// maze, with sector sides that are powers of two, odd, and that do not
// divide the map (odd-width edge sectors, whose rows share bytes).
func TestSearchSectorPackingSameAsSwitch(t *testing.T) {
	if dirGoal&15 != nibGoal || dirNone&15 != nibNone || dirNone>>7 != 1 || 7>>7 != 0 || dirGoal>>7 != 0 {
		t.Fatal("the packing reads dirGoal and dirNone's low bits as nibGoal and nibNone, and dirNone's top bit")
	}
	rng := rand.New(rand.NewPCG(21, 4))
	town, err := grid.GenerateTown(200, 5)
	if err != nil {
		t.Fatal(err)
	}
	// the shared maze when the MovingAI maps are there (always in CI); the
	// other cases run without them
	maze, err := grid.LoadMap(filepath.Join(mapsDir, "maze512-4-0.map"))
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI: the MovingAI maps are missing at %s: %v", mapsDir, err)
		}
		t.Logf("maps absent: the shared maze's case is skipped (%v)", err)
		maze = nil
	}
	cases := []struct {
		name string
		g    *grid.Grid
		size int
	}{
		{"town 200, 64", town, 64},
		{"town 200, 13", town, 13},
		{"town grid 257, 32", townGrid(257, 9), 32},
		{"random 20%, 16", randomGrid(rng, 150, 121, 20, false), 16},
		{"random 35%, 7", randomGrid(rng, 90, 77, 35, false), 7},
		{"weighted 20%, 16", randomGrid(rng, 130, 97, 20, true), 16},
		{"open, 5", grid.New(23, 31), 5},
		{"maze512, 64", maze, 64},
	}
	for _, tc := range cases {
		if tc.g == nil {
			continue // the maze, without the maps
		}
		s, err := NewSectors(tc.g, tc.size)
		if err != nil {
			t.Fatal(err)
		}
		disconnected := 0
		for i := range s.secs {
			sec := &s.secs[i]
			dist, dirs, conn := referenceSearchSector(s, i)
			if len(dist) != len(sec.dist) || len(dirs) != len(sec.dirs) || conn != sec.conn {
				t.Fatalf("%s: sector %d: %d costs, %d bytes of directions, conn %v; want %d, %d, %v",
					tc.name, i, len(sec.dist), len(sec.dirs), sec.conn, len(dist), len(dirs), conn)
			}
			for j := range dist {
				if dist[j] != sec.dist[j] {
					t.Fatalf("%s: sector %d: cost %d is %v, want %v", tc.name, i, j, sec.dist[j], dist[j])
				}
			}
			for j := range dirs {
				if dirs[j] != sec.dirs[j] {
					t.Fatalf("%s: sector %d: direction byte %d is %#x, want %#x", tc.name, i, j, sec.dirs[j], dirs[j])
				}
			}
			if !conn {
				disconnected++
			}
		}
		if disconnected == 0 && tc.name != "open, 5" {
			t.Errorf("%s: every sector connected: the flag's false case untested", tc.name)
		}
	}
}

// runQueuesRef is runQueues as it was before its queues moved to locals
// (session of 2026-12-02 15:53), for TestRunQueuesSameAsBefore.
func (s *localSolver) runQueuesRef() {
	ls := int32(s.ls)
	offs := [8]int32{-1, 1, -ls, ls, -ls - 1, -ls + 1, ls - 1, ls + 1}
	cost, inside, d, dir := s.cost, s.inside, s.d, s.dir
	for {
		b := -1
		var bd float32
		for j := range s.q {
			if h := s.qh[j]; h < len(s.q[j]) && (b < 0 || s.q[j][h].d < bd) {
				b, bd = j, s.q[j][h].d
			}
		}
		if b < 0 {
			return
		}
		it := s.q[b][s.qh[b]]
		s.qh[b]++
		p := it.idx
		if it.d > d[p] {
			continue
		}
		enter := cost[p]
		do, dd := it.d+enter, it.d+float32(float32(grid.Sqrt2)*enter)
		var open uint8
		for k := 0; k < 4; k++ {
			c := p + offs[k]
			if cost[c] > math.MaxFloat32 {
				continue
			}
			open |= 1 << k
			if inside[c] && do < d[c] {
				d[c], dir[c] = do, uint8(k^1)
				s.q[0] = append(s.q[0], item{do, c})
			}
		}
		for k := 4; k < 8; k++ {
			if open&diagNeeds[k-4] != diagNeeds[k-4] {
				continue
			}
			c := p + offs[k]
			if inside[c] && dd < d[c] {
				d[c], dir[c] = dd, uint8(11-k)
				s.q[1] = append(s.q[1], item{dd, c})
			}
		}
	}
}

// TestRunQueuesSameAsBefore: the sector searches' FIFO queues, read from
// locals, with the moves read from the costs (run) or from the table of
// each cell's moves (loadMoves, runMoves), settle the cells in the order they did (the same values and,
// among equal routes, the same directions) from many seeds at once, as a
// sector field's build seeds its portals and ring, on town and random maps.
func TestRunQueuesSameAsBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 5))
	town, err := grid.GenerateTown(256, 11)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []*grid.Grid{town, randomGrid(rng, 200, 180, 25, false), grid.New(70, 70)} {
		a, b, m := newLocalSolver(32), newLocalSolver(32), newLocalSolver(32)
		tested := 0
		for round := 0; round < 200; round++ {
			x0, y0 := rng.IntN(g.Width()-31), rng.IntN(g.Height()-31)
			w, h := 1+rng.IntN(32), 1+rng.IntN(32)
			w, h = min(w, g.Width()-x0), min(h, g.Height()-y0)
			a.load(g, x0, y0, w, h)
			b.load(g, x0, y0, w, h)
			m.load(g, x0, y0, w, h)
			m.loadMoves()
			if !a.uni {
				continue
			}
			a.reset()
			b.reset()
			m.reset()
			for range 1 + rng.IntN(40) { // seeds inside and on the ring, in no order
				c := grid.Cell{X: int32(x0 - 1 + rng.IntN(w+2)), Y: int32(y0 - 1 + rng.IntN(h+2))}
				v := float32(rng.IntN(300)) * float32(math.Sqrt2) / 4
				a.seed(a.local(c), v)
				b.seed(b.local(c), v)
				m.seed(m.local(c), v)
			}
			a.run()
			m.runMoves()
			sortItems(b.q[2])
			b.runQueuesRef()
			if !slices.Equal(a.d, b.d) || !slices.Equal(a.dir, b.dir) || !slices.Equal(m.d, b.d) || !slices.Equal(m.dir, b.dir) {
				t.Fatalf("round %d: sector at (%d,%d) of %dx%d: values or directions differ", round, x0, y0, w, h)
			}
			tested++
		}
		if tested < 50 {
			t.Fatalf("only %d sectors of one cost searched", tested)
		}
	}
}
