package systems

import (
	"encoding/binary"
	fnvhash "hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// goalSwarm is a world of n flow followers on an open size×size grid, the
// i-th with Goal the cell it stands in (n distinct goals while n ≤ size²),
// and its FlowField (alone, no other system).
type goalSwarm struct {
	w    *arche.World
	g    *grid.Grid
	flow *FlowField
	b    generic.Map2[components.Position, components.FlowFollower]
	ents []arche.Entity
}

func newGoalSwarm(tb testing.TB, n, size, workers, maxFields int) *goalSwarm {
	tb.Helper()
	world := arche.NewWorld()
	w := &world
	g := grid.New(size, size)
	arche.AddResource(w, g)
	s := &goalSwarm{w: w, g: g, flow: &FlowField{Workers: workers, MaxFields: maxFields},
		b: generic.NewMap2[components.Position, components.FlowFollower](w)}
	for i := range n {
		c := grid.Cell{X: int32(i % size), Y: int32(i / size % size)}
		s.ents = append(s.ents, s.b.NewWith(&components.Position{Vec: r2.Add(g.Center(c), r2.Vec{X: 0.1, Y: -0.2})},
			&components.FlowFollower{Goal: c}))
	}
	s.flow.Initialize(w)
	tb.Cleanup(func() { s.flow.Finalize(w) })
	return s
}

// BenchmarkFlowFieldManyGoals times FlowField's frame for followers each
// with a goal of its own on a 256×256 grid (MaxFields at its default: the
// followers of all but 64 goals wait), and, as "served", for followers on a
// 64×64 grid whose MaxFields holds every goal (each built once, then
// followed). The ns/agent should stay about the same from 1,000 goals to
// 50,000: the goals in use were listed by a scan of those listed so far
// (n²/2 comparisons a frame), and looked up in the fields served by scans.
func BenchmarkFlowFieldManyGoals(b *testing.B) {
	for _, c := range []struct {
		name               string
		n, size, maxFields int
	}{
		{"1000", 1000, 256, 0}, {"10000", 10000, 256, 0}, {"50000", 50000, 256, 0},
		{"served-500", 500, 64, 4096}, {"served-4000", 4000, 64, 4096},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := newGoalSwarm(b, c.n, c.size, 1, c.maxFields)
			for range 3 {
				s.flow.Update(s.w)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				s.flow.Update(s.w)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.n), "ns/agent")
		})
	}
}

// A swarm with many distinct goals (more than MaxFields, shared by agents
// scattered over the query, changed now and then so that agents hold
// another goal's field) gives the FlowFollower states it gave when the goals
// in use were listed by a linear scan (golden hashes of that build), with 1
// and 2 workers alike. TestFlowFieldTrace covers the order of first use on
// few goals; this covers the lists long enough to be indexed.
func TestFlowFieldManyDistinctGoals(t *testing.T) {
	golden := map[int]uint64{64: 0x6d1153929d0d9efe, 600: 0xc77ce601635b2c9f}
	for _, maxFields := range []int{64, 600} {
		var first uint64
		for _, workers := range []int{1, 2} {
			got := manyGoalsRun(t, workers, maxFields)
			if workers == 1 {
				first = got
			} else if got != first {
				t.Errorf("MaxFields %d: 2 workers %016x, 1 worker %016x", maxFields, got, first)
			}
		}
		if first != golden[maxFields] {
			t.Errorf("MaxFields %d: hash %016x, the linear scan's %016x", maxFields, first, golden[maxFields])
		}
	}
}

// manyGoalsRun runs 3,000 followers on a 64×64 grid with walls, their goals
// drawn from 500 cells, for 24 frames, and returns a hash of every
// FlowFollower after each frame.
func manyGoalsRun(t *testing.T, workers, maxFields int) uint64 {
	rng := rand.New(rand.NewPCG(5, 11))
	const size = 64
	s := newGoalSwarm(t, 0, size, workers, maxFields)
	for range size * 6 {
		s.g.SetCost(grid.Cell{X: rng.Int32N(size), Y: rng.Int32N(size)}, grid.Blocked)
	}
	randCell := func() grid.Cell { return grid.Cell{X: rng.Int32N(size), Y: rng.Int32N(size)} }
	pool := make([]grid.Cell, 500)
	for i := range pool {
		pool[i] = randCell()
	}
	for range 3000 {
		p := r2.Vec{X: rng.Float64() * size, Y: rng.Float64() * size}
		s.ents = append(s.ents, s.b.NewWith(&components.Position{Vec: p}, &components.FlowFollower{Goal: pool[rng.IntN(len(pool))]}))
	}
	all := fnvhash.New64a()
	var buf [8]byte
	put := func(v uint64) { binary.LittleEndian.PutUint64(buf[:], v); all.Write(buf[:]) }
	cell := func(c grid.Cell) uint64 { return uint64(uint32(c.X))<<32 | uint64(uint32(c.Y)) }
	bit := func(v bool) uint64 {
		if v {
			return 1
		}
		return 0
	}
	for frame := range 24 {
		for _, e := range s.ents {
			p, fl := s.b.Get(e)
			if frame > 0 && rng.IntN(12) == 0 {
				fl.Goal = pool[rng.IntN(len(pool))]
			}
			if fl.Steer && !fl.Arrived {
				d := r2.Sub(fl.Aim, p.Vec)
				if n := r2.Norm(d); n > 0 && !math.IsNaN(n) {
					p.Vec = r2.Add(p.Vec, r2.Scale(math.Min(n, 0.4)/n, d))
				}
			}
		}
		s.flow.Update(s.w)
		for _, e := range s.ents {
			_, fl := s.b.Get(e)
			put(cell(fl.Goal))
			put(cell(fl.Active))
			put(cell(fl.Cell))
			put(math.Float64bits(fl.Aim.X))
			put(math.Float64bits(fl.Aim.Y))
			put(bit(fl.Has) | bit(fl.Direct)<<1 | bit(fl.Steer)<<2 | bit(fl.Arrived)<<3 | bit(fl.Held)<<4)
		}
		put(uint64(s.flow.Waiting))
	}
	return all.Sum64()
}

// A warm frame of followers with many distinct goals allocates nothing: the
// indexes of the goals in use (useIndex, cellIndex) keep their tables, with
// the fields beyond MaxFields waiting (64) and with every goal served
// (4,096), on 1 and 2 workers.
func TestFlowFieldManyGoalsAllocatesNothing(t *testing.T) {
	for _, maxFields := range []int{0, 4096} {
		for _, workers := range []int{1, 2} {
			s := newGoalSwarm(t, 3000, 64, workers, maxFields)
			for range 3 {
				s.flow.Update(s.w)
			}
			if a := testing.AllocsPerRun(10, func() { s.flow.Update(s.w) }); a != 0 {
				t.Errorf("MaxFields %d, %d workers: %v allocations a frame", maxFields, workers, a)
			}
			if maxFields == 0 && s.flow.Waiting != 3000-64 {
				t.Errorf("MaxFields 64: Waiting %d, want %d", s.flow.Waiting, 3000-64)
			}
			if maxFields == 4096 && (s.flow.Waiting != 0 || len(s.flow.goals) != 3000) {
				t.Errorf("MaxFields 4096: Waiting %d, goals %d; want 0 and 3000", s.flow.Waiting, len(s.flow.goals))
			}
		}
	}
}

// A goal that walks a cell every frame, for thousands of frames, allocates
// nothing either: each frame the entries of the goal it left (reaches,
// ground) are reused for the new one, their index entries deleted and added.
func TestFlowFieldWalkingGoalAllocatesNothing(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(48, 48)
	arche.AddResource(w, g)
	flow := &FlowField{Workers: 2, Capacity: 2, Reserve: 2}
	b := generic.NewMap2[components.Position, components.FlowFollower](w)
	ring := func(k int) grid.Cell { // a walk round a square of side 20
		k %= 80
		switch {
		case k < 20:
			return grid.Cell{X: int32(14 + k), Y: 14}
		case k < 40:
			return grid.Cell{X: 34, Y: int32(14 + k - 20)}
		case k < 60:
			return grid.Cell{X: int32(34 - (k - 40)), Y: 34}
		}
		return grid.Cell{X: 14, Y: int32(34 - (k - 60))}
	}
	var ents []arche.Entity
	for i := range 40 {
		ents = append(ents, b.NewWith(&components.Position{Vec: r2.Vec{X: 4 + float64(i%8), Y: 4 + float64(i/8)}},
			&components.FlowFollower{Goal: ring(0)}))
	}
	flow.Initialize(w)
	defer flow.Finalize(w)
	frame := 0
	step := func() {
		frame++
		for _, e := range ents {
			_, fl := b.Get(e)
			fl.Goal = ring(frame)
		}
		flow.Update(w)
	}
	for range 200 {
		step()
	}
	if a := testing.AllocsPerRun(3000, step); a != 0 {
		t.Errorf("%v allocations a frame", a)
	}
	_, fl := b.Get(ents[0])
	if !fl.Has || fl.Active != ring(frame) {
		t.Errorf("Active %v (Has %v), want the goal %v", fl.Active, fl.Has, ring(frame))
	}
}
