package systems

import (
	"testing"

	"github.com/archai-go/archai/nav/grid"
)

// TestAddUseAdversarial lists goals whose hashes share their slot bits
// (collisions), across a stamp wrap and a table grown while live, from an
// offset, and compares with a scan.
func TestAddUseAdversarial(t *testing.T) {
	var x useIndex
	// collect cells whose hash picks slot 0 of a 64..4096-slot table
	var coll []goalUse
	for y := int32(-3000); len(coll) < 300 && y < 3000; y++ {
		for xx := int32(-300); xx < 300 && len(coll) < 300; xx++ {
			u := goalUse{goal: grid.Cell{X: xx, Y: y}, active: grid.Cell{X: 1, Y: 1}}
			if useHash(u)>>32&4095 == 0 {
				coll = append(coll, u)
			}
		}
	}
	for round := range 4 {
		if round == 2 {
			x.stamp = ^uint32(0) // the next reset wraps
		}
		x.reset()
		from := 3
		list := make([]goalUse, from)
		var want []goalUse
		in := func(u goalUse) bool {
			for _, v := range want {
				if v == u {
					return true
				}
			}
			return false
		}
		for k := range 3 * len(coll) {
			u := coll[(k*7+round)%len(coll)]
			if k%5 == 0 {
				u.other = !u.other
			}
			list = addUse(list, from, u, &x)
			if !in(u) {
				want = append(want, u)
			}
			if len(list)-from != len(want) {
				t.Fatalf("round %d step %d: %d listed, want %d", round, k, len(list)-from, len(want))
			}
		}
		for i, u := range want {
			if list[from+i] != u {
				t.Fatalf("round %d: entry %d %v, want %v", round, i, list[from+i], u)
			}
		}
	}
}

// TestCellIndexKeptReuse keeps a list whose entries are reused for other
// goals (as reaches and ground are) and compares get with a scan.
func TestCellIndexKeptReuse(t *testing.T) {
	var x cellIndex
	var list []grid.Cell
	for k := range 5000 {
		c := grid.Cell{X: int32(k*37%101) - 50, Y: int32(k*11%53) - 26}
		if x.get(c) >= 0 {
			continue
		}
		if len(list) < 40 {
			x.set(c, len(list), grid.Cell{}, true)
			list = append(list, c)
		} else {
			at := k % len(list)
			x.set(c, at, list[at], false)
			list[at] = c
		}
		for probe := range 200 {
			p := grid.Cell{X: int32(probe*37%101) - 50, Y: int32(probe*11%53) - 26}
			want := -1
			for i, v := range list {
				if v == p {
					want = i
				}
			}
			if got := x.get(p); got != want {
				t.Fatalf("step %d: get(%v) = %d, want %d", k, p, got, want)
			}
		}
	}
}
