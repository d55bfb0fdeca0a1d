package grid

import (
	"math"
	"testing"
)

// TestJPSGoalsOnJumpLines (review20): jump point search against A*
// on maps of 1-wide corridors (combs, rooms joined by 1-cell doors, lines
// of pillars) with the goal on the start's row, column or diagonal, or one
// cell off them, after edits that open and close cells on those lines: the
// same reachability and cost.
func TestJPSGoalsOnJumpLines(t *testing.T) {
	rng := newRand(2020)
	for trial := range 150 {
		w, h := 1+rng.Intn(70), 1+rng.Intn(40)
		g := New(w, h)
		switch trial % 3 {
		case 0: // a comb: walls every other column, a gap at a random row
			for x := 1; x < w; x += 2 {
				gap := rng.Intn(h)
				for y := range h {
					if y != gap {
						g.SetCost(Cell{int32(x), int32(y)}, Blocked)
					}
				}
			}
		case 1: // pillars on a lattice
			for y := 1; y < h; y += 2 {
				for x := 1; x < w; x += 2 {
					g.SetCost(Cell{int32(x), int32(y)}, Blocked)
				}
			}
		default: // rooms: walls every 5 rows and columns with 1-cell doors
			for y := 4; y < h; y += 5 {
				for x := range w {
					if x%5 != 2 {
						g.SetCost(Cell{int32(x), int32(y)}, Blocked)
					}
				}
			}
			for x := 4; x < w; x += 5 {
				for y := range h {
					if y%5 != 2 {
						g.SetCost(Cell{int32(x), int32(y)}, Blocked)
					}
				}
			}
		}
		jps := NewSearchOptions(g, Options{JumpPoints: true})
		astar := NewSearch(g)
		for round := range 12 {
			st := r4Cell(rng, g)
			d := int32(rng.Intn(max(w, h)))
			off := int32(rng.Intn(3) - 1)
			var goal Cell
			switch round % 4 {
			case 0:
				goal = Cell{st.X + d, st.Y + off}
			case 1:
				goal = Cell{st.X - off, st.Y - d}
			case 2:
				goal = Cell{st.X + d, st.Y + d + off}
			default:
				goal = Cell{st.X - d - off, st.Y + d}
			}
			goal.X = min(max(goal.X, 0), int32(w-1))
			goal.Y = min(max(goal.Y, 0), int32(h-1))
			for _, c := range []Cell{st, goal} {
				if rng.Intn(4) > 0 && !g.Passable(c) {
					g.SetCost(c, 1)
				}
			}
			_, cj, ej := jps.Path(st, goal, nil)
			_, ca, ea := astar.Path(st, goal, nil)
			if (ej == nil) != (ea == nil) || (ea == nil && math.Abs(cj-ca) > 1e-9*max(1, ca)) {
				t.Fatalf("trial %d round %d %dx%d: %v->%v: JPS %v (%v), A* %v (%v)", trial, round, w, h, st, goal, cj, ej, ca, ea)
			}
			// an edit on the line between them
			c := Cell{(st.X + goal.X) / 2, (st.Y + goal.Y) / 2}
			if g.Passable(c) {
				g.SetCost(c, Blocked)
			} else {
				g.SetCost(c, 1)
			}
		}
	}
}
