package flowfield

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/archai-go/archai/nav/grid"
)

// referenceSearchSector is searchSector's packing of the direction codes
// as it was before the branch-free one (session of 2026-12-02 15:53): each
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
		ls.run()
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
	maze, err := grid.LoadMap(filepath.Join(mapsDir, "maze512-4-0.map"))
	if err != nil {
		t.Fatal(err)
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
