package systems

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// sectorTown returns a size×size town-like map: a walled border and
// rectangular buildings of 3 to 12 cells covering about a quarter of the
// area (some pockets may be closed off).
func sectorTown(size int, seed uint64) *grid.Grid {
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
	return g
}

// processCPU is the CPU time of the process (every thread), Linux.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkFlowFieldSectorsGoalMove is the sector flow field system's frame
// in which the goal of 100,000 followers on a 4096² town map moves: the
// portal search, the frame's sector builds (SectorBudget), and sampling
// every follower again (each along its new field), split over 2 workers;
// with and without the batched lookup of a chunk's directions before
// sampling (warm). cpu-ms/frame is the process's CPU time (both workers
// and the system's own goroutine) per frame.
func BenchmarkFlowFieldSectorsGoalMove(b *testing.B) {
	const size, n = 4096, 100000
	g := sectorTown(size, 5)
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)
	rng := rand.New(rand.NewPCG(1, 2))
	open := func() grid.Cell {
		for {
			c := grid.Cell{X: int32(rng.IntN(size)), Y: int32(rng.IntN(size))}
			if g.Passable(c) && g.Connected(c, grid.Cell{X: 1, Y: 1}) {
				return c
			}
		}
	}
	goals := make([]grid.Cell, 16)
	for i := range goals {
		goals[i] = open()
	}
	sp, err := NewSpawner(w, FlowFollower{Goal: goals[0]})
	if err != nil {
		b.Fatal(err)
	}
	for range n {
		sp.Spawn(g.Center(open()), nil)
	}
	flow := &FlowField{Sectors: 64, Workers: 2}
	flow.Initialize(w)
	defer flow.Finalize(w)
	filter := generic.NewFilter1[components.FlowFollower]()
	for _, goal := range goals { // every field and buffer grown
		q := filter.Query(w)
		for q.Next() {
			q.Get().Goal = goal
		}
		flow.Update(w)
	}
	for _, warm := range []bool{false, true} {
		b.Run(fmt.Sprintf("warm=%v", warm), func(b *testing.B) {
			defer func(old bool) { sectorWarm = old }(sectorWarm)
			sectorWarm = warm
			b.ReportAllocs()
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				q := filter.Query(w)
				for q.Next() {
					q.Get().Goal = goals[(i+1)%len(goals)]
				}
				b.StartTimer()
				c0 := processCPU()
				flow.Update(w)
				cpu += processCPU() - c0
			}
			b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/frame")
		})
	}
}
