package flowfield

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// requireExact compares f's integration field with a float64 Dijkstra
// (dijkstra64) and with the heap build of before issue 13 (refField),
// cell by cell: both must agree to float32 rounding, 1e-5 relative (the
// float32 sums along a path of n steps carry about n·6e-8 relative error;
// the shared maps' paths are below 2,000 steps), and the reachable cells
// must be the same. It returns the largest relative difference to the
// float64 Dijkstra.
func requireExact(t *testing.T, f *Field, g *grid.Grid, goals ...grid.Cell) float64 {
	t.Helper()
	want := dijkstra64(g, goals...)
	ref := newRef(g)
	ref.build(goals...)
	return requireSame(t, f, g, want, ref)
}

func requireSame(t *testing.T, f *Field, g *grid.Grid, want []float64, ref *refField) float64 {
	t.Helper()
	worst := 0.0
	w := g.Width()
	for i, d := range want {
		c := grid.Cell{X: int32(i % w), Y: int32(i / w)}
		got, old := f.Integration(c), float64(ref.integ[i])
		if math.IsInf(d, 1) {
			if !math.IsInf(got, 1) || !math.IsInf(old, 1) {
				t.Fatalf("cell %v: want unreachable, got %v (heap build %v)", c, got, old)
			}
			continue
		}
		tol := 1e-5 * math.Max(1, d)
		if !(math.Abs(got-d) <= tol) || !(math.Abs(got-old) <= tol) {
			t.Fatalf("cell %v: got %v, float64 Dijkstra %v, heap build %v", c, got, d, old)
		}
		worst = math.Max(worst, math.Abs(got-d)/math.Max(1, d))
	}
	requireCompactDirs(t, f)
	return worst
}

// requireCompactDirs checks that a complete field's direction array, which
// Next reads, holds a code on every cell the build reached (dirNone only on
// the border, blocked cells, which hold 0, and unreachable ones, +Inf), the
// goal code only where the value is 0, and elsewhere a legal move to a
// neighbour of lower value.
func requireCompactDirs(t *testing.T, f *Field) {
	t.Helper()
	require.True(t, f.Done())
	require.Len(t, f.dirs, len(f.d))
	for i, d := range f.dirs {
		v := math.Float32frombits(f.d[i])
		switch {
		case d == dirNone:
			if blocked := f.cls[i] == classBlocked; blocked && v != 0 || !blocked && !math.IsInf(float64(v), 1) {
				t.Fatalf("index %d: no direction, value %v (blocked %v)", i, v, blocked)
			}
		case d == dirGoal:
			if v != 0 {
				t.Fatalf("index %d: goal code, value %v", i, v)
			}
		case d < 8:
			if f.moves[i]>>d&1 == 0 { // the neighbour at d may step into i, so i into it
				t.Fatalf("index %d: direction %d is not a legal move", i, d)
			}
			o := neighbourOffsets[d]
			if n := math.Float32frombits(f.d[i+int(o.Y)*f.stride+int(o.X)]); !(n < v) {
				t.Fatalf("index %d: direction %d leads from %v to %v", i, d, v, n)
			}
		default:
			t.Fatalf("index %d: direction code %d", i, d)
		}
	}
}

// TestBuildExactOnSharedMaps: on every shared MovingAI map (all but maze512-4-0
// by default; all with ARCHAI_LONG=1), for several
// goals (one, and three at once), the queue build and the heap build give
// Dijkstra's costs on every cell, and the direction field leads every
// reachable cell downhill to a goal.
func TestBuildExactOnSharedMaps(t *testing.T) {
	maps, _ := filepath.Glob(filepath.Join(mapsDir, "*.map"))
	if len(maps) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI: the MovingAI maps are missing at %s", mapsDir)
		}
		t.Skip("maps absent")
	}
	goalsPerMap := 1
	if os.Getenv("ARCHAI_LONG") != "" {
		goalsPerMap = 6
	}
	for _, path := range maps {
		if filepath.Base(path) == "maze512-4-0.map" && os.Getenv("ARCHAI_LONG") == "" {
			t.Logf("%s: ARCHAI_LONG=1 checks it (random512-25-0 is the 512×512 map by default)", filepath.Base(path))
			continue
		}
		g, err := grid.LoadMap(path)
		require.NoError(t, err)
		rng := rand.New(rand.NewPCG(13, uint64(len(path))))
		pick := func() grid.Cell {
			for {
				c := grid.Cell{X: int32(rng.IntN(g.Width())), Y: int32(rng.IntN(g.Height()))}
				if g.Passable(c) {
					return c
				}
			}
		}
		f := New(g)
		h := New(g)
		h.forceHeap = true
		for trial := 0; trial <= goalsPerMap; trial++ {
			goals := []grid.Cell{pick()}
			if trial == goalsPerMap {
				goals = append(goals, pick(), pick())
			}
			f.Build(goals...)
			require.False(t, f.useHeap, "uniform-cost map must use the queue build")
			want := dijkstra64(g, goals...)
			ref := newRef(g)
			ref.build(goals...)
			worst := requireSame(t, f, g, want, ref)
			checkLeadsToGoal(t, f, g)
			h.Build(goals...)
			require.True(t, h.useHeap)
			requireSame(t, h, g, want, ref)
			t.Logf("%s goals %v: settled %d, max relative difference to float64 Dijkstra %.2g", filepath.Base(path), goals, f.Settled(), worst)
		}
	}
}

// TestBuildExactWithFewAndManyCosts: grids with a few distinct costs (queue
// build, one queue pair per cost) and with many (heap build) both give
// Dijkstra's costs, whole and spread over steps.
func TestBuildExactWithFewAndManyCosts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 6; trial++ {
		g := randomGrid(rng, 70, 50, 15+trial, trial%3 == 2) // weighted: 17 costs, heap
		if trial%3 == 1 {                                    // three costs, queues
			for i := 0; i < 800; i++ {
				c := grid.Cell{X: int32(rng.IntN(70)), Y: int32(rng.IntN(50))}
				if g.Passable(c) {
					g.SetCost(c, []float32{2.5, 4}[rng.IntN(2)])
				}
			}
		}
		goal := grid.Cell{X: int32(rng.IntN(70)), Y: int32(rng.IntN(50))}
		g.SetCost(goal, 1)
		f := New(g)
		f.Start(goal)
		for !f.Step(97) {
		}
		require.Equal(t, trial%3 == 2, f.useHeap, "trial %d", trial)
		requireExact(t, f, g, goal)
		checkLeadsToGoal(t, f, g)
	}
}

// TestBuildAllocatesNothingWhenWarm: rebuilding a field, whole or spread
// over steps, allocates nothing once its buffers have grown.
func TestBuildAllocatesNothingWhenWarm(t *testing.T) {
	g := randomGrid(rand.New(rand.NewPCG(1, 1)), 200, 150, 20, false)
	goals := []grid.Cell{{X: 100, Y: 75}, {X: 3, Y: 3}}
	for _, c := range goals {
		g.SetCost(c, 1)
	}
	for _, heap := range []bool{false, true} {
		f := New(g)
		f.forceHeap = heap
		f.Build(goals...)
		require.Zero(t, testing.AllocsPerRun(5, func() { f.Build(goals...) }), "heap %v", heap)
		require.Zero(t, testing.AllocsPerRun(5, func() {
			f.Start(goals[0])
			for !f.Step(1000) {
			}
		}), "heap %v", heap)
	}
}

// TestBuildExactAfterGridEdits: a field rebuilt after cost edits (walls
// added and removed, new costs, more than 8 distinct costs, so that the
// build switches to the heap, and back to few costs) is still exact: the
// cost classes and legal moves of the edited rows are brought up to date.
func TestBuildExactAfterGridEdits(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	g := randomGrid(rng, 60, 45, 20, false)
	goal := grid.Cell{X: 30, Y: 20}
	g.SetCost(goal, 1)
	f := New(g)
	f.Build(goal)
	requireExact(t, f, g, goal)
	var edited []grid.Cell
	for round := 0; round < 12; round++ {
		for i := 0; i < 15; i++ {
			c := grid.Cell{X: int32(rng.IntN(60)), Y: int32(rng.IntN(45))}
			if c == goal {
				continue
			}
			switch {
			case round < 4: // walls in and out, a second cost
				g.SetCost(c, []float32{grid.Blocked, 1, 3}[rng.IntN(3)])
			case round < 8: // many costs: the heap build
				g.SetCost(c, 1+float32(rng.IntN(12))/4)
			default: // back to few costs
				g.SetCost(c, 1)
			}
			edited = append(edited, c)
		}
		if round == 8 {
			for _, c := range edited {
				g.SetCost(c, 1)
			}
		}
		f.Build(goal)
		require.Equal(t, round >= 4 && round < 8, f.useHeap, "round %d", round)
		requireExact(t, f, g, goal)
		checkLeadsToGoal(t, f, g)
	}
}

// TestBuildSameWithAndWithoutBranches: relaxing the cells open all round
// with branches or without (stepOne picks one from the grid) gives the same
// values and directions, bit for bit, on open and walled grids, built at
// once and spread over steps; so does the general queue build (relax), run
// here on a grid of one cost.
func TestBuildSameWithAndWithoutBranches(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, blocked := range []int{0, 3, 20} {
		g := randomGrid(rng, 90, 70, blocked, false)
		goals := []grid.Cell{{X: 45, Y: 35}, {X: 2, Y: 60}}
		for _, c := range goals {
			g.SetCost(c, 1)
		}
		var want *Field
		for _, mode := range []int{1, -1, 0} {
			for _, spread := range []bool{false, true} {
				f := New(g)
				f.forceBranchy = mode
				f.Start(goals...)
				if spread {
					for !f.Step(37) {
					}
				} else {
					f.Step(math.MaxInt)
				}
				if want == nil {
					want = f
					requireExact(t, f, g, goals...)
					continue
				}
				require.Equal(t, want.d, f.d, "blocked %d%%, mode %d, spread %v", blocked, mode, spread)
				require.Equal(t, want.dirs, f.dirs, "blocked %d%%, mode %d, spread %v", blocked, mode, spread)
				require.Equal(t, want.Settled(), f.Settled())
			}
		}
		// the general queue build, through relax
		f := New(g)
		f.Start(goals...)
		for !f.done {
			f.stepQueuesGeneral(math.MaxInt)
		}
		require.Equal(t, want.d, f.d, "relax, blocked %d%%", blocked)
		require.Equal(t, want.dirs, f.dirs, "relax, blocked %d%%", blocked)
	}
}
