package grid

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const mapsDir = "../../../shared/maps"

// loadBench loads a benchmark map and its scenario, skipping when the shared
// maps folder is absent.
func loadBench(t testing.TB, name string) (*Grid, []Query) {
	t.Helper()
	if _, err := os.Stat(mapsDir); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI: the MovingAI maps are missing at %s", mapsDir)
		}
		t.Skipf("benchmark maps not found at %s", mapsDir)
	}
	g, err := LoadMap(filepath.Join(mapsDir, name))
	require.NoError(t, err)
	qs, err := LoadScenario(filepath.Join(mapsDir, name+".scen"))
	require.NoError(t, err)
	require.NotEmpty(t, qs)
	return g, qs
}

// checkPath verifies that path is a legal 8-connected path without corner
// cutting from start to goal, and returns its recomputed cost. (Plain ifs
// rather than testify per cell: paths on 512 maps have thousands of cells.)
func checkPath(t *testing.T, g *Grid, path []Cell, start, goal Cell) float64 {
	t.Helper()
	require.NotEmpty(t, path)
	require.Equal(t, start, path[0], "path must begin at start")
	require.Equal(t, goal, path[len(path)-1], "path must end at goal")
	var cost float64
	for i, c := range path {
		if !g.Passable(c) {
			t.Fatalf("path cell %d %v not passable", i, c)
		}
		if i == 0 {
			continue
		}
		p := path[i-1]
		dx, dy := c.X-p.X, c.Y-p.Y
		if dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0) {
			t.Fatalf("cells %d %v and %d %v not adjacent", i-1, p, i, c)
		}
		step := float64(g.Cost(c))
		if dx != 0 && dy != 0 {
			if !g.Passable(Cell{p.X + dx, p.Y}) || !g.Passable(Cell{p.X, p.Y + dy}) {
				t.Fatalf("diagonal move %v->%v cuts a corner", p, c)
			}
			step *= math.Sqrt2
		}
		cost += step
	}
	return cost
}

func relErr(got, want float64) float64 {
	return math.Abs(got-want) / math.Max(want, 1)
}

func checkScenario(t *testing.T, name string, every int) { checkScenarioOpt(t, name, every, Options{}) }

func checkScenarioOpt(t *testing.T, name string, every int, opt Options) {
	g, qs := loadBench(t, name)
	s := NewSearchOptions(g, opt)
	var buf []Cell
	checked := 0
	for i, q := range qs {
		if i%every != 0 {
			continue
		}
		require.Equal(t, g.Width(), q.Width)
		require.Equal(t, g.Height(), q.Height)
		path, cost, err := s.Path(q.Start, q.Goal, buf)
		buf = path
		if q.Optimal == 0 && q.Start != q.Goal {
			require.ErrorIsf(t, err, ErrUnreachable, "query %d %v->%v", i, q.Start, q.Goal)
			assert.Empty(t, path)
			assert.Zero(t, s.Expanded(), "unreachable must be detected without searching")
			checked++
			continue
		}
		require.NoErrorf(t, err, "query %d %v->%v", i, q.Start, q.Goal)
		require.LessOrEqualf(t, relErr(cost, q.Optimal), 1e-4,
			"query %d %v->%v: cost %.8f, optimal %.8f", i, q.Start, q.Goal, cost, q.Optimal)
		recomputed := checkPath(t, g, path, q.Start, q.Goal)
		require.InDeltaf(t, cost, recomputed, 1e-9*math.Max(cost, 1), "query %d: reported cost differs from path cost", i)
		checked++
	}
	t.Logf("%s: %d queries checked", name, checked)
}

func TestSearchScenarioArena(t *testing.T) {
	checkScenario(t, "arena.map", 1)
}
func TestSearchScenarioRmtst01(t *testing.T) {
	checkScenario(t, "rmtst01.map", 1)
}

// longStride returns short, the stride through a scenario's queries for go test, or long
// when ARCHAI_LONG is set (as .ci/run does), and says so.
func longStride(t *testing.T, short, long int) int {
	t.Helper()
	if os.Getenv("ARCHAI_LONG") != "" {
		return long
	}
	t.Logf("one query in %d; ARCHAI_LONG=1 checks one in %d", short, long)
	return short
}

func TestSearchScenarioMaze512(t *testing.T) {
	checkScenario(t, "maze512-4-0.map", longStride(t, 200, 10))
}
func TestSearchScenarioRandom512(t *testing.T) {
	checkScenario(t, "random512-25-0.map", 1)
}

var jps = Options{JumpPoints: true}

func TestJumpPointsScenarioArena(t *testing.T) {
	checkScenarioOpt(t, "arena.map", 1, jps)
}
func TestJumpPointsScenarioRmtst01(t *testing.T) {
	checkScenarioOpt(t, "rmtst01.map", 1, jps)
}
func TestJumpPointsScenarioMaze512(t *testing.T) {
	checkScenarioOpt(t, "maze512-4-0.map", longStride(t, 40, 1), jps)
}
func TestJumpPointsScenarioRandom512(t *testing.T) {
	checkScenarioOpt(t, "random512-25-0.map", 1, jps)
}

func TestSearchRmtst01HasUnreachable(t *testing.T) {
	g, qs := loadBench(t, "rmtst01.map")
	unreachable := 0
	for _, q := range qs {
		if q.Optimal == 0 && q.Start != q.Goal {
			unreachable++
			assert.False(t, g.Connected(q.Start, q.Goal))
		}
	}
	assert.Equal(t, 2, unreachable)
}

func TestSearchErrors(t *testing.T) {
	g := New(4, 3)
	g.SetCost(Cell{1, 1}, Blocked)
	s := NewSearch(g)
	buf := make([]Cell, 5, 16)

	for _, tc := range []struct {
		name        string
		start, goal Cell
		want        error
	}{
		{"start off grid", Cell{-1, 0}, Cell{0, 0}, ErrOutOfBounds},
		{"goal off grid", Cell{0, 0}, Cell{4, 0}, ErrOutOfBounds},
		{"goal below", Cell{0, 0}, Cell{0, 3}, ErrOutOfBounds},
		{"start blocked", Cell{1, 1}, Cell{0, 0}, ErrBlocked},
		{"goal blocked", Cell{0, 0}, Cell{1, 1}, ErrBlocked},
		{"off grid wins over blocked", Cell{1, 1}, Cell{9, 9}, ErrOutOfBounds},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, cost, err := s.Path(tc.start, tc.goal, buf)
			assert.True(t, errors.Is(err, tc.want), "got %v", err)
			assert.Empty(t, path)
			assert.Zero(t, cost)
		})
	}

	path, cost, err := s.Path(Cell{2, 2}, Cell{2, 2}, buf)
	require.NoError(t, err)
	assert.Equal(t, []Cell{{2, 2}}, path)
	assert.Zero(t, cost)
}

func TestSearchUnreachableWall(t *testing.T) {
	g := New(5, 5)
	for y := int32(0); y < 5; y++ {
		g.SetCost(Cell{2, y}, Blocked)
	}
	s := NewSearch(g)
	_, _, err := s.Path(Cell{0, 0}, Cell{4, 4}, nil)
	require.ErrorIs(t, err, ErrUnreachable)
	assert.Zero(t, s.Expanded())

	// Opening a door is noticed: components are recomputed.
	g.SetCost(Cell{2, 4}, 1)
	path, cost, err := s.Path(Cell{0, 0}, Cell{4, 4}, nil)
	require.NoError(t, err)
	assert.InDelta(t, checkPath(t, g, path, Cell{0, 0}, Cell{4, 4}), cost, 1e-12)
	// Down the left side to (1,3), diagonal is not allowed through (2,3)/(1,4)... so:
	// (0,0)->(1,1)->(1,2)->(1,3)->(1,4)? diagonal (1,3)->(2,4) needs (2,3) passable: no.
	// Shortest: (0,0) d (1,1) s (1,2) s (1,3) s (1,4) e (2,4) e (3,4) e (4,4) = √2 + 6.
	assert.InDelta(t, math.Sqrt2+6, cost, 1e-12)

	// Closing it again is noticed too.
	g.SetCost(Cell{2, 4}, Blocked)
	_, _, err = s.Path(Cell{0, 0}, Cell{4, 4}, nil)
	require.ErrorIs(t, err, ErrUnreachable)
}

func TestSearchNoCornerCutting(t *testing.T) {
	// .@
	// ..   (0,0)->(1,1) must go around: cost 2, not √2.
	g := New(2, 2)
	g.SetCost(Cell{1, 0}, Blocked)
	s := NewSearch(g)
	path, cost, err := s.Path(Cell{0, 0}, Cell{1, 1}, nil)
	require.NoError(t, err)
	assert.Equal(t, []Cell{{0, 0}, {0, 1}, {1, 1}}, path)
	assert.Equal(t, 2.0, cost)

	// Two blocked cells sharing a corner separate the grid.
	g.SetCost(Cell{0, 1}, Blocked)
	_, _, err = s.Path(Cell{0, 0}, Cell{1, 1}, nil)
	assert.ErrorIs(t, err, ErrUnreachable)
}

func TestSearchWeightedCosts(t *testing.T) {
	// A swampy column costs 10 to enter; the path detours around it through
	// row 4 unless going through is cheaper.
	g := New(5, 5)
	for y := int32(0); y < 4; y++ {
		g.SetCost(Cell{2, y}, 10)
	}
	s := NewSearch(g)
	path, cost, err := s.Path(Cell{0, 0}, Cell{4, 0}, nil)
	require.NoError(t, err)
	assert.InDelta(t, checkPath(t, g, path, Cell{0, 0}, Cell{4, 0}), cost, 1e-12)
	// Straight through: 4 moves, one into cost 10 = 13. Around: far longer than 13? (0,0)->(2,4) needs
	// 4 rows down: √2*2+2 ... = 2√2+2 to (2,4)... then back up 2√2+2: 4√2+4 ≈ 9.66 < 13.
	assert.InDelta(t, 4*math.Sqrt2+4, cost, 1e-9)

	// Cheap cells (cost < 1) keep the heuristic admissible: the result must
	// equal a Dijkstra reference.
	g2 := New(8, 8)
	for x := int32(0); x < 8; x++ {
		g2.SetCost(Cell{x, 7}, 0.25)
	}
	s2 := NewSearch(g2)
	_, cost2, err := s2.Path(Cell{0, 0}, Cell{7, 0}, nil)
	require.NoError(t, err)
	assert.InDelta(t, dijkstra(g2, Cell{0, 0}, Cell{7, 0}), cost2, 1e-9)
	assert.Equal(t, float32(0.25), g2.MinCost())
}

// dijkstra is an O(n²) reference implementation.
func dijkstra(g *Grid, start, goal Cell) float64 {
	n := g.Width() * g.Height()
	dist := make([]float64, n)
	done := make([]bool, n)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	idx := func(c Cell) int { return int(c.Y)*g.Width() + int(c.X) }
	dist[idx(start)] = 0
	for {
		best := -1
		for i := range dist {
			if !done[i] && !math.IsInf(dist[i], 1) && (best < 0 || dist[i] < dist[best]) {
				best = i
			}
		}
		if best < 0 {
			return math.Inf(1)
		}
		done[best] = true
		c := Cell{int32(best % g.Width()), int32(best / g.Width())}
		if c == goal {
			return dist[best]
		}
		for dy := int32(-1); dy <= 1; dy++ {
			for dx := int32(-1); dx <= 1; dx++ {
				nb := Cell{c.X + dx, c.Y + dy}
				if (dx == 0 && dy == 0) || !g.Passable(nb) {
					continue
				}
				step := float64(g.Cost(nb))
				if dx != 0 && dy != 0 {
					if !g.Passable(Cell{c.X + dx, c.Y}) || !g.Passable(Cell{c.X, c.Y + dy}) {
						continue
					}
					step *= math.Sqrt2
				}
				if d := dist[best] + step; d < dist[idx(nb)] {
					dist[idx(nb)] = d
				}
			}
		}
	}
}

func TestSearchMatchesDijkstraRandom(t *testing.T) {
	rng := newRand(7)
	for trial := 0; trial < 40; trial++ {
		g := New(12, 9)
		for y := int32(0); y < 9; y++ {
			for x := int32(0); x < 12; x++ {
				switch r := rng.Intn(10); {
				case r < 3:
					g.SetCost(Cell{x, y}, Blocked)
				case r < 5:
					g.SetCost(Cell{x, y}, 0.5+float32(rng.Intn(8)))
				}
			}
		}
		s := NewSearch(g)
		for q := 0; q < 10; q++ {
			a := Cell{int32(rng.Intn(12)), int32(rng.Intn(9))}
			b := Cell{int32(rng.Intn(12)), int32(rng.Intn(9))}
			if !g.Passable(a) || !g.Passable(b) {
				continue
			}
			want := dijkstra(g, a, b)
			path, cost, err := s.Path(a, b, nil)
			if math.IsInf(want, 1) {
				require.ErrorIs(t, err, ErrUnreachable)
				continue
			}
			require.NoError(t, err)
			require.InDelta(t, want, cost, 1e-9, "trial %d %v->%v", trial, a, b)
			require.InDelta(t, checkPath(t, g, path, a, b), cost, 1e-9)
		}
	}
}

func TestSearchZeroAllocs(t *testing.T) {
	g, qs := loadBench(t, "arena.map")
	s := NewSearch(g)
	buf := make([]Cell, 0, 1024)
	for _, q := range qs { // warm up: grow the open list, label components
		buf, _, _ = s.Path(q.Start, q.Goal, buf)
	}
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		q := qs[i%len(qs)]
		i++
		buf, _, _ = s.Path(q.Start, q.Goal, buf)
	})
	assert.Zero(t, allocs)

	// Also after the grid changed (components relabelled into the same buffers).
	g.SetCost(Cell{1, 1}, 3)
	g.SetCost(Cell{1, 1}, Blocked)
	allocs = testing.AllocsPerRun(50, func() {
		q := qs[i%len(qs)]
		i++
		buf, _, _ = s.Path(q.Start, q.Goal, buf)
	})
	assert.Zero(t, allocs)
}

func TestSearchExpandedOptimalityOpenGrid(t *testing.T) {
	// On an empty grid with a consistent heuristic and g tie-breaking, A*
	// walks straight to the goal: expansions = path length in cells.
	g := New(64, 64)
	s := NewSearch(g)
	path, cost, err := s.Path(Cell{0, 0}, Cell{63, 20}, nil)
	require.NoError(t, err)
	assert.InDelta(t, Octile(Cell{0, 0}, Cell{63, 20}), cost, 1e-9)
	assert.Len(t, path, 64)
	assert.Equal(t, len(path), s.Expanded())
}

func TestSearchGenerationWrap(t *testing.T) {
	g := New(6, 6)
	s := NewSearch(g)
	_, want, err := s.Path(Cell{0, 0}, Cell{5, 3}, nil)
	require.NoError(t, err)
	s.gen = math.MaxUint32 - 1 // next queries use MaxUint32, then wrap to 0
	for i := 0; i < 3; i++ {
		path, cost, err := s.Path(Cell{0, 0}, Cell{5, 3}, nil)
		require.NoError(t, err)
		assert.InDelta(t, want, cost, 1e-12)
		assert.InDelta(t, checkPath(t, g, path, Cell{0, 0}, Cell{5, 3}), cost, 1e-12)
	}
	assert.Equal(t, uint32(2), s.gen, "MaxUint32, then 1 after the wrap (stamps cleared), then 2")
}

func TestSearchNoticesCostChanges(t *testing.T) {
	g := New(3, 3)
	s := NewSearch(g)
	_, cost, err := s.Path(Cell{0, 1}, Cell{2, 1}, nil)
	require.NoError(t, err)
	assert.Equal(t, 2.0, cost)

	g.SetCost(Cell{1, 1}, 5) // straight through now costs 6; around costs 2√2
	path, cost, err := s.Path(Cell{0, 1}, Cell{2, 1}, nil)
	require.NoError(t, err)
	assert.InDelta(t, 2*math.Sqrt2, cost, 1e-12)
	assert.Len(t, path, 3)
	assert.NotEqual(t, Cell{1, 1}, path[1])

	g.SetCost(Cell{1, 1}, 0.5) // cheaper than normal ground: heuristic rescales
	_, cost, err = s.Path(Cell{0, 1}, Cell{2, 1}, nil)
	require.NoError(t, err)
	assert.Equal(t, 1.5, cost)
}
