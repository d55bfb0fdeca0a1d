package systems

import (
	"cmp"
	"github.com/archai-go/archai/internal/detmath"
	"math"
	"slices"

	"github.com/archai-go/archai/ai/orca"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// gatherPeers records, by hash ID, the radius of every agent in this frame's
// hash and the share of the avoidance an ORCA agent takes on against it, and
// copies them with the agent's velocity into s.bySlot, in the hash's sorted
// order (read per neighbour, there they are side by side).
func (s *ORCA) gatherPeers(w *arche.World) {
	s.peers = grow(s.peers, len(s.nb.Entities))
	for i := range s.peers {
		s.peers[i] = orcaPeer{share: 1} // no Kinematics: a point that does not avoid
	}
	q := s.peerFilter.Query(w)
	for q.Next() {
		kin, o, d := q.Get()
		id := s.nb.ID(q.Entity())
		if id < 0 {
			continue
		}
		r := kin.Radius
		if !(r > 0) || math.IsInf(r, 1) {
			r = 0
		}
		share := 1.0
		if o != nil && UsableORCA(o) && UsableKinematics(kin) {
			share = 0.5
		}
		s.peers[id] = orcaPeer{radius: r, share: share}
		if d != nil && d.Mode == components.DesiredArrive {
			s.peers[id].goal, s.peers[id].arrive = d.Point, true
		}
		s.peers[id].still = d != nil && (d.Mode == components.DesiredNone || d.Mode == components.DesiredStop || d.Mode == components.DesiredHold)
	}
	s.reciprocal = 0
	for _, pe := range s.peers {
		if pe.share < 1 {
			s.reciprocal++
		}
	}
	ids, _ := s.nb.Hash.Sorted()
	s.bySlot = grow(s.bySlot, len(ids))
	for sl, id := range ids {
		pe := s.peers[id]
		s.bySlot[sl] = orcaSlot{vel: s.nb.Velocities[id], radius: pe.radius, share: pe.share, id: id, still: pe.still}
	}
}

// neighbours fills sc.nbrs with the agent's MaxNeighbours nearest reciprocal
// neighbours (with a usable ORCA of their own) within NeighbourDist, nearest
// first (ties in the hash's order, which is deterministic), then its
// MaxNeighbours nearest other neighbours there, nearest first: a crowd of
// non-avoiding agents round the agent does not hide from it the ORCA agents
// that count on it (RVO2's agents are all reciprocal, and it takes the
// MaxNeighbours nearest).
func (s *ORCA) neighbours(j *orcaJob, sc *orcaScratch) {
	sc.nbrs = sc.nbrs[:0]
	k := j.params.MaxNeighbours
	if k == 0 {
		// none: not the lists of the agent the worker visited before, which
		// heldInCrowd and allStill read
		sc.near, sc.alone = sc.near[:0], sc.alone[:0]
		return
	}
	self := s.nb.ID(j.self)
	dist := j.params.NeighbourDist
	if dist <= orcaGrowFrom && k <= maxInsertNeighbours {
		sc.slots = sc.slots[:0] // not listed: read in place
		s.nearestInBoxes(j, sc, self, k, dist)
		s.appendNeighbours(j, sc, self, sc.near)
		s.appendNeighbours(j, sc, self, sc.alone)
		return
	}
	r, span := dist, 0.0
	if dist > orcaGrowFrom {
		r, span = orcaGrowFrom/2, detmath.Hypot(float64(s.grid.Width()), float64(s.grid.Height()))
	}
	for {
		sc.slots = s.nb.Hash.QuerySlots(j.pos, r, sc.slots[:0])
		if r >= dist || s.enough(sc.slots, self, k) {
			break
		}
		if r *= 4; r >= span {
			r = dist // the whole grid: the rest are off it, or nowhere
		}
		r = min(r, dist)
	}
	_, sorted := s.nb.Hash.Sorted()
	near, alone := sc.near[:0], sc.alone[:0]
	for _, sl := range sc.slots {
		pe := &s.bySlot[sl]
		if pe.id == self {
			continue
		}
		d := r2.Sub(sorted[sl], j.pos)
		n := orcaNear{distSq: norm2(d), slot: sl, pos: sorted[sl]}
		switch {
		case k > maxInsertNeighbours && pe.share < 1:
			near = append(near, n)
		case k > maxInsertNeighbours:
			alone = append(alone, n)
		case pe.share < 1:
			near = keepNearest(near, n, k)
		default:
			alone = keepNearest(alone, n, k)
		}
	}
	if k > maxInsertNeighbours {
		near, alone = sortNearest(near, k), sortNearest(alone, k)
	}
	sc.near, sc.alone = near, alone
	s.appendNeighbours(j, sc, self, near)
	s.appendNeighbours(j, sc, self, alone)
}

// nearestInBoxes fills sc.near and sc.alone as neighbours does, for a
// NeighbourDist up to orcaGrowFrom and k ≤ maxInsertNeighbours, reading the
// hash's buckets directly (no list of slots, each distance computed once):
// first the buckets a query of radius min(CellSize, dist) reads, then, unless
// the neighbours kept by then are nearer than any agent outside those buckets
// can be, the rest of the buckets of dist. Neighbours are kept by distance,
// ties by slot (keepNearestSlot), which is the single query's order of
// finding them: the same neighbours in the same order as a query over dist.
// A candidate no nearer than both lists' farthest (of a list that is full,
// or of a kind no agent but the agent itself has) is dropped before its
// slot's data is read.
func (s *ORCA) nearestInBoxes(j *orcaJob, sc *orcaScratch, self int32, k int, dist float64) {
	h := s.nb.Hash
	near, alone := sc.near[:0], sc.alone[:0]
	_, sorted := h.Sorted()
	pos := j.pos
	r2max := dist * dist
	// the kinds no agent but self has are full from the start
	allRec, allOther := s.othersOfEachKind(self)
	nearFull, aloneFull := allRec <= 0, allOther <= 0
	cut := math.Inf(1) // a candidate farther than cut is dropped by both lists
	if nearFull && aloneFull {
		cut = math.Inf(-1)
	}
	visit := func(lo, hi int) {
		for i, p := range sorted[lo:hi] {
			dx, dy := p.X-pos.X, p.Y-pos.Y
			d2 := float64(dx*dx) + float64(dy*dy)
			if d2 > r2max || d2 > cut {
				continue
			}
			sl := int32(lo + i)
			pe := &s.bySlot[sl]
			if pe.id == self {
				continue
			}
			n := orcaNear{distSq: d2, slot: sl, pos: p}
			if pe.share < 1 {
				near = keepNearestSlot(near, n, k)
				nearFull = nearFull || len(near) == k
			} else {
				alone = keepNearestSlot(alone, n, k)
				aloneFull = aloneFull || len(alone) == k
			}
			if nearFull && aloneFull {
				cut = math.Inf(-1)
				if len(near) > 0 {
					cut = near[len(near)-1].distSq
				}
				if len(alone) > 0 {
					cut = max(cut, alone[len(alone)-1].distSq)
				}
			}
		}
	}
	r1 := min(h.CellSize(), dist)
	ix0, ix1, iy0, iy1, ok := h.Rows(pos, r1)
	if !ok {
		sc.near, sc.alone = near, alone
		return
	}
	for y := iy0; y <= iy1; y++ {
		visit(h.RowSpan(y, ix0, ix1))
	}
	if r1 < dist {
		// An agent outside those buckets lies beyond pos ± r1 (as Rows rounds
		// it) on one axis, so its squared distance, as computed above, is at
		// least g², g the least of these differences (rounding is monotone).
		g := min(float64(pos.X+r1)-pos.X, pos.X-float64(pos.X-r1), float64(pos.Y+r1)-pos.Y, pos.Y-float64(pos.Y-r1))
		if !(cut < float64(g*g)) {
			x0, x1, y0, y1, _ := h.Rows(pos, dist)
			for y := y0; y <= y1; y++ {
				if y < iy0 || y > iy1 {
					visit(h.RowSpan(y, x0, x1))
					continue
				}
				if x0 < ix0 {
					visit(h.RowSpan(y, x0, ix0-1))
				}
				if ix1 < x1 {
					visit(h.RowSpan(y, ix1+1, x1))
				}
			}
		}
	}
	sc.near, sc.alone = near, alone
}

// keepNearestSlot is keepNearest with ties kept by slot, smallest first,
// whatever the order the candidates come in.
func keepNearestSlot(near []orcaNear, n orcaNear, k int) []orcaNear {
	m := len(near) // the free place, moved down as farther neighbours move up
	if m == k {
		if !nearer(&n, &near[k-1]) {
			return near
		}
		m = k - 1
	} else {
		near = append(near, n)
	}
	for m > 0 && nearer(&n, &near[m-1]) {
		near[m] = near[m-1]
		m--
	}
	near[m] = n
	return near
}

// nearer orders neighbours by distance, ties by slot.
func nearer(a, b *orcaNear) bool {
	return a.distSq < b.distSq || a.distSq == b.distSq && a.slot < b.slot
}

// enough reports whether slots (a circle's agents) hold, besides self, k
// reciprocal neighbours (or all there are) and k others (or all there are):
// the k nearest of each kind within any larger circle are then among them.
func (s *ORCA) enough(slots []int32, self int32, k int) bool {
	rec, other := 0, 0
	for _, sl := range slots {
		switch pe := &s.bySlot[sl]; {
		case pe.id == self:
		case pe.share < 1:
			rec++
		default:
			other++
		}
	}
	allRec, allOther := s.othersOfEachKind(self)
	return rec >= min(k, allRec) && other >= min(k, allOther)
}

// othersOfEachKind returns how many agents other than self (none if self < 0) are
// reciprocal (share < 1) and how many are not.
func (s *ORCA) othersOfEachKind(self int32) (rec, other int) {
	rec, other = s.reciprocal, len(s.peers)-s.reciprocal
	switch {
	case self < 0:
	case s.peers[self].share < 1:
		rec--
	default:
		other--
	}
	return rec, other
}

// appendNeighbours appends near's agents to sc.nbrs as orca.Neighbours.
func (s *ORCA) appendNeighbours(j *orcaJob, sc *orcaScratch, self int32, near []orcaNear) {
	for _, n := range near {
		pe := &s.bySlot[n.slot]
		pos, vel := n.pos, pe.vel
		if pos == j.pos && vel == j.vel {
			pos = r2.Add(pos, apart(self, pe.id))
		}
		sc.nbrs = append(sc.nbrs, orca.Neighbour{Position: pos, Velocity: vel, Radius: pe.radius, Share: pe.share})
	}
}

// orcaGrowFrom is the NeighbourDist, in cells, above which [ORCA.neighbours] looks in
// growing circles (half of it first, then 4 times as far each time, then all of
// NeighbourDist once the circle spans the grid) and stops at the first that holds more
// than MaxNeighbours agents: the MaxNeighbours nearest within NeighbourDist are in it,
// all others being farther. The answer is the same; a NeighbourDist of 1e300 (or
// +Inf's neighbour MaxFloat64) with the default 10 neighbours read every agent in
// the hash for every agent, 22 times the default's cost at 3,000 agents.
const orcaGrowFrom = 16.0

// maxInsertNeighbours is the largest MaxNeighbours whose nearest neighbours are kept by
// insertion as they are found ([keepNearest]); more (a MaxNeighbours of 1000 "to avoid
// everyone") are sorted once ([sortNearest]): insertion is quadratic in the count, and
// took 96% of 10 s a frame for 1,500 agents all within NeighbourDist. Both give the same
// neighbours in the same order.
const maxInsertNeighbours = 32

// keepNearest adds n to near, the at most k nearest so far, nearest first (ties in the
// order found), and returns it.
func keepNearest(near []orcaNear, n orcaNear, k int) []orcaNear {
	if len(near) == k {
		if n.distSq >= near[k-1].distSq {
			return near
		}
		near = near[:k-1]
	}
	near = append(near, n)
	for m := len(near) - 1; m > 0 && near[m].distSq < near[m-1].distSq; m-- {
		near[m], near[m-1] = near[m-1], near[m]
	}
	return near
}

// sortNearest returns the k nearest of near, nearest first (ties in the order found), as
// keepNearest would have kept them.
func sortNearest(near []orcaNear, k int) []orcaNear {
	slices.SortStableFunc(near, func(a, b orcaNear) int { return cmp.Compare(a.distSq, b.distSq) })
	return near[:min(k, len(near))]
}

// apart is where agent self sees a neighbour at its very point with its very velocity
// (agents spawned on one spot), relative to that point: 1e-6 cells off, in a direction
// fixed by the pair and opposite for the other agent of the pair, so the two part
// (orca.AgentLine has no half-plane for such a pair, and each would ignore the other).
func apart(self, other int32) r2.Vec {
	lo, hi, sign := self, other, 1e-6
	if lo > hi {
		lo, hi, sign = hi, lo, -1e-6
	}
	// an angle spread by the golden ratio, so that agents stacked on one point fan out
	turn := math.Mod(float64(float64(lo)*0.6180339887498949)+float64(float64(hi)*0.7548776662466927), 1)
	sin, cos := detmath.Sincos(2 * math.Pi * turn)
	return r2.Vec{X: sign * cos, Y: sign * sin}
}

// wallsNear reports whether a blocked cell, or the grid's border, may be
// within reach of pos: a blocked cell among the cells within reach and the
// ring round them.
func (s *ORCA) wallsNear(pos r2.Vec, reach float64) bool {
	w, h := s.grid.Width(), s.grid.Height()
	x0, x1 := math.Floor(pos.X-reach)-1, math.Floor(pos.X+reach)+1
	y0, y1 := math.Floor(pos.Y-reach)-1, math.Floor(pos.Y+reach)+1
	if x0 < 0 || y0 < 0 || x1 >= float64(w) || y1 >= float64(h) {
		return true // the border is near
	}
	return s.walls.blockedIn(int(x0), int(x1)+1, int(y0), int(y1)+1)
}

// orcaFilter is Diagnose's filter of the agents with an ORCA.
func orcaFilter() *generic.Filter5[components.ORCA, components.Position, components.Velocity, components.Kinematics, components.Steering] {
	return generic.NewFilter5[components.ORCA, components.Position, components.Velocity, components.Kinematics, components.Steering]().
		Optional(generic.T[components.Position](), generic.T[components.Velocity](), generic.T[components.Kinematics](),
			generic.T[components.Steering]())
}

// orcaChecks counts the ORCAs the ORCA system cannot use (CauseORCAInvalid),
// those whose horizons look like milliseconds (CauseORCAHorizonLong), those that
// avoid more than MaxORCANeighbours (CauseORCANeighboursMany), and
// those no ORCA system serves (CauseNoORCASystem).
func (d *diagnoser) orcaChecks(w *arche.World, r *Report) {
	q := d.avoiders.Query(w)
	for q.Next() {
		o, pos, vel, kin, st := q.Get()
		if pos == nil || vel == nil || kin == nil || st == nil || !UsableORCA(o) {
			r.addLacking(CauseORCAInvalid, q.Entity(), lackIf(pos == nil, lackPosition)|lackIf(vel == nil, lackVelocity)|
				lackIf(kin == nil, lackKinematics)|lackIf(st == nil, lackSteering))
		} else {
			if o.TimeHorizon > MaxORCAHorizon || o.ObstacleHorizon > MaxORCAHorizon {
				r.add(CauseORCAHorizonLong, q.Entity())
			}
			if o.MaxNeighbours > MaxORCANeighbours {
				r.add(CauseORCANeighboursMany, q.Entity())
			}
		}
		if d.lacks(sysORCA) {
			r.addNote(CauseNoORCASystem, q.Entity(), needsNote("an ORCA needs systems.ORCA, between Steer and Movement"))
		}
	}
}
