package grid

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIntegerCostsOrderLikeSqrt2 checks the claim of the integer search's
// doc: a + b√2 and a·costStraight + b·costDiag order two paths the same way
// whenever their counts of diagonal moves differ by less than 2,300, the
// worst case being the integer a closest to −b√2.
func TestIntegerCostsOrderLikeSqrt2(t *testing.T) {
	for b := int64(1); b < 2300; b++ {
		near := int64(math.Round(float64(b) * math.Sqrt2))
		for a := near - 2; a <= near+2; a++ {
			real := float64(b)*math.Sqrt2 - float64(a) // (0, b) against (a, 0)
			scaled := b*costDiag - a*costStraight
			require.Equalf(t, real > 0, scaled > 0, "b %d a %d", b, a)
			require.NotZero(t, scaled)
		}
	}
	// 2378 diagonal moves tie with 3363 straight ones in integers, while
	// their lengths differ by 1.5e-4 cells: the documented limit.
	assert.Equal(t, int64(2378*costDiag), int64(3363*costStraight))
}

// TestRowDivision checks the multiply-and-shift division of padded indices
// by the padded width against the / operator.
func TestRowDivision(t *testing.T) {
	rng := newRand(3)
	for _, pw := range []int{3, 4, 7, 64, 514, 1026, 8194, 1 << 20, MaxCells + 2} {
		s := &Search{div: ^uint64(0)/uint64(pw) + 1}
		n := MaxCells + 2*pw + 2*(MaxCells/pw) + 4 // a padded grid of MaxCells
		for k := 0; k < 20000; k++ {
			i := rng.Intn(n)
			if k < 64 { // both ends of the range
				i = k
				if k%2 == 1 {
					i = n - 1 - k
				}
			}
			if got := s.row(int32(i)); got != int32(i/pw) { // testify (a stack walk) only on a mismatch
				require.Equalf(t, int32(i/pw), got, "pw %d i %d", pw, i)
			}
		}
	}
}

// TestBucketQueueOrder pushes keys spread over the ring in random order,
// wrapping around it, and checks that pops come in order of f, the latest
// pushed first among equal f.
func TestBucketQueueOrder(t *testing.T) {
	rng := newRand(9)
	q := newBucketQueue(aStarRing)
	for round := 0; round < 20; round++ {
		f0 := int64(rng.Intn(1 << 30))
		q.reset(f0)
		fmin := f0
		seq := int32(0)
		type entry struct {
			f   int64
			seq int32
		}
		var open []entry
		for step := 0; step < 2000; step++ {
			if len(open) == 0 || rng.Intn(3) > 0 {
				f := fmin + int64(rng.Intn(2*costDiag+1))
				q.push(f, seq)
				open = append(open, entry{f, seq})
				seq++
				continue
			}
			best := 0
			for i, e := range open {
				if e.f < open[best].f || (e.f == open[best].f && e.seq > open[best].seq) {
					best = i
				}
			}
			got, ok := q.pop()
			require.True(t, ok)
			require.Equal(t, open[best].seq, got, "round %d step %d", round, step)
			require.Equal(t, open[best].f, q.fmin)
			fmin = q.fmin
			open = append(open[:best], open[best+1:]...)
		}
		for range open { // what is left drains, then the queue is empty
			_, ok := q.pop()
			require.True(t, ok)
		}
		_, ok := q.pop()
		require.False(t, ok)
	}
}

// TestJPSQueueOrder is TestBucketQueueOrder for the two-level queue of
// jump point search: f values up to the whole ring ahead (most in later
// coarse buckets, spread when reached), few distinct values so that ties
// are common, a ring of 64 coarse buckets that wraps many times.
func TestJPSQueueOrder(t *testing.T) {
	rng := newRand(10)
	for _, n := range []int{64, jpsBuckets} {
		q := newJPSQueue(n)
		span := int64(n) << jpsShift // f − fmin < span fits the ring
		for round := 0; round < 30; round++ {
			f0 := rng.r.Int64N(1 << 34) // as Intn, on 32-bit builds too
			q.reset(f0)
			fmin := f0
			seq := int32(0)
			type entry struct {
				f   int64
				seq int32
			}
			var open []entry
			for step := 0; step < 3000; step++ {
				if len(open) == 0 || rng.Intn(5) > 1 {
					var f int64
					switch rng.Intn(3) {
					case 0: // near fmin, in its coarse bucket or the next
						f = fmin + int64(rng.Intn(2<<jpsShift))
					case 1: // anywhere in the ring
						f = fmin + int64(rng.Intn(int(span-fmin&(1<<jpsShift-1))))
					default: // a tie with an open entry
						if len(open) > 0 {
							f = open[rng.Intn(len(open))].f
						} else {
							f = fmin
						}
					}
					if !q.fits(f) { // testify (a stack walk) only on a mismatch
						require.True(t, q.fits(f))
					}
					q.push(f, seq)
					open = append(open, entry{f, seq})
					seq++
					continue
				}
				best := 0
				for i, e := range open {
					if e.f < open[best].f || (e.f == open[best].f && e.seq > open[best].seq) {
						best = i
					}
				}
				got, ok := q.pop()
				if !ok || got != open[best].seq || q.fmin != open[best].f {
					require.True(t, ok)
					require.Equal(t, open[best].seq, got, "n %d round %d step %d", n, round, step)
					require.Equal(t, open[best].f, q.fmin)
				}
				fmin = q.fmin
				open = append(open[:best], open[best+1:]...)
			}
			for range open {
				_, ok := q.pop()
				require.True(t, ok)
			}
			_, ok := q.pop()
			require.False(t, ok)
		}
	}
}

// TestJumpPointsLongJumps runs JPS on large, sparsely blocked grids, where
// jumps can be longer than the ring of a small jpsQueue and go to the
// overflow heap, and diagonal runs are long, against A*.
func TestJumpPointsLongJumps(t *testing.T) {
	rng := newRand(21)
	overflow := 0
	for trial := 0; trial < 6; trial++ {
		g := randomGrid(rng, 300, 200, 1+trial%3, false)
		a := NewSearch(g)
		j := NewSearchOptions(g, Options{JumpPoints: true})
		j.jq = newJPSQueue(64) // a ring of 2^19 values of f: straight jumps past 110 cells may overflow
		for q := 0; q < 30; q++ {
			s := Cell{int32(rng.Intn(300)), int32(rng.Intn(200))}
			e := Cell{int32(rng.Intn(300)), int32(rng.Intn(200))}
			_, want, errA := a.Path(s, e, nil)
			path, got, errJ := j.Path(s, e, nil)
			overflow += len(j.open) // entries left in the overflow heap
			require.Equal(t, errA, errJ, "trial %d %v->%v", trial, s, e)
			if errA != nil {
				continue
			}
			require.InDelta(t, want, got, 1e-9, "trial %d %v->%v", trial, s, e)
			require.InDelta(t, checkPath(t, g, path, s, e), got, 1e-9)
		}
	}
	assert.Positive(t, overflow, "the test must exercise the overflow heap")
}

// TestIntegerSearchWeightsAndHeuristics checks every integer-search mode on
// uniform grids against Dijkstra: weights below 1 (shrunk integer
// heuristic, bucket queue) and Euclidean stay exact, weights above 1 stay
// within their bound, for A* and JPS.
func TestIntegerSearchWeightsAndHeuristics(t *testing.T) {
	rng := newRand(17)
	for trial := 0; trial < 20; trial++ {
		g := randomGrid(rng, 24, 18, 10+trial, false)
		for _, opt := range []Options{
			{Weight: 0.5},
			{Heuristic: EuclideanHeuristic},
			{Heuristic: ZeroHeuristic},
			{Weight: 0.7, JumpPoints: true},
			{Weight: 2},
			{Weight: 2, JumpPoints: true},
		} {
			s := NewSearchOptions(g, opt)
			for q := 0; q < 8; q++ {
				a := Cell{int32(rng.Intn(24)), int32(rng.Intn(18))}
				b := Cell{int32(rng.Intn(24)), int32(rng.Intn(18))}
				if !g.Passable(a) || !g.Passable(b) || !g.Connected(a, b) {
					continue
				}
				want := dijkstra(g, a, b)
				path, cost, err := s.Path(a, b, nil)
				require.NoError(t, err)
				require.InDelta(t, checkPath(t, g, path, a, b), cost, 1e-9)
				if opt.Weight > 1 {
					require.LessOrEqual(t, cost, opt.Weight*want+1e-9, "trial %d %+v", trial, opt)
					require.GreaterOrEqual(t, cost, want-1e-9)
				} else {
					require.InDelta(t, want, cost, 1e-9, "trial %d %+v %v->%v", trial, opt, a, b)
				}
			}
		}
	}
}

// TestJumpPointsZeroAllocsRandom512 covers long searches, whose jpsQueue
// spreads coarse buckets (TestJumpPointsZeroAllocs runs arena's short ones).
func TestJumpPointsZeroAllocsRandom512(t *testing.T) {
	g, qs := loadBench(t, "random512-25-0.map")
	s := NewSearchOptions(g, Options{JumpPoints: true})
	buf := make([]Cell, 0, 4096)
	for k := 0; k < 110; k++ { // warm up on the same queries: grow the open lists
		q := qs[(k*7)%len(qs)]
		buf, _, _ = s.Path(q.Start, q.Goal, buf)
	}
	i := 0
	allocs := testing.AllocsPerRun(100, func() {
		q := qs[(i*7)%len(qs)]
		i++
		buf, _, _ = s.Path(q.Start, q.Goal, buf)
	})
	assert.Zero(t, allocs)
}

// TestJumpTablesMatchScans checks the precomputed jump bits and diagonal
// runs of JPS against walking the grid cell by cell.
func TestJumpTablesMatchScans(t *testing.T) {
	rng := newRand(5)
	for trial := 0; trial < 8; trial++ {
		w, h := 20+rng.Intn(90), 10+rng.Intn(40)
		g := randomGrid(rng, w, h, 5+5*trial, false)
		s := NewSearchOptions(g, Options{JumpPoints: true})
		s.syncMoves()
		s.syncBits()
		pass := func(x, y int32) bool { return g.Passable(Cell{x - 1, y - 1}) }
		// straight: the first cell that is blocked or has a forced
		// neighbour, from (x, y) along (dx, dy)
		straight := func(x, y, dx, dy int32) bool {
			for {
				x, y = x+dx, y+dy
				if !pass(x, y) {
					return false
				}
				if (pass(x+dy, y+dx) && !pass(x+dy-dx, y+dx-dy)) || (pass(x-dy, y-dx) && !pass(x-dy-dx, y-dx-dy)) {
					return true
				}
			}
		}
		pw := int32(s.pw)
		for y := int32(1); y <= int32(h); y++ {
			for x := int32(1); x <= int32(w); x++ {
				if !pass(x, y) {
					continue
				}
				i := y*pw + x
				for _, d := range []struct {
					dx, dy int32
					bit    uint8
				}{{1, 0, jpE}, {-1, 0, jpW}, {0, 1, jpS}, {0, -1, jpN}} {
					if want, got := straight(x, y, d.dx, d.dy), s.jcell[i]&uint16(d.bit) != 0; got != want { // testify (a stack walk) only on a mismatch
						require.Equalf(t, want, got, "trial %d cell (%d,%d) dir (%d,%d)", trial, x, y, d.dx, d.dy)
					}
				}
				for k := int32(0); k < 4; k++ {
					dx, dy := 2*(k&1)-1, 2*(k>>1)-1
					steps, jump := int32(0), false
					for cx, cy := x, y; pass(cx+dx, cy) && pass(cx, cy+dy) && pass(cx+dx, cy+dy); {
						cx, cy = cx+dx, cy+dy
						steps++
						if straight(cx, cy, dx, 0) || straight(cx, cy, 0, dy) {
							jump = true
							break
						}
					}
					v := s.diag[4*i+k]
					if steps != int32(v>>1) || jump != (v&1 == diagJump) {
						require.Equalf(t, steps, int32(v>>1), "trial %d cell (%d,%d) diagonal %d", trial, x, y, k)
						require.Equalf(t, jump, v&1 == diagJump, "trial %d cell (%d,%d) diagonal %d", trial, x, y, k)
					}
				}
			}
		}
	}
}

// TestCanonMovesCases checks canonMoves on the cases its rule names: after
// a move east from p with every move allowed, the node examines only the
// three cells ahead; with its north-west diagonal not allowed, p cannot
// reach the north cell diagonally, so north is examined too; after a
// diagonal north-east move the cells beside p (west, south) and p itself
// are left out; the start examines every move.
func TestCanonMovesCases(t *testing.T) {
	all := uint8(0xff)
	assert.Equal(t, uint8(moveE|moveNE|moveSE), canonMoves[1][all])
	assert.Equal(t, uint8(moveE|moveNE|moveSE|moveN), canonMoves[1][all&^moveNW])
	assert.Equal(t, uint8(moveE|moveNE|moveSE|moveN|moveS), canonMoves[1][all&^(moveNW|moveSW)])
	assert.Equal(t, uint8(moveN|moveE|moveNE|moveNW|moveSE), canonMoves[5][all])
	assert.Equal(t, uint8(moveS|moveSW|moveSE|moveW), canonMoves[3][all&^moveNW]) // south: W needs p's SW
	assert.Equal(t, all, canonMoves[dirStart][all])
	for d := 0; d < 16; d++ { // only a subset of the allowed moves
		for m := 0; m < 256; m++ {
			require.Zero(t, canonMoves[d][m]&^uint8(m))
		}
	}
}

// TestOctileLoopEqualsGeneric runs random512's queries with the default
// query's own loop (runOctile) and with the general bucket loop
// (runBuckets): the same expansions and the same paths.
func TestOctileLoopEqualsGeneric(t *testing.T) {
	g, qs := loadBench(t, "random512-25-0.map")
	a, b := NewSearch(g), NewSearch(g)
	var pa, pb []Cell
	for i, q := range qs {
		if i%3 != 0 || !g.Connected(q.Start, q.Goal) {
			continue
		}
		require.NoError(t, a.Start(q.Start, q.Goal))
		require.NoError(t, b.Start(q.Start, q.Goal))
		if q.Start == q.Goal {
			continue
		}
		a.runOctile(math.MaxInt)
		b.runBuckets(math.MaxInt)
		require.Equalf(t, b.Expanded(), a.Expanded(), "query %d", i)
		var ca, cb float64
		pa, ca, _ = a.Result(pa)
		pb, cb, _ = b.Result(pb)
		require.Equalf(t, pb, pa, "query %d", i)
		require.Equal(t, cb, ca)
	}
}

// TestJPSDirsForcedRule checks jpsDirs on every jcell value against the
// forced-neighbour rule written out with beside: after a straight move
// (dx, 0) a side s is forced when (0, s) is an allowed move and the cell
// (−dx, s) behind it is blocked, adding (0, s) and (dx, s).
func TestJPSDirsForcedRule(t *testing.T) {
	for c := 0; c < 1<<16; c++ {
		cc := uint16(c)
		moves := uint8(cc >> 8)
		for d := 0; d <= dirStart; d++ {
			var want uint8
			switch {
			case d == dirStart:
				want = 0xff
			case d >= 4:
				dx, dy := moveDX[d], moveDY[d]
				want = 1<<moveIndex[4+dx] | 1<<moveIndex[4+3*dy] | 1<<d
			default:
				dx, dy := moveDX[d], moveDY[d]
				want = 1 << d
				for _, sd := range [2]int32{-1, 1} {
					sx, sy := sd, int32(0) // sides of a vertical move
					bx, by := sd, -dy
					if dy == 0 {
						sx, sy, bx, by = 0, sd, -dx, sd
					}
					if cc&beside(sx, sy) != 0 && cc&beside(bx, by) == 0 {
						want |= 1<<moveIndex[(sy+1)*3+sx+1] | 1<<moveIndex[(sy+dy+1)*3+sx+dx+1]
					}
				}
			}
			if got := jpsDirs(cc, d); got != want&moves { // plain if: 589,824 cases
				t.Fatalf("c %#x d %d: jpsDirs %#x, want %#x", c, d, got, want&moves)
			}
			if got := jpsDirTab[d][cc>>4&0xff] & moves; got != want&moves {
				t.Fatalf("c %#x d %d: jpsDirTab %#x, want %#x", c, d, got, want&moves)
			}
		}
	}
}

// TestNewSearchPrepares checks that NewSearchOptions and SetOptions build
// what the first query reads on a uniform grid (allowed moves, jump point
// tables, open list), and that a query after an edit still sees the edit.
func TestNewSearchPrepares(t *testing.T) {
	g := randomGrid(newRand(31), 40, 30, 3, false)
	j := NewSearchOptions(g, Options{JumpPoints: true})
	assert.Equal(t, j.costVersion, j.movesVersion)
	assert.Equal(t, j.costVersion, j.bitsVersion)
	assert.NotNil(t, j.jq)
	a := NewSearch(g)
	assert.Equal(t, a.costVersion, a.movesVersion)
	assert.Zero(t, a.bitsVersion, "A* builds no jump point tables")
	require.NotNil(t, a.bq)
	assert.Len(t, a.bq.head, aStarRing)
	require.NoError(t, a.SetOptions(Options{JumpPoints: true}))
	assert.Equal(t, a.costVersion, a.bitsVersion)
	assert.NotNil(t, a.jq)
	w := NewSearchOptions(g, Options{JumpPoints: true, Weight: 2})
	assert.Equal(t, w.costVersion, w.bitsVersion)
	assert.Nil(t, w.jq, "a weighted query uses no bucket queue")

	// block a cell in the middle of a path found, then search again: the
	// prepared tables follow the edit
	var start, goal Cell
	var path []Cell
	for k := 0; k < 100 && len(path) < 10; k++ {
		start = Cell{int32(k % 40), int32(k % 30)}
		goal = Cell{39 - start.X, 29 - start.Y}
		if g.Passable(start) && g.Passable(goal) && g.Connected(start, goal) {
			path, _, _ = j.Path(start, goal, nil)
		}
	}
	require.GreaterOrEqual(t, len(path), 10)
	g.SetCost(path[len(path)/2], Blocked)
	_, want, errA := NewSearch(g).Path(start, goal, nil)
	_, got, errJ := j.Path(start, goal, nil)
	require.Equal(t, errA, errJ)
	assert.InDelta(t, want, got, 1e-9)
}

// TestReconstructFastMatchesAppend checks reconstructFast (dst with room for
// the path) against reconstructInt's appending walk (dst without room):
// the same cells and the same cost, for jump point search and for A*
// (with weights that reopen nodes too), on random grids; and that both
// keep what dst held before.
func TestReconstructFastMatchesAppend(t *testing.T) {
	rng := newRand(16)
	opts := []Options{{JumpPoints: true}, {}, {Weight: 1.5}, {Heuristic: ManhattanHeuristic}}
	for trial := 0; trial < 30; trial++ {
		g := randomGrid(rng, 20+rng.Intn(60), 20+rng.Intn(60), 10+rng.Intn(30), false)
		for _, o := range opts {
			s := NewSearchOptions(g, o)
			for k := 0; k < 20; k++ {
				a := Cell{int32(rng.Intn(g.Width())), int32(rng.Intn(g.Height()))}
				b := Cell{int32(rng.Intn(g.Width())), int32(rng.Intn(g.Height()))}
				slow, cs, err := s.Path(a, b, nil)
				if err != nil {
					continue
				}
				fast, cf, err := s.Path(a, b, make([]Cell, 0, 8192))
				require.NoError(t, err)
				require.Equal(t, slow, fast, "%+v %v->%v", o, a, b)
				require.Equal(t, cs, cf, "%+v %v->%v", o, a, b)
				// after a prefix: reconstructInt appends
				prefix := []Cell{{-1, -2}, {-3, -4}}
				for _, room := range []int{0, 8192} {
					dst := append(make([]Cell, 0, len(prefix)+room), prefix...)
					got, c, err := s.reconstructInt(dst)
					require.NoError(t, err)
					require.Equal(t, prefix, got[:2])
					require.Equal(t, slow, got[2:], "%+v %v->%v room %d", o, a, b, room)
					require.Equal(t, cs, c)
				}
			}
		}
	}
}
