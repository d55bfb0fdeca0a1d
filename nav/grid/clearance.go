package grid

// Clearance returns the clearance of cell c: the Chebyshev distance in cells
// from c to the nearest blocked cell, the grid's border counting as blocked
// cells one step outside it, capped at 255. A blocked or out-of-bounds cell
// has clearance 0; an open cell next to a wall (or on the border) has 1.
//
// The field is a breadth-first search over the 8 neighbours from every
// blocked cell, computed for the whole grid on the first call and again after
// a [Grid.SetCost] (O(width·height), one byte per cell). Once asked for, it
// is also kept up to date by [Grid.Prepare], so concurrent readers are safe
// after Prepare, as for the other lazy caches.
//
// [Options.Clearance] routes wide agents with it (see [ClearanceFor]).
// Steering uses it to skip wall tests in the open: an agent whose cell has a
// clearance larger than its feelers' length cannot touch a wall.
func (g *Grid) Clearance(c Cell) uint8 {
	if !g.InBounds(c) {
		return 0
	}
	if g.clear == nil || g.clearVersion != g.version {
		g.computeClearance()
	}
	return g.clear[g.index(c)]
}

// computeClearance rebuilds the clearance field.
func (g *Grid) computeClearance() {
	w, h := g.w, g.h
	g.clearVersion = g.version
	if len(g.clear) != w*h {
		g.clear = make([]uint8, w*h)
	}
	cl := g.clear
	queue := make([]int32, 0, w*h/4)
	for y := range h {
		for x := range w {
			i := y*w + x
			if isBlocked(g.cost[i]) {
				cl[i] = 0
				queue = append(queue, int32(i))
				continue
			}
			// the border counts as a wall one cell out
			cl[i] = uint8(min(x+1, y+1, w-x, h-y, 255))
		}
	}
	for head := 0; head < len(queue); head++ {
		i := int(queue[head])
		x, y := i%w, i/w
		next := cl[i] + 1
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				nx, ny := x+dx, y+dy
				if nx < 0 || ny < 0 || nx >= w || ny >= h {
					continue
				}
				if n := ny*w + nx; cl[n] > next {
					cl[n] = next
					queue = append(queue, int32(n))
				}
			}
		}
	}
}
