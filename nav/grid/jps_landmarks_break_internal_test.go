package grid

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// lmbCompare runs q (jump point search, landmarks) and ref (A*) from a to b
// and fails unless they agree: the same error, costs equal to 1e-9
// relative, and q's path legal with its cost.
func lmbCompare(t *testing.T, g *Grid, q, ref *Search, a, b Cell, msg string) {
	t.Helper()
	pq, cq, eq := q.Path(a, b, nil)
	_, cr, er := ref.Path(a, b, nil)
	if lo, hi := g.costRange(); errors.Is(eq, ErrNotUniform) && q.opt.JumpPoints && lo != hi {
		return
	}
	if (eq == nil) != (er == nil) || (eq != nil && !errors.Is(eq, er) && !errors.Is(er, eq)) {
		t.Fatalf("%s %v->%v: jps err %v, A* err %v", msg, a, b, eq, er)
	}
	if eq != nil {
		return
	}
	if q.lmq {
		lmbUsed++
	}
	if math.Abs(cq-cr) > 1e-9*math.Max(1, cr) {
		t.Fatalf("%s %v->%v: jps %.12f, A* %.12f (landmarks on %v)", msg, a, b, cq, cr, q.lmq)
	}
	if c := checkPath(t, g, pq, a, b); math.Abs(c-cq) > 1e-6*math.Max(1, c) {
		t.Fatalf("%s %v->%v: path walks %.9f, reported %.9f", msg, a, b, c, cq)
	}
}

// lmbQueries compares n random queries, half of them between passable
// cells of the landmarks' own component and the others anywhere.
func lmbQueries(t *testing.T, rng testRand, g *Grid, q, ref *Search, n int, msg string) {
	t.Helper()
	for range n {
		lmbCompare(t, g, q, ref, r4Cell(rng, g), r4Cell(rng, g), msg)
	}
	if q.jps() && q.opt.Weight <= 1 && q.lmOn && q.isUniform && q.costVersion == g.version {
		q.syncMoves()
		q.syncLandmarks()
		lmCheckConsistent(t, q, msg)
	}
}

// Break-it: jump point search with landmarks against A* through every kind
// of edit between queries and during sliced searches, option switches,
// cost changes that leave and restore uniformity, and grids replaced in
// place by grids of other sizes.
func TestLandmarksBreakIt(t *testing.T) {
	rng := newRand(20261206)
	defer func() { t.Logf("queries with landmarks: %d", lmbUsed) }()
	shapes := [][2]int{{1, 1}, {1, 40}, {40, 1}, {2, 30}, {30, 2}, {9, 9}, {17, 33}, {33, 17}, {48, 48}, {70, 20}}
	for trial := 0; trial < 160; trial++ {
		sh := shapes[trial%len(shapes)]
		g := r4Grid(rng, sh[0], sh[1], rng.Intn(50), 1)
		q := NewSearchOptions(g, Options{JumpPoints: true})
		ref := NewSearch(g)
		lmbQueries(t, rng, g, q, ref, 6, "fresh")
		for round := 0; round < 30; round++ {
			msg := "trial " + itoa(trial) + " round " + itoa(round)
			switch op := rng.Intn(11); op {
			case 0, 1: // open cells
				for range 1 + rng.Intn(8) {
					g.SetCost(r4Cell(rng, g), g.MinCost())
				}
			case 2, 3: // block cells
				for range 1 + rng.Intn(8) {
					g.SetCost(r4Cell(rng, g), Blocked)
				}
			case 4: // non-uniform, query (A* answers, JPS refuses), uniform again
				c := r4Cell(rng, g)
				old := g.Cost(c)
				g.SetCost(c, 3)
				lmbQueries(t, rng, g, q, ref, 2, msg+" non-uniform")
				if isBlocked(old) {
					g.SetCost(c, g.MinCost())
					if g.MinCost() == 3 {
						g.SetCost(c, 1)
					}
				} else {
					g.SetCost(c, old)
				}
				if lo, hi := g.costRange(); lo != hi {
					g.SetCost(c, Blocked)
				}
			case 5: // every passable cell to another cost
				u := float32(1 + rng.Intn(4))
				for i, c := range g.cost {
					if !isBlocked(c) {
						g.SetCost(Cell{int32(i % g.w), int32(i / g.w)}, u)
					}
				}
			case 6: // option switches
				opts := []Options{{}, {JumpPoints: true, Clearance: 2}, {JumpPoints: true, Weight: 0.5}, {JumpPoints: true, Weight: 1.5}, {JumpPoints: true}}
				o := opts[rng.Intn(len(opts))]
				q.SetOptions(o)
				ro := Options{Clearance: o.Clearance}
				r2 := NewSearchOptions(g, ro)
				if o.Weight > 1 { // not exact: no shorter than A*
					for range 3 {
						a, b := r4Cell(rng, g), r4Cell(rng, g)
						_, cq, eq := q.Path(a, b, nil)
						_, cr, er := r2.Path(a, b, nil)
						if eq == nil && er == nil {
							require.GreaterOrEqual(t, cq, cr*(1-1e-9), "%s weighted", msg)
						}
					}
				} else {
					lmbQueries(t, rng, g, q, r2, 3, msg+" options")
				}
				q.SetOptions(Options{JumpPoints: true})
			case 7: // a grid of another size copied over g in place
				w, h := 1+rng.Intn(60), 1+rng.Intn(60)
				if rng.Intn(3) == 0 { // the same padded size, transposed
					w, h = g.h, g.w
				}
				*g = *r4Grid(rng, w, h, rng.Intn(50), 1).Clone()
			case 8: // a sliced search with edits between its steps
				a, b := r4Cell(rng, g), r4Cell(rng, g)
				if q.Start(a, b) == nil {
					for done := false; !done; {
						_, done = q.Step(1 + rng.Intn(3))
						if rng.Intn(2) == 0 {
							c := r4Cell(rng, g)
							if rng.Intn(2) == 0 {
								g.SetCost(c, Blocked)
							} else {
								g.SetCost(c, g.MinCost())
							}
						}
					}
					pq, cq, eq := q.Result(nil)
					_, cr, er := ref.Path(a, b, nil)
					if errors.Is(er, ErrBlocked) || errors.Is(er, ErrUnreachable) {
						// the step's restart reports it, or the grid changed after its last step
						break
					}
					if eq == nil && er == nil && q.costVersion == g.version {
						require.InDelta(t, cr, cq, 1e-9*math.Max(1, cr), "%s sliced %v->%v", msg, a, b)
						checkPath(t, g, pq, a, b)
					}
				}
			case 9: // one door toggled past the edit log
				c := r4Cell(rng, g)
				n := 1 + rng.Intn(2*MaxEditLog+50)
				for i := range n {
					if i%2 == 0 {
						g.SetCost(c, g.MinCost())
					} else {
						g.SetCost(c, Blocked)
					}
				}
			case 10: // every cell a wall but one (or two)
				for i := range g.cost {
					g.SetCost(Cell{int32(i % g.w), int32(i / g.w)}, Blocked)
				}
				g.SetCost(r4Cell(rng, g), 1)
				if rng.Intn(2) == 0 {
					g.SetCost(r4Cell(rng, g), 1)
				}
			}
			lmbQueries(t, rng, g, q, ref, 6, msg)
		}
	}
}

var lmbUsed int

// A door toggled 10,000 times between two queries, past the grid's edit
// log (MaxEditLog), and a wall cell opened among the toggles: the
// landmarks are repaired from the cells opened since (found by comparing
// passability), not computed again in full (a blocked cell's distance,
// which no query reads, is left as it was set), and they equal a
// recomputation. They were recomputed in full after 513 to 1,024 edits,
// about 200 ms on a 1024² map.
func TestLandmarksRepairAfterForgottenEdits(t *testing.T) {
	rng := newRand(99)
	g := r4Grid(rng, 80, 60, 20, 1)
	for y := int32(0); y < 60; y++ {
		g.SetCost(Cell{40, y}, Blocked)
	}
	door, gap, wall := Cell{20, 20}, Cell{40, 30}, Cell{79, 0}
	g.SetCost(door, 1)
	g.SetCost(wall, Blocked)
	q := NewSearchOptions(g, Options{JumpPoints: true})
	ref := NewSearch(g)
	wi := (int(wall.Y)+1)*q.pw + int(wall.X) + 1
	q.lm[wi*lmCount] = 7 // a blocked cell: read by no query, reset by a full computation
	for i := range 10000 {
		if i%2 == 0 {
			g.SetCost(door, Blocked)
		} else {
			g.SetCost(door, 1)
		}
		if i == 5000 {
			g.SetCost(gap, 1) // opens the wall
		}
	}
	a, b := Cell{5, 5}, Cell{75, 55}
	g.SetCost(a, 1)
	g.SetCost(b, 1)
	lmbCompare(t, g, q, ref, a, b, "after 10,000 edits")
	require.Equal(t, uint32(7), q.lm[wi*lmCount], "the landmarks were computed again in full")
	lmCheckConsistent(t, q, "after 10,000 edits")
	for k := range lmCount { // only cells opened since the build (the door ends open): exact
		fresh := lmFresh(q, k)
		for i := range fresh {
			if i != wi && fresh[i] != q.lm[i*lmCount+k] {
				t.Fatalf("landmark %d cell %d: %d, recomputed %d", k, i, q.lm[i*lmCount+k], fresh[i])
			}
		}
	}
	for range 20 {
		lmbCompare(t, g, q, ref, r4Cell(rng, g), r4Cell(rng, g), "after 10,000 edits")
	}
	// another map of the same size copied over the grid: computed anew
	m := r4Grid(rng, 80, 60, 30, 1)
	m.SetCost(wall, Blocked)
	*g = *m.Clone()
	q.lm[wi*lmCount] = 7
	lmbQueries(t, rng, g, q, ref, 20, "same size copied in place")
	require.Equal(t, uint32(lmInf), q.lm[wi*lmCount], "a new map: computed in full")

	// the repair past the log allocates nothing once its buffers have grown
	door = r4Cell(rng, g)
	a, b = Cell{0, 0}, Cell{79, 59}
	g.SetCost(a, 1)
	g.SetCost(b, 1)
	for x := int32(0); x < 80; x++ { // a corridor joins them
		g.SetCost(Cell{x, 0}, 1)
		g.SetCost(Cell{79, x % 60}, 1)
	}
	buf := make([]Cell, 0, 1024)
	toggles := func() {
		for i := range 2*MaxEditLog + 1 {
			if i%2 == 0 {
				g.SetCost(door, Blocked)
			} else {
				g.SetCost(door, 1)
			}
		}
		buf, _, _ = q.Path(a, b, buf)
	}
	toggles()
	require.True(t, q.lmOn)
	require.Equal(t, q.costVersion, q.lmVersion, "the query brought the landmarks up to date")
	require.Zero(t, testing.AllocsPerRun(5, toggles))
}
