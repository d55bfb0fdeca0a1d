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
	if cap(f.exits) < n {
		f.exits = make([]exitRec, n)
	}
	f.exits = f.exits[:n]
	clear(f.nExit)
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
	if s.ring > 0 && f.fitsRing(ls, sec) {
		f.searchBuckets(ls, sec)
		f.findExits(false)
	} else {
		f.searchHeap(ls, sec)
		f.findExits(true)
	}
}

// fitsRing reports whether the portal search from the goal's sector sec
// (solved in ls) fits the bucket queue of s.ring buckets: its first pushes
// cost a goal-sector node's cost plus a crossing, and a goal-to-node cost is
// not among the node-to-node costs the ring was sized for (a goal deep in a
// winding sector can be farther from its nodes than any two nodes are from
// each other). A push past the ring would wrap into a bucket before the
// current one and be settled too early: a node settled twice, more exits
// than a sector has nodes (index out of range), or a route not the cheapest.
// Such searches run on the heap.
func (f *SectorField) fitsRing(ls *localSolver, sec *sector) bool {
	s := f.s
	far := float32(0)
	for _, id := range sec.nodes {
		if d := ls.d[ls.local(s.nodes[id].cell)]; d <= math.MaxFloat32 {
			far = max(far, d)
		}
	}
	return (float64(far)+float64(s.g.MaxCost()))/float64(s.minC)+3 < float64(s.ring)
}

// findExits lists each sector's exits, the nodes whose route crosses their
// portal, cheapest first (bestExit stops at the first one that cannot
// win): sector i's are exits[secBase[i]:][:nExit[i]] (a sector has at most
// as many exits as nodes). searchBuckets has put each exit's id and cost
// there as it settled it (collect, for searchHeap, finds them in one pass
// over the nodes); findExits sorts them and fills in the rest.
func (f *SectorField) findExits(collect bool) {
	s := f.s
	for i := range s.secs {
		b := s.secBase[i]
		if collect {
			k := int32(0)
			for id := b; id < s.secBase[i+1]; id++ {
				if f.next[id] == s.sn[id].partner {
					f.exits[b+k] = exitRec{id: id, cost: f.cost[id]}
					k++
				}
			}
			f.nExit[i] = k
		}
		ex := f.exits[b:][:f.nExit[i]]
		for k := range ex {
			e := &ex[k]
			nc := &s.nc[e.id]
			e.slot, e.cell, e.across = e.id-b, nc.cell, nc.across
		}
		if len(ex) > 1 {
			sortExits(ex)
		}
		sec := &s.secs[i]
		f.look[i] = sectorLook{dirs: sec.dirs, x0: sec.x0, y0: sec.y0, w: sec.w, plane: int32(sec.plane), ex: b, nEx: int32(len(ex)), conn: sec.conn}
	}
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
// "Algorithm 360", CACM 12(11), 1969): bucket k holds the entries of
// tentative cost in [k·w, (k+1)·w). Every edge costs at least w, so no
// entry of the lowest non-empty bucket can improve another one of it: its
// nodes are final, settled in any order. Nodes improved after they were
// queued are queued again, the older entries skipped.
//
// Only nodes entered across their portal are queued. A node whose route
// stays inside its sector (the next node is a node of it, or the goal
// inside it) relaxes no other node of its sector: its route's node
// already did, at no higher cost, the sector's distances being shortest
// paths inside it (triangle inequality). Its one other edge, the step
// into it from its partner across the portal, is relaxed at once when the
// node improves: the partner's entry is queued then, at a cost at least w
// above the node's, so it is taken up after every improvement of the node
// (which all come from nodes settled at least w below it) was made.
func (f *SectorField) searchBuckets(ls *localSolver, sec *sector) {
	s := f.s
	if len(f.bk) != s.ring {
		f.bk = make([]int32, s.ring)
	}
	bk := f.bk // per bucket: its last entry in ent, -1 when empty
	for i := range bk {
		bk[i] = -1
	}
	ent := f.ent[:0]
	cost, next := f.cost, f.next
	sn, pool, secBase, nExit := s.sn, s.pool, s.secBase, f.nExit
	mask := uint64(s.ring - 1)
	inv := 1 / float64(s.minC)
	cur := uint64(0)
	pending := 0
	// crossing: relax the partner p of node u (cost c, route inside its
	// sector) across their portal
	for _, id := range sec.nodes {
		if d := ls.d[ls.local(s.nodes[id].cell)]; d < cost[id] {
			cost[id], next[id] = d, -1
		}
	}
	for _, u := range sec.nodes {
		c := cost[u]
		if c > math.MaxFloat32 {
			continue
		}
		if p, cp := sn[u].partner, c+sn[u].enter; cp < cost[p] {
			cost[p], next[p] = cp, u
			q := uint64(float64(cp)*inv) & mask
			ent = append(ent, bucketEntry{cp, p, bk[q]})
			bk[q] = int32(len(ent) - 1)
			pending++
		}
	}
	for ; pending > 0; cur++ {
		b := &bk[cur&mask]
		for *b >= 0 { // entries pushed into this bucket meanwhile included
			it := ent[*b]
			*b = it.prev
			pending--
			v := it.idx
			d := it.d
			if d > cost[v] {
				continue // improved since, inside its sector
			}
			// v is settled, entered across its portal: an exit of its
			// sector (findExits completes its record), and it relaxes
			// the rest of its sector.
			nv := sn[v]
			base := secBase[nv.sector]
			f.exits[base+nExit[nv.sector]] = exitRec{id: v, cost: d}
			nExit[nv.sector]++
			k := secBase[nv.sector+1] - base
			row := pool[nv.row:][:k]
			cs, ns, ss := cost[base:][:k], next[base:][:k], sn[base:][:k]
			for a, r := range row {
				c := r + d
				if c >= cs[a] {
					continue
				}
				cs[a], ns[a] = c, v
				u := &ss[a]
				if p, cp := u.partner, c+u.enter; cp < cost[p] {
					cost[p], next[p] = cp, base+int32(a)
					q := max(uint64(float64(cp)*inv), cur) & mask
					ent = append(ent, bucketEntry{cp, p, bk[q]})
					bk[q] = int32(len(ent) - 1)
					pending++
				}
			}
		}
	}
	f.ent = ent
}

// bucketEntry is an entry of searchBuckets' queue: the buckets are lists
// threaded through one array, which grows to the largest search's entries
// and then allocates no more.
type bucketEntry struct {
	d    float32
	idx  int32
	prev int32 // the entry below it in its bucket, -1 for none
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
