package grid

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// clearanceBFS is the clearance field as computeClearance built it before the
// two-pass transform: a breadth-first search over the 8 neighbours from every
// blocked cell, the border seeded as a wall one cell out, capped at 255. It
// is the reference the transform must equal.
func clearanceBFS(g *Grid) []uint8 {
	w, h := g.w, g.h
	cl := make([]uint8, w*h)
	queue := make([]int32, 0, w*h/4)
	for y := range h {
		for x := range w {
			i := y*w + x
			if isBlocked(g.cost[i]) {
				queue = append(queue, int32(i))
				continue
			}
			cl[i] = uint8(min(x+1, y+1, w-x, h-y, 255))
		}
	}
	for head := 0; head < len(queue); head++ {
		i := int(queue[head])
		x, y := i%w, i/w
		next := cl[i] + 1
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				nx, ny := x+dx, y+dy
				if nx < 0 || ny < 0 || nx >= w || ny >= h {
					continue
				}
				if n := ny*w + nx; cl[n] > next {
					cl[n] = next
					queue = append(queue, int32(n))
				}
			}
		}
	}
	return cl
}

// TestClearanceWholeMatchesBFS: the field computed whole by the two raster
// passes equals the breadth-first search's, cell for cell, on grids from 1×1
// to 700×530 (open areas wider than 510 cells, where the cap of 255 binds),
// empty, sparse, dense and fully blocked, and with walls along the border.
func TestClearanceWholeMatchesBFS(t *testing.T) {
	rng := newRand(19)
	for _, sz := range [][3]int{{1, 1, 0}, {1, 1, 1}, {1, 40, 3}, {33, 1, 2}, {2, 3, 0}, {7, 5, 35}, {64, 64, 0},
		{64, 64, 40}, {100, 37, 1200}, {97, 61, 3000}, {700, 530, 0}, {700, 530, 3}, {600, 600, 2000}} {
		w, h := sz[0], sz[1]
		g := New(w, h)
		for range sz[2] {
			g.SetCost(Cell{X: int32(rng.Intn(w)), Y: int32(rng.Intn(h))}, Blocked)
		}
		if w == 64 && sz[2] == 40 { // a wall along the top and left edges
			for x := range w {
				g.SetCost(Cell{X: int32(x)}, Blocked)
				g.SetCost(Cell{Y: int32(x)}, Blocked)
			}
		}
		want := clearanceBFS(g)
		g.Clearance(Cell{})
		if string(want) != string(g.clear) {
			for i := range want {
				require.Equal(t, want[i], g.clear[i], "%dx%d with %d walls: cell (%d, %d)", w, h, sz[2], i%w, i/w)
			}
		}
	}
	g := New(700, 530) // no wall: the centre is 265 from the border, capped
	require.Equal(t, uint8(255), g.Clearance(Cell{X: 350, Y: 265}))
	require.Equal(t, uint8(1), g.Clearance(Cell{X: 699, Y: 200}))
	require.Equal(t, uint8(3), g.Clearance(Cell{X: 2, Y: 300}))
}

// TestClearanceWholeAllocatesOnlyTheField: computing the field whole
// allocates the field itself (w·h bytes) and nothing more; before, the
// search's queue was allocated and grown besides.
func TestClearanceWholeAllocatesOnlyTheField(t *testing.T) {
	g := New(256, 256)
	for i := 0; i < 256*256; i += 13 {
		g.SetCost(Cell{X: int32(i % 256), Y: int32(i / 256)}, Blocked)
	}
	g.Clearance(Cell{})
	allocs := testing.AllocsPerRun(5, func() {
		g.clearVersion = 0 // no patch: computed whole, into the field it has
		g.computeClearance()
	})
	require.Zero(t, allocs)
}

// BenchmarkClearanceWhole times the clearance field computed whole on a
// 4096² grid with every 97th cell blocked: the two raster passes ("passes")
// against the breadth-first search it replaced ("bfs"); cpu-ms/op is the
// thread's CPU time.
func BenchmarkClearanceWhole(b *testing.B) {
	const n = 4096
	g := New(n, n)
	for i := 0; i < n*n; i += 97 {
		g.SetCost(Cell{X: int32(i % n), Y: int32(i / n)}, Blocked)
	}
	g.Clearance(Cell{})
	for _, name := range []string{"passes", "bfs"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var cpu time.Duration
			for b.Loop() {
				c0 := threadCPU()
				if name == "bfs" {
					clearanceBFS(g)
				} else {
					g.clearVersion = 0
					g.computeClearance()
				}
				cpu += threadCPU() - c0
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/1e6/float64(b.N), "cpu-ms/op")
		})
	}
}
