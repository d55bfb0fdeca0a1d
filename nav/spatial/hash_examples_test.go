package spatial_test

import (
	"fmt"

	"github.com/archai-go/archai/nav/spatial"
	"gonum.org/v1/gonum/spatial/r2"
)

func ExampleHash() {
	positions := []r2.Vec{{X: 1, Y: 1}, {X: 2, Y: 1.5}, {X: 9, Y: 9}, {X: 1.5, Y: 3}}

	h := spatial.NewHash(2, 10, 10) // 2×2 buckets over a 10×10 world
	var neighbours []int32          // reused every frame: no allocation
	for frame := 0; frame < 2; frame++ {
		h.Reset()
		for id, p := range positions {
			h.Insert(int32(id), p)
		}
		h.Build()
		neighbours = h.Query(positions[0], 2.5, neighbours[:0])
	}
	fmt.Println(neighbours)
	// Output:
	// [0 1 3]
}

// Spawn points put in tile order (8-cell tiles): a crowd created in this
// order keeps neighbours next to each other in memory.
func ExampleTileOrder() {
	points := []r2.Vec{{X: 12, Y: 1}, {X: 2, Y: 9}, {X: 3, Y: 2}, {X: 1, Y: 1}, {X: 9, Y: 3}}
	order, err := spatial.TileOrder(points, 8, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(order)
	// Output: [3 2 0 4 1]
}

// A rebuild whose first pass the caller runs on its own workers, with
// ranges of unequal length (a faster worker takes the longer one): the hash
// is BuildFrom's whatever the ranges.
func ExampleHash_BeginFromSplit() {
	positions := []r2.Vec{{X: 1, Y: 1}, {X: 9, Y: 9}, {X: 2, Y: 1.5}, {X: 1.5, Y: 3}, {X: 8, Y: 9}}
	h := spatial.NewHash(2, 10, 10)
	bounds := []int{0, 1, 5} // part 0 counts item 0, part 1 items 1 to 4
	if h.BeginFromSplit(positions, bounds) {
		for k := range len(bounds) - 1 { // on the caller's workers, one part each, at once if it likes
			h.CountFrom(k)
		}
		h.FinishFrom(nil) // nil: the later passes on the calling goroutine
	} else {
		h.BuildFrom(positions, 2, nil) // a sparse build: BuildFrom's own passes
	}
	fmt.Println(h.Query(positions[0], 2.5, nil))
	// Output:
	// [0 2 3]
}
