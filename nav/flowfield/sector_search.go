package flowfield

import (
	"math"

	"gonum.org/v1/gonum/spatial/r2"
)

// search runs the portal-graph search for the current goal.
func (f *SectorField) search() {
	s := f.s
	f.graph = s.graph
	n := len(s.nodes)
	f.cost = resize(f.cost, n)
	if cap(f.next) < n {
		f.next = make([]int32, n)
	}
	f.next = f.next[:n]
	inf := float32(math.Inf(1))
	for i := range f.cost {
		f.cost[i], f.next[i] = inf, -2
	}
	f.goalSec = -1
	f.target = r2.Vec{X: math.NaN()}
	f.exits = f.exits[:0]
	clear(f.exitOff)
	if !s.g.Passable(f.goal) {
		return
	}
	f.goalSec = s.SectorOf(f.goal)
	f.target = s.g.Center(f.goal)
	sec := &s.secs[f.goalSec]
	ls := f.ls
	ls.load(s.g, int(sec.x0), int(sec.y0), int(sec.w), int(sec.h))
	ls.reset()
	ls.seed(ls.local(f.goal), 0)
	ls.run()
	f.open = f.open[:0]
	if s.ring > 0 {
		f.searchBuckets(ls, sec)
	} else {
		f.searchHeap(ls, sec)
	}
	// the exits of each sector: nodes whose route crosses their portal,
	// cheapest first (bestExit stops at the first one that cannot win)
	for i := range s.secs {
		off := len(f.exits)
		f.exitOff[i] = int32(off)
		for _, id := range s.secs[i].nodes {
			if f.next[id] >= 0 && f.next[id] == s.nodes[id].partner {
				f.exits = append(f.exits, exitRec{id, s.nodes[id].slot, s.nodes[id].cell, f.cost[id]})
			}
		}
		sortExits(f.exits[off:])
	}
	f.exitOff[len(s.secs)] = int32(len(f.exits))
}

// searchHeap is the portal search with a binary heap, for grids whose
// dearest edge is more than a million times the cheapest.
func (f *SectorField) searchHeap(ls *localSolver, sec *sector) {
	s := f.s
	for _, id := range sec.nodes {
		if d := ls.d[ls.local(s.nodes[id].cell)]; d < f.cost[id] {
			f.cost[id], f.next[id] = d, -1
			f.open = pushItem(f.open, item{d, id})
		}
	}
	costs := s.g.Costs()
	gw := s.g.Width()
	for len(f.open) > 0 {
		var it item
		f.open, it = popItem(f.open)
		v := it.idx
		if it.d > f.cost[v] {
			continue
		}
		nv := &s.nodes[v]
		if p := nv.partner; it.d+costs[int(nv.cell.Y)*gw+int(nv.cell.X)] < f.cost[p] {
			f.cost[p], f.next[p] = it.d+costs[int(nv.cell.Y)*gw+int(nv.cell.X)], v
			f.open = pushItem(f.open, item{f.cost[p], p})
		}
		sv := &s.secs[nv.sector]
		k := len(sv.nodes)
		row := sv.dist[int(nv.slot)*k:][:k]
		for a, u := range sv.nodes {
			if c := row[a] + it.d; c < f.cost[u] {
				f.cost[u], f.next[u] = c, v
				f.open = pushItem(f.open, item{c, u})
			}
		}
	}
}

// searchBuckets is the portal search with a bucket queue (Dial's
// algorithm with buckets as wide as the cheapest edge, w: R. Dial,
// "Algorithm 360", CACM 12(11), 1969): bucket k holds the nodes of
// tentative cost in [k·w, (k+1)·w). Every edge costs at least w, so no
// node of the lowest non-empty bucket can improve another one of it: its
// nodes are final, settled in any order. Nodes improved after they were
// queued are queued again, the older entries skipped.
func (f *SectorField) searchBuckets(ls *localSolver, sec *sector) {
	s := f.s
	if len(f.bk) != s.ring {
		f.bk = make([][]item, s.ring)
	}
	bk := f.bk
	cost, next := f.cost, f.next
	mask := uint64(s.ring - 1)
	inv := 1 / float64(s.minC)
	cur := uint64(0)
	pending := 0
	for _, id := range sec.nodes {
		if d := ls.d[ls.local(s.nodes[id].cell)]; d < cost[id] {
			cost[id], next[id] = d, -1
			b := uint64(float64(d) * inv)
			bk[b&mask] = append(bk[b&mask], item{d, id})
			pending++
		}
	}
	for ; pending > 0; cur++ {
		b := &bk[cur&mask]
		for h := 0; h < len(*b); h++ {
			it := (*b)[h]
			pending--
			v := it.idx
			if it.d > cost[v] {
				continue
			}
			nv := &s.nodes[v]
			if p, c := nv.partner, it.d+nv.enter; c < cost[p] { // the partner steps into v
				cost[p], next[p] = c, v
				k := max(uint64(float64(c)*inv), cur) & mask
				bk[k] = append(bk[k], item{c, p})
				pending++
			}
			// A node whose route stays in its sector (the next node is a
			// node of it, or the goal inside it) relaxes no other node of
			// the sector: its route's node already did, at no higher cost,
			// the sector's distances being shortest paths inside it
			// (triangle inequality). Only nodes entered across their
			// portal reach the rest of their sector.
			if nx := next[v]; nx == -1 || nx >= 0 && nx != nv.partner {
				continue
			}
			// A sector's nodes are numbered consecutively (Sectors.renumber):
			// their costs and next nodes are one run of memory each.
			sv := &s.secs[nv.sector]
			k := len(sv.nodes)
			base := sv.nodes[0]
			row := sv.dist[int(nv.slot)*k:][:k]
			cs, ns := cost[base:][:k], next[base:][:k]
			for a, r := range row {
				if c := r + it.d; c < cs[a] {
					cs[a], ns[a] = c, v
					q := max(uint64(float64(c)*inv), cur) & mask
					bk[q] = append(bk[q], item{c, base + int32(a)})
					pending++
				}
			}
		}
		*b = (*b)[:0]
	}
}

// sortExits sorts a sector's exits by cost, ties by slot (an insertion
// sort: a sector has a few exits; it allocates nothing).
func sortExits(e []exitRec) {
	for i := 1; i < len(e); i++ {
		x := e[i]
		j := i
		for ; j > 0 && (e[j-1].cost > x.cost || e[j-1].cost == x.cost && e[j-1].slot > x.slot); j-- {
			e[j] = e[j-1]
		}
		e[j] = x
	}
}
