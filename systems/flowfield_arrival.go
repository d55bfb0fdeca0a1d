package systems

import "math"

// The arrival rule of [FlowField], by direction: agents are counted by
// distance step and by sector around the goal, so that a crowd packed on
// one side of its goal (the goal moved to its rim, or the agents came in
// from one side) counts as packed, and the agents reaching it stop at its
// rim instead of pressing into it until it is packed around the goal.

// arrivalSectors is the number of equal sectors around a goal that agents
// are counted in; a wedge is arrivalWedge consecutive sectors, half the
// circle.
const (
	arrivalSectors = 16
	arrivalWedge   = arrivalSectors / 2
)

// tanSector is tan(π/arrivalSectors) = tan(22.5°) = √2−1, a sector's
// half-quadrant boundary.
var tanSector = math.Sqrt2 - 1

// sectorOf returns the sector, 0 to arrivalSectors−1 counterclockwise from
// the +X axis, of the direction (dx, dy): sector j holds the angles
// [j, j+1)·2π/arrivalSectors (at a boundary, one of the two sides; the
// same one every time). It compares, without trigonometry.
func sectorOf(dx, dy float64) int {
	ax, ay := math.Abs(dx), math.Abs(dy)
	var q int // the sector within the quadrant, by the angle from the X axis
	switch {
	case ay < tanSector*ax:
		q = 0
	case ay < ax:
		q = 1
	case ax > tanSector*ay:
		q = 2
	default:
		q = 3
	}
	switch {
	case dx >= 0 && dy >= 0:
		return q
	case dx < 0 && dy >= 0:
		return 7 - q
	case dx < 0:
		return 8 + q
	default:
		return 15 - q
	}
}

// arrivalDisk is where a goal's followers have arrived: the agents on
// distance steps below arrive[j] of sector j.
type arrivalDisk [arrivalSectors]int32

// has reports whether an agent at code (a flowJob's step: its distance step
// times arrivalSectors plus its sector; −1 when out of reach) has arrived.
func (a *arrivalDisk) has(code int32) bool {
	return code >= 0 && code/arrivalSectors < a[code%arrivalSectors]
}

// arrivalScratch is gather's per-frame work space: counts by step, all
// sectors and one wedge.
type arrivalScratch struct {
	tot, wedge []int32
}

// reachSteps returns the number of distance steps counted for a goal with
// n followers: no agent can join beyond the rim of a half disk holding them
// all (a crowd on one side of its goal).
func (s *FlowField) reachSteps(n int) int {
	return int(s.edge(2*n)/(s.Spacing/arrivalSteps)) + 1
}

// diskSteps is the disk rule on counts t by distance step (step cells
// each) for a disk covering frac of the circle around the goal: going
// outwards, a step's agents join when the step is no farther than the rim
// of the part-disk holding the agents of the nearer steps at one per
// Spacing² cells, plus Spacing/2. It returns the first step that fails
// (len(t) if none) and the agents of the steps before it.
func (s *FlowField) diskSteps(t []int32, step, frac float64) (arrive int, gathered int) {
	for k, c := range t {
		if c == 0 {
			continue
		}
		if float64(k+1)*step > s.Spacing*math.Sqrt(float64(gathered)/(frac*math.Pi))+s.Spacing/2 {
			return k, gathered
		}
		gathered += int(c)
	}
	return len(t), gathered
}

// decide sets gl.arrive from h, its followers counted by distance step and
// sector (h[k*arrivalSectors+j]: step k, sector j), with ground the open
// ground around its goal by step (see [openGround]). The rule (see
// [FlowField]): the disk rule on the whole circle, capped by the open
// ground; then the disk rule on each half-circle wedge of sectors, which
// extends the sectors it covers where a wedge reaches farther, unless the
// crowd so gathered is more than the open ground around it holds.
func (s *FlowField) decide(gl *flowGoal, h []int32, ground []int32) {
	const m = arrivalSectors
	steps := len(h) / m
	step := s.Spacing / arrivalSteps
	sc := &s.arrivalScratch
	sc.tot = grow(sc.tot, steps)
	tot := sc.tot
	for k := range steps {
		c := int32(0)
		for _, v := range h[k*m : k*m+m] {
			c += v
		}
		tot[k] = c
	}
	a0, gathered := s.diskSteps(tot, step, 1)
	area := s.Spacing * s.Spacing
	// no more agents than the open ground around the disk holds
	if capacity := float64(ground[a0+arrivalSteps/2]) / area; float64(gathered) > capacity {
		gathered = 0
		for k, c := range tot[:a0] {
			if float64(gathered+int(c)) > capacity {
				a0 = k
				break
			}
			gathered += int(c)
		}
		for j := range gl.arrive {
			gl.arrive[j] = int32(a0)
		}
		return
	}
	for j := range gl.arrive {
		gl.arrive[j] = int32(a0)
	}
	// the wedges of sectors w to w+arrivalWedge−1, their counts updated
	// from the last wedge's
	sc.wedge = grow(sc.wedge, steps)
	wt := sc.wedge
	far := a0
	for w := range m {
		if w == 0 {
			for k := range steps {
				c := int32(0)
				for _, v := range h[k*m : k*m+arrivalWedge] {
					c += v
				}
				wt[k] = c
			}
		} else {
			in, out := (w+arrivalWedge-1)%m, w-1
			for k := range steps {
				wt[k] += h[k*m+in] - h[k*m+out]
			}
		}
		aw, _ := s.diskSteps(wt, step, 0.5)
		if aw <= a0 {
			continue
		}
		far = max(far, aw)
		for j := w; j < w+arrivalWedge; j++ {
			gl.arrive[j%m] = max(gl.arrive[j%m], int32(aw))
		}
	}
	if far == a0 {
		return
	}
	// the wedges' crowd too must fit the open ground around it
	total := 0
	for j, a := range gl.arrive {
		for k := range int(a) {
			total += int(h[k*m+j])
		}
	}
	if float64(total) > float64(ground[far+arrivalSteps/2])/area {
		for j := range gl.arrive {
			gl.arrive[j] = int32(a0)
		}
	}
}
