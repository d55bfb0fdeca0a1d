package flowfield

import (
	"math"

	"github.com/archai-go/archai/nav/grid"
)

func (f *Field) index(c grid.Cell) int { return int(c.Y)*f.w + int(c.X) }

func (f *Field) clear() {
	inf := float32(math.Inf(1))
	for i := range f.integ {
		f.integ[i] = inf
	}
	for i := range f.dir {
		f.dir[i] = dirNone
	}
	f.open = f.open[:0]
	f.done = false
	f.settled = 0
}

// sideX and sideY map a diagonal offset's components to the index (in
// neighbourOffsets) of the orthogonal neighbour in that direction.
func sideX(dx int32) int {
	if dx < 0 {
		return 0
	}
	return 1
}

func sideY(dy int32) int {
	if dy < 0 {
		return 2
	}
	return 3
}

// relax offers cost d for cell i, whose path continues in direction dir.
func (f *Field) relax(i int32, d float32, dir uint8) {
	if d >= f.integ[i] {
		return
	}
	f.integ[i] = d
	f.dir[i] = dir
	f.push(item{d, i})
}

// The open list is a 4-ary min-heap with lazy deletion: an improved cell is
// pushed again and its older entry skipped when popped.
func (f *Field) push(it item) {
	f.open = append(f.open, it)
	open := f.open
	i := len(open) - 1
	for i > 0 {
		p := (i - 1) >> 2
		if open[p].d <= it.d {
			break
		}
		open[i] = open[p]
		i = p
	}
	open[i] = it
}

func (f *Field) pop() item {
	open := f.open
	top := open[0]
	last := len(open) - 1
	it := open[last]
	open = open[:last]
	f.open = open
	n := len(open)
	if n == 0 {
		return top
	}
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		best := c
		for k := c + 1; k < min(c+4, n); k++ {
			if open[k].d < open[best].d {
				best = k
			}
		}
		if open[best].d >= it.d {
			break
		}
		open[i] = open[best]
		i = best
	}
	open[i] = it
	return top
}
