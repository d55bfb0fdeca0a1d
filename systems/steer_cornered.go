package systems

import (
	"math"

	"gonum.org/v1/gonum/spatial/r2"
)

// Fleeing into a wall. A flight (Flee, Evade) asks for full speed away from
// its threat, whatever lies that way: an agent driven against a wall or into
// a corner kept pushing into it with the whole move force while its wall
// feelers, cast along its small and changing velocity, pushed it back, and
// it shook there for good (measured: a default Mover cornered in a room at
// 0.15–0.26 cells/s for a minute). So the move force of a flight loses what
// would carry the agent further into a wall its disc touches (within
// cornerGap cells of a blocked cell's face beside its own cell, or the
// grid's edge): along each such face's normal it may at most stop the
// agent's motion into the face within the step. Along a wall the agent
// slides on, away from its threat; in a corner it comes to rest (a standing
// agent casts no feelers). Movement keeps it out of the walls as before.
const cornerGap = 0.05

// cornered returns the move force f of a fleeing agent at pos, of the given
// radius and velocity vel, less what would push it into the faces it is
// pressed against (see above); dt is the step.
func (b *wallBits) cornered(pos, vel, f r2.Vec, radius, dt float64) r2.Vec {
	if !(pos.X >= 0 && pos.Y >= 0 && pos.X < float64(b.w) && pos.Y < float64(b.h)) || !(dt > 0) {
		return f
	}
	reach := max(radius, 0) + cornerGap
	cx, cy := int32(pos.X), int32(pos.Y)
	if f.X > 0 && b.faceWithin(cx, cy, 1, 0, float64(cx+1)-pos.X, reach) {
		f.X = min(f.X, -vel.X/dt)
	} else if f.X < 0 && b.faceWithin(cx, cy, -1, 0, pos.X-float64(cx), reach) {
		f.X = max(f.X, -vel.X/dt)
	}
	if f.Y > 0 && b.faceWithin(cx, cy, 0, 1, float64(cy+1)-pos.Y, reach) {
		f.Y = min(f.Y, -vel.Y/dt)
	} else if f.Y < 0 && b.faceWithin(cx, cy, 0, -1, pos.Y-float64(cy), reach) {
		f.Y = max(f.Y, -vel.Y/dt)
	}
	return f
}

// faceWithin reports whether, walking from cell (cx, cy) in the direction
// (dx, dy), a blocked cell's face lies within reach cells, gap being the
// distance to the first face (the side of the agent's own cell).
func (b *wallBits) faceWithin(cx, cy, dx, dy int32, gap, reach float64) bool {
	for k := int32(1); gap <= reach; k, gap = k+1, gap+1 {
		if b.blocked(cx+k*dx, cy+k*dy) {
			return true
		}
	}
	return false
}

// Wandering into a wall. A wanderer's target lies ahead along its heading,
// the direction of its velocity, or +x when it stands still (steer.Wander):
// one that came to rest in a corner, or against a wall to its east, had its
// target beyond the wall whatever the wander angle, pushed into it, and
// Movement kept it there at speed 0 (measured: a default Wanderer of top
// speed 3 parked in the corner (63.7, 0.3) of an empty 64×64 map for 77 s,
// until the angle happened to turn it along the wall). So a wanderer at
// rest (slower than a frame of its MaxForce) whose disc touches walls
// (cornerGap, as for a flight) wanders from the direction away from them
// (awayFrom): its target then lies at least Distance − Radius cells off the
// wall (1 with the bundle's defaults), and it walks away.

// awayFrom returns the unit direction away from the faces of blocked cells
// (and the grid's edges) beside pos's cell that a disc of radius at pos
// touches (within cornerGap): the sum of their outward normals, normalized;
// false when it touches none (or the sum is zero: walls on opposite sides).
func (b *wallBits) awayFrom(pos r2.Vec, radius float64) (r2.Vec, bool) {
	if !(pos.X >= 0 && pos.Y >= 0 && pos.X < float64(b.w) && pos.Y < float64(b.h)) {
		return r2.Vec{}, false
	}
	reach := max(radius, 0) + cornerGap
	cx, cy := int32(pos.X), int32(pos.Y)
	var n r2.Vec
	if b.faceWithin(cx, cy, 1, 0, float64(cx+1)-pos.X, reach) {
		n.X--
	}
	if b.faceWithin(cx, cy, -1, 0, pos.X-float64(cx), reach) {
		n.X++
	}
	if b.faceWithin(cx, cy, 0, 1, float64(cy+1)-pos.Y, reach) {
		n.Y--
	}
	if b.faceWithin(cx, cy, 0, -1, pos.Y-float64(cy), reach) {
		n.Y++
	}
	if n.X == 0 && n.Y == 0 {
		return r2.Vec{}, false
	}
	return r2.Scale(1/math.Sqrt(float64(n.X*n.X)+float64(n.Y*n.Y)), n), true // 1 or √2: sums of ±1
}
