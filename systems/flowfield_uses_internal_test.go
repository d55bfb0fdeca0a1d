package systems

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/nav/grid"
)

// addUse lists, from any position on, exactly what the scan it replaced
// listed (each goalUse once, in order of first use), across list lengths
// on either side of useScan, the table's growth, new lists (reset) and the
// stamp's wrap-around.
func TestAddUseMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	scan := func(list []goalUse, from int, u goalUse) []goalUse {
		for _, v := range list[from:] {
			if v == u {
				return list
			}
		}
		return append(list, u)
	}
	var x useIndex
	for round := range 400 {
		if round == 200 {
			x.stamp = math.MaxUint32 // the next reset wraps
		}
		pool := 1 + rng.IntN(1+round*4) // distinct goalUses to draw from
		from := rng.IntN(5)
		var got, want []goalUse
		for range from { // entries before from: not searched
			u := goalUse{goal: grid.Cell{X: int32(rng.IntN(pool))}}
			got, want = append(got, u), append(want, u)
		}
		x.reset()
		for range 3 * pool {
			k := rng.IntN(pool)
			u := goalUse{goal: grid.Cell{X: int32(k % 97), Y: int32(k / 97)}}
			if k%3 == 0 {
				u.active, u.other = grid.Cell{X: int32(k % 5), Y: -1}, true
			}
			got, want = addUse(got, from, u, &x), scan(want, from, u)
			if len(got) != len(want) || got[len(got)-1] != want[len(want)-1] {
				t.Fatalf("round %d (pool %d, from %d): %d entries, the scan's %d", round, pool, from, len(got), len(want))
			}
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("round %d: entry %d %v, the scan's %v", round, i, got[i], want[i])
			}
		}
	}
}

// cellIndex finds what a scan finds, on lists rebuilt (sync) and kept (set
// with entries reused), short and long.
func TestCellIndexMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	var x cellIndex
	for round := range 100 {
		n := rng.IntN(3 * cellScan)
		list := make([]grid.Cell, 0, n)
		x.reset()
		for len(list) < n { // distinct cells, indexed as they come
			c := grid.Cell{X: rng.Int32N(40), Y: rng.Int32N(40)}
			if x.find(c, len(list), func(i int) grid.Cell { return list[i] }) < 0 {
				list = append(list, c)
			}
			x.sync(len(list), func(i int) grid.Cell { return list[i] })
		}
		for range 50 {
			c := grid.Cell{X: rng.Int32N(40), Y: rng.Int32N(40)}
			want := -1
			for i, v := range list {
				if v == c {
					want = i
				}
			}
			if got := x.find(c, len(list), func(i int) grid.Cell { return list[i] }); got != want {
				t.Fatalf("round %d (%d cells): find %v = %d, want %d", round, n, c, got, want)
			}
		}
	}
	var kept cellIndex // a kept list whose entries are reused
	var list []grid.Cell
	for range 2000 {
		c := grid.Cell{X: rng.Int32N(30), Y: rng.Int32N(30)}
		if kept.get(c) >= 0 {
			continue
		}
		if len(list) < 50 {
			list = append(list, c)
			kept.set(c, len(list)-1, grid.Cell{}, true)
		} else {
			i := rng.IntN(len(list))
			kept.set(c, i, list[i], false)
			list[i] = c
		}
		for i, v := range list {
			if kept.get(v) != i {
				t.Fatalf("get %v = %d, want %d", v, kept.get(v), i)
			}
		}
	}
	if len(kept.at) != len(list) {
		t.Errorf("the index holds %d cells, the list %d", len(kept.at), len(list))
	}
}
