package flowfield

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/nav/spatial"
	"gonum.org/v1/gonum/spatial/r2"
)

// townGrid returns a size×size town-like map: a walled border, rectangular
// buildings of 3 to 12 cells covering about a quarter of the area, and
// walls with a gap every few cells (the kind of map cmd/bench generates).
// Some pockets may be closed off.
func townGrid(size int, seed uint64) *grid.Grid {
	rng := rand.New(rand.NewPCG(seed, 77))
	g := grid.New(size, size)
	block := func(x, y int) { g.SetCost(grid.Cell{X: int32(x), Y: int32(y)}, grid.Blocked) }
	for i := 0; i < size; i++ {
		block(i, 0)
		block(i, size-1)
		block(0, i)
		block(size-1, i)
	}
	for covered := 0; covered < size*size/4; {
		w, h := 3+rng.IntN(10), 3+rng.IntN(10)
		x0, y0 := 1+rng.IntN(size-2-w), 1+rng.IntN(size-2-h)
		for y := y0; y < y0+h; y++ {
			for x := x0; x < x0+w; x++ {
				block(x, y)
			}
		}
		covered += w * h
	}
	for range size / 4 {
		x, y := 1+rng.IntN(size-2), 1+rng.IntN(size-2)
		dx, dy := 1, 0
		if rng.IntN(2) == 0 {
			dx, dy = 0, 1
		}
		for i := 0; i < 8+rng.IntN(24) && x < size-1 && y < size-1; i++ {
			if i%7 != 3 {
				block(x, y)
			}
			x, y = x+dx, y+dy
		}
	}
	return g
}

// openCells returns n random passable cells of g connected to ref.
func openCells(g *grid.Grid, rng *rand.Rand, n int, ref grid.Cell) []grid.Cell {
	out := make([]grid.Cell, 0, n)
	for len(out) < n {
		c := grid.Cell{X: int32(rng.IntN(g.Width())), Y: int32(rng.IntN(g.Height()))}
		if g.Connected(c, ref) {
			out = append(out, c)
		}
	}
	return out
}

var benchSectors = map[int]*Sectors{}

func sectorsFor(b *testing.B, size int) *Sectors {
	if s, ok := benchSectors[size]; ok {
		return s
	}
	g := townGrid(size, 5)
	s, err := NewSectors(g, 0)
	if err != nil {
		b.Fatal(err)
	}
	benchSectors[size] = s
	return s
}

// BenchmarkSectorGoalMove is the time from a goal move until every one of
// 100,000 agents on a town map has a direction: the portal-graph search and
// the goal's sector (SetGoal), then Next for every agent (most of them in
// sectors not built yet, walking along the portal route), the agents split
// into contiguous runs over 1 or 2 workers as systems.FlowField splits its
// followers, each asking Next for each of its agents or NextAll for all of
// them at once.
//
// The agents' positions are drawn as cmd/bench/scenario's swarm draws them
// (a random open cell each, here one connected to the map's middle so that
// every agent has a route, jittered within it) and come in the order the
// swarm creates its agents: tile order (spatial.TileOrder, 8-cell tiles),
// so that the agents of one tile, and runs of them in one sector, are
// consecutive. The random order (the same positions shuffled, one worker)
// is kept as the worst case, every agent a cache miss of its own.
//
// Metrics, in CPU time of the threads (Linux; it leaves out the time a
// thread waited for a core on a shared machine): cpu-ms/goal-move is
// SetGoal plus the slowest worker's share, the time until every agent has
// a direction; cpu-ms/search is SetGoal alone; cpu-ns/agent is one Next
// (the workers' CPU time over the agents). ms/goal-move is the same span in
// wall time.
func BenchmarkSectorGoalMove(b *testing.B) {
	for _, size := range []int{1024, 4096} {
		s := sectorsFor(b, size)
		g := s.Grid()
		rng := rand.New(rand.NewPCG(3, 3))
		ref := openCells(g, rng, 1, grid.Cell{X: int32(size / 2), Y: int32(size / 2)})[0]
		tiled := swarmCells(g, rng, 100000, ref)
		goals := openCells(g, rng, 64, ref)
		random := slices.Clone(tiled)
		rng.Shuffle(len(random), func(i, j int) { random[i], random[j] = random[j], random[i] })
		f := NewSectorField(s)
		f.SetGoal(goals[0])
		for _, order := range []string{"tile", "random"} {
			agents := tiled
			if order == "random" {
				agents = random
			}
			for _, workers := range []int{1, 2} {
				for _, all := range []bool{false, true} {
					if (size != 4096 || order == "random") && workers != 1 {
						continue
					}
					api := "Next"
					if all {
						api = "NextAll"
					}
					b.Run(fmt.Sprintf("%dx%d/%s/%s/workers=%d", size, size, order, api, workers), func(b *testing.B) {
						benchGoalMove(b, f, goals, agents, workers, all)
					})
				}
			}
		}
	}
}

// swarmCells returns the cells of n agents placed as cmd/bench/scenario's
// swarm places them: a random open cell each (here connected to ref),
// jittered within it, in tile order (spatial.TileOrder with 8-cell tiles,
// the swarm's SpawnTile).
func swarmCells(g *grid.Grid, rng *rand.Rand, n int, ref grid.Cell) []grid.Cell {
	pos := make([]r2.Vec, n)
	for i, c := range openCells(g, rng, n, ref) {
		pos[i] = r2.Add(g.Center(c), r2.Vec{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5})
	}
	order, err := spatial.TileOrder(pos, 8, nil)
	if err != nil {
		panic(err)
	}
	out := make([]grid.Cell, n)
	for k, i := range order {
		out[k] = g.CellAt(pos[i])
	}
	return out
}

// benchGoalMove runs BenchmarkSectorGoalMove's loop.
func benchGoalMove(b *testing.B, f *SectorField, goals, agents []grid.Cell, workers int, all bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	type share struct {
		cpu     time.Duration
		missing int
	}
	start := make([]chan struct{}, workers)
	done := make(chan share, workers)
	quit := make(chan struct{})
	defer close(quit)
	for w := range workers {
		start[w] = make(chan struct{})
		part := agents[w*len(agents)/workers : (w+1)*len(agents)/workers]
		next, ok := make([]grid.Cell, len(part)), make([]bool, len(part))
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for {
				select {
				case <-quit:
					return
				case <-start[w]:
				}
				c0 := threadCPU()
				missing := 0
				if all {
					f.NextAll(part, next, ok)
					for _, o := range ok {
						if !o {
							missing++
						}
					}
				} else {
					for _, a := range part {
						if _, ok := f.Next(a); !ok {
							missing++
						}
					}
				}
				done <- share{threadCPU() - c0, missing}
			}
		}()
	}
	b.ReportAllocs()
	b.ResetTimer()
	var search, cpuSearch, cpu, cpuAgents int64
	missing := 0
	for i := 0; i < b.N; i++ {
		t0, c0 := b.Elapsed(), threadCPU()
		f.SetGoal(goals[i%len(goals)])
		c1 := threadCPU()
		search += int64(b.Elapsed() - t0)
		cpuSearch += int64(c1 - c0)
		for w := range workers {
			start[w] <- struct{}{}
		}
		slowest := time.Duration(0)
		for range workers {
			sh := <-done
			slowest = max(slowest, sh.cpu)
			cpuAgents += int64(sh.cpu)
			missing += sh.missing
		}
		cpu += int64(c1-c0) + int64(slowest)
	}
	b.StopTimer()
	if missing > 0 {
		b.Fatalf("%d agents without a direction", missing)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/goal-move")
	b.ReportMetric(float64(search)/float64(b.N)/1e6, "ms/search")
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/goal-move")
	b.ReportMetric(float64(cpuSearch)/float64(b.N)/1e6, "cpu-ms/search")
	b.ReportMetric(float64(cpuAgents)/float64(b.N)/float64(len(agents)), "cpu-ns/agent")
	b.ReportMetric(float64(f.Sectors().Nodes()), "nodes")
}

// BenchmarkSectorBuild is the time to build the sector fields of a whole
// route across a 4096² town map (corner to corner, after the goal moved:
// SetGoal included), and of every sector holding one of 100,000 agents.
func BenchmarkSectorBuild(b *testing.B) {
	s := sectorsFor(b, 4096)
	g := s.Grid()
	rng := rand.New(rand.NewPCG(4, 4))
	ref := openCells(g, rng, 1, grid.Cell{X: 2048, Y: 2048})[0]
	var from, to grid.Cell
	for y := int32(1); y < 4096 && from == (grid.Cell{}); y++ {
		for x := int32(1); x < 200; x++ {
			if c := (grid.Cell{X: x, Y: y}); g.Connected(c, ref) {
				from = c
				break
			}
		}
	}
	for y := int32(4094); y > 0 && to == (grid.Cell{}); y-- {
		for x := int32(4094); x > 3800; x-- {
			if c := (grid.Cell{X: x, Y: y}); g.Connected(c, ref) {
				to = c
				break
			}
		}
	}
	f := NewSectorField(s)
	b.Run("route", func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		b.ReportAllocs()
		sectors := 0
		c0 := threadCPU()
		for i := 0; i < b.N; i++ {
			f.SetGoal(to)
			sectors = 1 + f.BuildRoute(from)
		}
		b.ReportMetric(float64(threadCPU()-c0)/float64(b.N)/1e6, "cpu-ms/route")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/route")
		b.ReportMetric(float64(sectors), "sectors")
	})
	agents := openCells(g, rng, 100000, ref)
	b.Run("all-agents", func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		b.ReportAllocs()
		sectors := 0
		c0 := threadCPU()
		defer func() { b.ReportMetric(float64(threadCPU()-c0)/float64(b.N)/1e6, "cpu-ms/build") }()
		for i := 0; i < b.N; i++ {
			f.SetGoal(to)
			for _, a := range agents {
				f.Request(a)
			}
			sectors = 1 + f.Update(math.MaxInt)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/build")
		b.ReportMetric(float64(sectors), "sectors")
	})
}
