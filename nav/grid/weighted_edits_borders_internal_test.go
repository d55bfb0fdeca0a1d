package grid

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The patched costs and moves of weighted and wide searches equal a fresh
// search's after edits at the grid's borders and corners, on grids narrower
// than the clearance, with costs other than 1, for 4 and 8 moves.
func TestPatchedSearchAtBordersEqualsFresh(t *testing.T) {
	costs := []float32{1, 2.5, 9, Blocked, Blocked}
	for _, sz := range [][2]int{{1, 20}, {20, 1}, {5, 3}, {23, 7}, {16, 16}} {
		w, h := sz[0], sz[1]
		for _, opt := range []Options{{Clearance: 2}, {Clearance: 3}, {Clearance: 5}, {Clearance: 9}, {Clearance: 2, Moves: Moves4}, {}} {
			rng := newRand(uint64(w*100+h) + uint64(opt.Clearance))
			g := New(w, h)
			s := NewSearchOptions(g, opt)
			edge := func() Cell {
				switch rng.Intn(3) {
				case 0:
					return Cell{int32(rng.Intn(2) * (w - 1)), int32(rng.Intn(2) * (h - 1))}
				case 1:
					return Cell{int32(rng.Intn(w)), int32(rng.Intn(2) * (h - 1))}
				}
				return Cell{int32(rng.Intn(2) * (w - 1)), int32(rng.Intn(h))}
			}
			any := func() Cell { return Cell{int32(rng.Intn(w)), int32(rng.Intn(h))} }
			for round := range 120 {
				for n := rng.Intn(4); n > 0; n-- {
					c := edge()
					if rng.Intn(4) == 0 {
						c = any()
					}
					g.SetCost(c, costs[rng.Intn(len(costs))])
				}
				a, b := any(), any()
				_, got, gotErr := s.Path(a, b, nil)
				fresh := NewSearchOptions(g, opt)
				_, want, wantErr := fresh.Path(a, b, nil)
				require.Equal(t, wantErr, gotErr, "%dx%d %+v round %d", w, h, opt, round)
				require.InDelta(t, want, got, 1e-6, "%dx%d %+v round %d", w, h, opt, round)
				s.sync()
				fresh.sync()
				if opt.Clearance > 1 {
					s.syncMoves()
					fresh.syncMoves()
					require.Equal(t, fresh.moves, s.moves, "%dx%d %+v round %d", w, h, opt, round)
				}
			}
		}
	}
}
