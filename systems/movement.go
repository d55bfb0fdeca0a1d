package systems

import (
	"math"
	"unsafe"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Movement integrates each agent's steering force over the frame's dt
// (vel += force·dt, clamped to MaxSpeed; pos += vel·dt; see [steer.Integrate])
// and keeps agents out of blocked cells: a step that would end in a blocked or
// off-grid cell, or cross diagonally between two cells past a blocked corner,
// slides along the wall (only the x or only the y part of the step is taken, and
// the velocity along the blocked axis is zeroed) or, if neither part is free,
// stops the agent where it is. A step longer than half a cell is split into
// sub-steps of at most half a cell, each checked the same way, so a fast agent
// cannot tunnel through a thin wall. An agent therefore never ends a step
// inside a blocked cell if it started outside one. An agent that stands in a
// blocked cell of the grid (a door closed on it, a wall built where it stood,
// an agent spawned in a wall) moves freely within the grid until it is out,
// so it walks out of the wall on the side it heads for rather than stay in it,
// but never deeper in: a step into a blocked cell farther from open ground
// (Chebyshev distance to the nearest open cell, looked for within 8 cells) is
// slid or stopped as a step into a wall is, so a crowd pressing on an agent in
// a closed bridge cannot push it into the river beside it. An agent off the
// grid (spawned or loaded past its edge) moves freely there and comes onto
// the grid only into open cells, by the same rule with the cells off the
// grid counted open (so it can step on diagonally at a corner); on the grid,
// the edge holds it as a wall does.
//
// An agent of radius 0 < r ≤ 0.5 keeps its disc out of walls as well: when
// the centre's step leaves the disc overlapping a blocked cell (or the
// grid's edge), the disc is moved out within the centre's cell, off each
// blocked side it overlaps and then out of a blocked corner, to 10⁻⁹ cells
// past touching, and the velocity loses its part into each such wall. So its
// centre never comes within r of a wall it was clear of, whatever the force
// (a crowd's separation, a seek into the wall), and an agent pressed
// against a wall stands still rather than creep. One whose disc overlaps a
// wall when its step starts (a door closed beside it, a spawn or load
// against a wall) moves by the centre's rule until its disc is clear, so a
// crowd in a doorway walks out of a door closing on it (movement_disc.go).
// A step whose disc stays clear is the centre's to the bit; a cell with no
// blocked cell around it costs one bit read.
//
// Wide agents (Kinematics.Radius r > 0.5 cells) keep their disc, not only
// their centre, out of blocked cells and off the grid's edge, as Detour and
// RTS engines keep a unit's circle out of walls: each sub-step whose disc
// would overlap a blocked cell is pushed back out along the normal of the
// nearest one (so an agent heading into a wall at an angle slides along it,
// one heading straight at it stops with its disc touching it; the velocity
// loses its part into the wall), else slid on one axis, else stopped. The
// disc therefore never overlaps a blocked cell if it started clear, and it
// never enters a gap narrower than 2r. An agent whose disc overlaps already
// (spawned in a corner, a wall built beside it, a loaded world) is never
// moved deeper in: each sub-step leaves its overlap no deeper than it was,
// and one that moves is pushed out by up to its sub-step's length, so it is
// clear after moving about as far as it overlapped; at rest (no velocity and
// no force) it is not moved and keeps its overlap. One whose centre stands in
// a blocked cell walks out as above, and its disc is kept out from then on.
// The cells within r are read (a radius above 254.5 counts as 254.5 there),
// none when the grid's clearance shows the disc is far from walls.
//
// Bad data has a fixed result, never a hang or a poisoned position (and
// [Diagnose] counts the agent):
//
//   - an agent whose Position or Velocity is NaN or infinite, or whose
//     Kinematics are unusable (MaxSpeed or MaxForce not finite and > 0, see
//     [UsableKinematics]), is not moved and its velocity is set to zero; a
//     Velocity is thus reset within one frame, and the agent moves again from
//     rest in the next;
//   - a NaN or infinite steering force is treated as zero;
//   - a frame whose dt is not finite and > 0 moves nobody;
//   - a step is cut, in its direction, to at most the grid's width + height
//     cells (a straight walk that long would have left the grid): an absurd
//     dt such as 1e9 s costs at most 2·(width + height) + 5 sub-steps per
//     agent, not sub-steps in proportion to dt.
//
// Work is split over Workers goroutines (0: runtime.GOMAXPROCS), which
// claim blocks of 256 agents as they come free (blockRun) and move them in
// place.
//
// Contract:
//
//	requires   Position, Velocity, Kinematics, Steering
//	writes     Position, Velocity
//	resources  *ecs.Clock (ecs.ClockSystem), *grid.Grid
//
//	absent or unusable             what Movement does                     Diagnose counts
//	a required component           not moved                              CauseSteerIncomplete
//	MaxSpeed/MaxForce not > 0      not moved, velocity zeroed             CauseKinematics
//	  and finite, Radius NaN/Inf
//	Position NaN/Inf               not moved, velocity zeroed             CausePosition
//	Velocity NaN/Inf               not moved this frame, velocity zeroed  CauseVelocity
//	in a blocked cell              moves freely in the grid until out,    CauseBlocked
//	                               never into a deeper blocked cell
//	off the grid                   moves freely off the grid, comes on    CauseOffGrid
//	                               into open cells only
//	disc (r > 0.5) overlapping a   never deeper; pushed out as it moves   -
//	  blocked cell, centre open
//	disc (0 < r ≤ 0.5) overlapping moves by the centre's rule until the   -
//	  a blocked cell, centre open  disc is clear, then held clear
//	dt not finite and > 0          nobody moves                           - (see ecs.CheckDT)
type Movement struct {
	ran     ecs.Ran // the frame it last ran, for save.Save's check (ecs.Frame.Between)
	Workers int

	clock   *ecs.Clock
	grid    *grid.Grid
	maxStep float64 // cells, Chebyshev: the longest step taken in one frame
	pool    *ecs.Workers
	blocks  blockRun
	filter  *generic.Filter4[components.Position, components.Velocity, components.Kinematics, components.Steering]
	cols    columns  // the query's components, read by the workers in place
	walls   wallBits // the grid's blocked cells, one bit a cell: stays in cache

	finalized bool // Finalize ran, and Initialize not since (lifecycle.go)
}

// Column indices of Movement's columns.
const (
	mvPos = iota
	mvVel
	mvKin
	mvSteering
)

// Name implements ecs.Namer.
func (s *Movement) Name() string { return "movement" }

// Initialize finds the resources and builds the filter.
//
// Panics:
//   - if the world has no *ecs.Clock resource: add ecs.NewClockSystem(dt) as
//     the first system;
//   - if the world has no *grid.Grid resource: add one with
//     arche.AddResource before Initialize, or one of no cells (a zero
//     grid.Grid{}): make it with grid.New or grid.NewChecked.
func (s *Movement) Initialize(w *arche.World) {
	s.clock = mustClock(w, "Movement")
	s.grid = mustGrid(w, "Movement")
	markInstalled(w, sysMovement)
	s.ran.Join(w, s)
	s.maxStep = float64(s.grid.Width()+s.grid.Height()) + 2
	s.filter = generic.NewFilter4[components.Position, components.Velocity, components.Kinematics, components.Steering]()
	s.pool = reopenPool(s.pool, s.Workers)
	s.cols.reset() // a second world (a level restart) registers its own columns
	s.cols.column(arche.ComponentID[components.Position](w), unsafe.Sizeof(components.Position{}))
	s.cols.column(arche.ComponentID[components.Velocity](w), unsafe.Sizeof(components.Velocity{}))
	s.cols.column(arche.ComponentID[components.Kinematics](w), unsafe.Sizeof(components.Kinematics{}))
	s.cols.column(arche.ComponentID[components.Steering](w), unsafe.Sizeof(components.Steering{}))
	s.walls.bitsOnly = true   // Movement reads the bitmap alone, not Steer's quadrant table
	s.walls.withBeside = true // and the cells beside a wall (small discs: movement_disc.go)
	s.prepareGrid()           // at Initialize, not in the first frame (Steer.prepareGrid)
}

// prepareGrid brings the wall bitmap and the grid's clearance up to date.
func (s *Movement) prepareGrid() {
	s.maxStep = float64(s.grid.Width()+s.grid.Height()) + 2 // the grid's size now (a map copied over it in place)
	s.walls.update(s.grid)
	s.grid.Clearance(grid.Cell{}) // built here, before the workers read it (wide agents' discs)
}

// Update moves every agent: the query's columns are recorded archetype by
// archetype (no entity read), then the workers move blocks of agents in place, in storage
// order (each agent's step reads only its own components and the grid).
func (s *Movement) Update(w *arche.World) {
	s.ran.Mark(w)
	mustInitialized(s.filter, s.finalized, "Movement")
	s.prepareGrid()
	q := s.filter.Query(w)
	n := q.Count()
	s.cols.scanRuns(w, &q.Query) // no entity needed: runs and count only
	s.blocks.run(s.pool, s, n)
}

// Work implements ecs.Job.
//
// The loop is steer.Integrate and the first sub-step's wall check written
// out (the same arithmetic, so the same results to the bit): an agent of
// radius ≤ 0.5 whose step stays within its cell, the common case, costs no
// call. A step that leaves the cell or is longer than half a cell, and a
// wide agent's, goes through step.
func (s *Movement) Work(worker, lo, hi int) {
	dt := s.clock.DT
	if !(dt > 0) || math.IsInf(dt, 1) {
		return // nobody moves
	}
	c := &s.cols
	n := c.count
	for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
		start := c.runs[r].start
		a, b := max(lo, start)-start, min(hi, c.end(r, n))-start
		pos := columnOf[components.Position](c, r, mvPos, n)[a:b]
		vel := columnOf[components.Velocity](c, r, mvVel, n)[a:b]
		kin := columnOf[components.Kinematics](c, r, mvKin, n)[a:b]
		st := columnOf[components.Steering](c, r, mvSteering, n)[a:b]
		vel, kin, st = vel[:len(pos)], kin[:len(pos)], st[:len(pos)]
		for i := range pos {
			px, py := pos[i].X, pos[i].Y
			vx, vy := vel[i].X, vel[i].Y
			k := &kin[i]
			maxV, maxF := k.MaxSpeed, k.MaxForce
			// finite position and velocity (x−x is NaN for ±Inf and NaN, 0
			// else: the sum is 0 only if all are finite), usable kinematics
			// (UsableKinematics)
			if (px-px)+(py-py)+(vx-vx)+(vy-vy)+(maxV-maxV)+(maxF-maxF)+(k.Radius-k.Radius) != 0 ||
				!(maxV > 0) || !(maxF > 0) {
				vel[i].Vec = r2.Vec{} // stands still; Diagnose counts it
				continue
			}
			fx, fy := st[i].Force.X, st[i].Force.Y
			if vx == 0 && vy == 0 && fx == 0 && fy == 0 {
				continue // at rest and staying: nothing changes
			}
			// steer.Integrate: the force truncated to maxF (zero if not
			// finite), vel += dt·force truncated to maxV, pos += dt·vel, each
			// product rounded as steer's (no multiply-add: see fusion.go)
			if l := math.Sqrt(float64(fx*fx) + float64(fy*fy)); l-l != 0 {
				fx, fy = 0, 0
			} else if l > maxF && l > 0 {
				f := maxF / l
				fx, fy = f*fx, f*fy
			}
			vx, vy = vx+float64(dt*fx), vy+float64(dt*fy)
			if l := math.Sqrt(float64(vx*vx) + float64(vy*vy)); l-l != 0 {
				vx, vy = 0, 0
			} else if l > maxV && l > 0 {
				f := maxV / l
				vx, vy = f*vx, f*vy
			}
			nx, ny := px+float64(dt*vx), py+float64(dt*vy)
			// within half a cell and within the agent's cell, its disc (if it
			// has one) clear of the cells around: no wall to meet;
			// the cells of coordinates all in [+0, 2³¹) (one comparison of
			// their bits, as onGridCoords) are their truncations to int32, as
			// floorCell's, compared without its calls (sameFloorCells: any
			// other); not for a wide agent (radius > 0.5), whose disc can
			// meet a wall within its cell: step takes it to stepWide
			// (both |d| < 0.5: stepCentre's int(max(|dx|, |dy|)·2) == 0, NaN and
			// ±Inf failing both, without the float max's NaN and −0 checks)
			if dx, dy := nx-px, ny-py; math.Abs(dx) < 0.5 && math.Abs(dy) < 0.5 {
				onGrid := max(math.Float64bits(px), math.Float64bits(py), math.Float64bits(nx), math.Float64bits(ny)) < bitsOf2p31
				if (onGrid && int32(nx) == int32(px) && int32(ny) == int32(py) || !onGrid && sameFloorCells(px, py, nx, ny)) && !(k.Radius > 0.5) {
					if !(k.Radius > 0) || onGrid && s.walls.roomy(int32(nx), int32(ny)) {
						pos[i].Vec, vel[i].Vec = r2.Vec{X: nx, Y: ny}, r2.Vec{X: vx, Y: vy}
						continue
					}
					if onGrid { // the centre's step is to (nx, ny) (step's, to the bit): the disc's rule alone
						pos[i].Vec, vel[i].Vec = s.holdDiscInCell(int32(nx), int32(ny), r2.Vec{X: px, Y: py}, r2.Vec{X: nx, Y: ny}, r2.Vec{X: vx, Y: vy}, k.Radius)
						continue
					}
				}
			}
			pos[i].Vec, vel[i].Vec = s.step(r2.Vec{X: px, Y: py}, r2.Vec{X: nx, Y: ny}, r2.Vec{X: vx, Y: vy}, k.Radius)
		}
	}
}

// sameFloorCells reports whether (px, py) and (nx, ny) lie in one cell (by
// floorCell).
func sameFloorCells(px, py, nx, ny float64) bool {
	return floorCell(nx) == floorCell(px) && floorCell(ny) == floorCell(py)
}

// floorCell is the cell coordinate holding the finite coordinate v, as
// grid.Grid.CellAt gives it for coordinates on a grid (a truncation there);
// anything else falls back to the floor.
func floorCell(v float64) int64 {
	if v >= 0 && v < 1<<31 {
		return int64(int32(v))
	}
	return int64(math.Floor(v))
}

// MaxKinematicSpeed and MaxKinematicForce bound Kinematics.MaxSpeed (cells per
// second) and MaxForce (cells per second²): far above any agent's (a million cells a
// second crosses a 4096² map in a frame), and low enough that the steering
// arithmetic (squares of speeds and forces, divided by small steps) stays finite. A
// larger value is a unit mistake or corrupt data: the agent's Kinematics are
// unusable ([UsableKinematics]) and the bundles refuse it (Motion.Validate).
const (
	MaxKinematicSpeed = 1e6
	MaxKinematicForce = 1e9
)

// MaxKinematicRadius bounds Kinematics.Radius, in cells: the largest radius whose
// route clearance grid.ClearanceFor represents (255 cells: a disc 509 cells across,
// wider than most maps). A larger radius was routed as if it were this one and pushed
// separation's squares towards infinity: a unit mistake or corrupt data (Radius 1e9 on
// a 32×32 map moved as if nothing were wrong). Such Kinematics are unusable
// ([UsableKinematics]: the agent stands still, [Diagnose] counts it as
// kinematics_invalid) and the bundles refuse it (Motion.Validate). A radius within
// the bound but too wide for the map's passages finds no route: PathUnreachable,
// counted as path_goal_too_narrow.
const MaxKinematicRadius = 254.5

// UsableKinematics reports whether the steering and movement systems can use
// k: MaxSpeed in (0, MaxKinematicSpeed] and MaxForce in (0, MaxKinematicForce],
// Radius finite and at most MaxKinematicRadius (a Radius ≤ 0 is usable, though
// [Diagnose] counts it). An agent with unusable Kinematics stands still.
func UsableKinematics(k *components.Kinematics) bool {
	return k.MaxSpeed > 0 && k.MaxSpeed <= MaxKinematicSpeed && k.MaxForce > 0 && k.MaxForce <= MaxKinematicForce &&
		!math.IsNaN(k.Radius) && k.Radius <= MaxKinematicRadius && !math.IsInf(k.Radius, -1)
}

// step moves an agent of radius r from p towards next: a wide agent (r >
// 0.5) by stepWide, any other by the centre's rule (stepCentre), its disc
// then held out of walls (holdDisc) if it has one (r > 0).
func (s *Movement) step(p, next, v r2.Vec, r float64) (r2.Vec, r2.Vec) {
	if r > 0.5 {
		return s.stepWide(p, next, v, r)
	}
	q, nv := s.stepCentre(p, next, v)
	if r > 0 {
		return s.holdDisc(p, q, nv, r) // the disc's rule (movement_disc.go)
	}
	return q, nv
}

// stepCentre moves the centre of an agent from p towards next in sub-steps
// of at most half a cell, each resolved by the centre's rule (resolve); a
// step longer than maxStep cells (Chebyshev) is cut to that length first.
func (s *Movement) stepCentre(p, next, v r2.Vec) (r2.Vec, r2.Vec) {
	d := r2.Sub(next, p)
	if l := max(abs(d.X), abs(d.Y)); l > s.maxStep {
		d = scaled(s.maxStep/l, d)
		next = r2.Add(p, d)
	}
	n := int(max(abs(d.X), abs(d.Y))*2) + 1
	if n == 1 {
		return s.resolve(p, next, v)
	}
	inc := r2.Scale(1/float64(n), d)
	for range n {
		q, nv := s.resolve(p, r2.Add(p, inc), v)
		if nv != v { // hit a wall: keep sliding along it with what is left
			inc = r2.Vec{X: inc.X * boolf(nv.X != 0), Y: inc.Y * boolf(nv.Y != 0)}
			v = nv
		}
		p = q
	}
	return p, v
}

// resolve returns the position and velocity after a step from p to next,
// slid along or stopped by walls (read from the bitmap of blocked cells:
// off the grid counts as blocked, as for grid.Grid.Passable).
func (s *Movement) resolve(p, next, v r2.Vec) (r2.Vec, r2.Vec) {
	g, b := s.grid, &s.walls
	from, to := g.CellAt(p), g.CellAt(next)
	if to == from || (!b.blocked(to.X, to.Y) && (to.X == from.X || to.Y == from.Y ||
		(!b.blocked(to.X, from.Y) && !b.blocked(from.X, to.Y)))) { // centreFree, written out (a call costs)
		return next, v
	}
	if b.blocked(from.X, from.Y) && g.InBounds(from) {
		return s.inWall(p, next, v, from, to) // inside a wall (a door closed on it): free to walk out, never deeper in (movement_wall.go)
	}
	if !g.InBounds(from) {
		return s.offGrid(p, next, v, from, to) // off the grid: free to walk on, into open cells only (movement_wall.go)
	}
	if !b.blocked(to.X, from.Y) {
		return r2.Vec{X: next.X, Y: p.Y}, r2.Vec{X: v.X}
	}
	if !b.blocked(from.X, to.Y) {
		return r2.Vec{X: p.X, Y: next.Y}, r2.Vec{Y: v.Y}
	}
	return p, r2.Vec{}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Finalize releases the workers and the filters; Update panics until the next
// Initialize (see lifecycle.go).
func (s *Movement) Finalize(w *arche.World) {
	if s.filter != nil { // not if never initialized, or finalized already
		s.pool.Close()
		s.filter, s.finalized = nil, true
	}
	s.ran.Leave()
	markFinalized(w, sysMovement)
}
