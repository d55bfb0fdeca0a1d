package systems

import (
	"math"

	"gonum.org/v1/gonum/spatial/r2"
)

// ORCA agents arriving in a crowd. ORCA picks the velocity nearest the
// preferred one that avoids the neighbours, and an agent held short of its
// point by others arriving there keeps preferring a velocity towards it:
// the nearest allowed one slides it along the crowd's rim, and the Bias
// (a right-hand turn of the preferred velocity while a neighbour is near)
// makes that an orbit. Before, agents sent to one point with ORCA circled
// it for good (measured with default Movers: 2 at 1.2–1.6 cells/s, 10 at
// 2.4, 30 at 3.2–3.8; without the Bias 10 still churned at 0.2).
//
// So a slow ORCA agent (|vel| ≤ MaxForce·τ/2, τ = max(crowdTau, 2·dt) as in
// steer_crowd.go: 1 cell/s for a default Mover) arriving (DesiredArrive)
// whose disc touches (within orcaTouchGap cells) that of a neighbour
// arriving at the very same point (bit for bit) and ahead of it (its centre
// within 60° of the way to the point, as seen from the agent) holds: its
// preferred velocity is zero and the Bias is off, so it moves only as far
// as its neighbours' avoidance asks. The first agent reaches the point, the
// others come to rest where one ahead of them stops them, and an agent
// moves on as soon as the one ahead leaves or gives way. Agents arriving at
// other points never hold for each other (two agents swapping places pass
// as before).
const (
	orcaTouchGap = 0.25 // cells between two discs that count as touching
	orcaAhead    = 0.5  // the cosine of the widest angle off the way to the point at which a neighbour is ahead (60°)
)

// heldInCrowd reports whether ORCA agent j, of the given radius, holds by
// the rule above, its neighbours (sc.near and sc.alone) found already.
func (s *ORCA) heldInCrowd(j *orcaJob, sc *orcaScratch, radius, dt float64) bool {
	if !j.arrive {
		return false
	}
	top := j.kin.MaxForce * max(crowdTau, 2*dt) / 2
	if norm2(j.vel) > top*top {
		return false
	}
	way := r2.Sub(j.point, j.pos)
	for _, list := range [2][]orcaNear{sc.near, sc.alone} {
		for _, n := range list {
			pe := &s.peers[s.bySlot[n.slot].id]
			if !pe.arrive || math.Float64bits(pe.goal.X) != math.Float64bits(j.point.X) || math.Float64bits(pe.goal.Y) != math.Float64bits(j.point.Y) {
				continue
			}
			touch := radius + pe.radius + orcaTouchGap
			d := r2.Sub(n.pos, j.pos)
			// ahead: within orcaAhead of the way to the point (cos² compared,
			// the dot product positive)
			if dot := float64(d.X*way.X) + float64(d.Y*way.Y); n.distSq <= touch*touch && dot > 0 &&
				dot*dot >= orcaAhead*orcaAhead*n.distSq*norm2(way) {
				return true
			}
		}
	}
	return false
}
