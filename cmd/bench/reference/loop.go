package reference

import (
	"errors"
	"math"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// The swarm's tuning, which the reference loop shares (cells, seconds).
const (
	MaxSpeed         = 4.0  // cells/s, as the swarm
	MaxForce         = 20.0 // cells/s², as the swarm
	SeparationRadius = 0.9  // cells: neighbours nearer than this push
	SeparationWeight = 1.5  // the swarm's separation weight
)

// Config is what a [Loop] runs.
type Config struct {
	Grid      *grid.Grid
	Positions []r2.Vec  // spawn positions in cells, one per agent (copied)
	Goal      grid.Cell // the goal the flow field leads to
	DT        float64   // seconds per frame; 1/60 if ≤ 0
	Workers   int       // goroutines; 0 means GOMAXPROCS

	// NextGoal, if set, is called every GoalEvery seconds (5 if ≤ 0) of
	// simulation time for a new goal, as the swarm's goal director does; the
	// flow field is rebuilt within that frame.
	NextGoal  func() grid.Cell
	GoalEvery float64
}

// Loop is the reference loop: a crowd of agents in float32 arrays, stored
// sorted by cell and re-sorted every frame. Make one with [New], advance it
// with [Loop.Step], and [Loop.Close] it when done. A Loop is used from one
// goroutine.
type Loop struct {
	pool  *ecs.Workers
	g     *grid.Grid
	field *flowfield.Field
	w, h  int
	dt    float32

	open       []bool    // per cell: passable
	dirX, dirY []float32 // per cell: the flow field's unit direction (0 on the goal or without a path)

	// Agent state: cur is sorted by cell (start[c]:start[c+1] are cell c's
	// agents); step writes next in the same order, and the scatter sorts next
	// into cur for the following frame.
	cur, next state
	start     []int32   // len cells+1
	counts    [][]int32 // per worker, per cell: agents of the worker's range in the cell, then its cursor
	rangeSum  []int32   // per worker: agents in its range of cells
	cellOf    []int32   // per agent of next: its cell

	goal      grid.Cell
	nextGoal  func() grid.Cell
	goalEvery float64
	goalAt    float64
	frame     int64
	moves     int

	phase int // which part of the frame the workers run (see Work)
}

// state is the crowd in structure-of-arrays form; id is each agent's spawn
// index, carried along the sorts.
type state struct {
	pos, vel []vec2
	id       []int32
}

// vec2 is a position (cells) or velocity (cells/s) in float32.
type vec2 struct{ x, y float32 }

func newState(n int) state {
	return state{pos: make([]vec2, n), vel: make([]vec2, n), id: make([]int32, n)}
}

// The phases of a frame, run by the workers (Work).
const (
	phaseCount   = iota // per agent range: cell of each agent of next, counted per worker
	phasePrefix         // per cell range: agents in the range
	phaseOffsets        // per cell range: cell starts and per-worker cursors
	phaseScatter        // per agent range: next sorted into cur
	phaseStep           // per agent range: forces, integration, walls, into next
)

// New returns a loop over cfg's agents, its flow field built for cfg.Goal.
// It returns an error when there is no grid, no agent, or an agent outside
// the grid or in a blocked cell.
func New(cfg Config) (*Loop, error) {
	g := cfg.Grid
	switch {
	case g == nil:
		return nil, errors.New("reference: no grid")
	case len(cfg.Positions) == 0:
		return nil, errors.New("reference: no agents")
	}
	if cfg.DT <= 0 {
		cfg.DT = 1.0 / 60
	}
	if cfg.GoalEvery <= 0 {
		cfg.GoalEvery = 5
	}
	w, h, n := g.Width(), g.Height(), len(cfg.Positions)
	l := &Loop{
		pool: ecs.NewWorkers(cfg.Workers), g: g, field: flowfield.New(g), w: w, h: h, dt: float32(cfg.DT),
		open: make([]bool, w*h), dirX: make([]float32, w*h), dirY: make([]float32, w*h),
		cur: newState(n), next: newState(n), start: make([]int32, w*h+1), cellOf: make([]int32, n),
		nextGoal: cfg.NextGoal, goalEvery: cfg.GoalEvery, goalAt: cfg.GoalEvery,
	}
	for y := range h {
		for x := range w {
			l.open[y*w+x] = g.Passable(grid.Cell{X: int32(x), Y: int32(y)})
		}
	}
	for i, p := range cfg.Positions {
		c := g.CellAt(p)
		if !g.Passable(c) {
			l.pool.Close()
			return nil, errors.New("reference: an agent starts outside the grid or in a blocked cell")
		}
		l.next.pos[i], l.next.id[i] = vec2{float32(p.X), float32(p.Y)}, int32(i)
	}
	l.counts, l.rangeSum = make([][]int32, l.pool.N()), make([]int32, l.pool.N())
	for k := range l.counts {
		l.counts[k] = make([]int32, w*h)
	}
	l.setGoal(cfg.Goal)
	l.run(phaseCount, n)
	return l, nil
}

// setGoal builds the flow field for goal and copies its directions into
// the per-cell arrays.
func (l *Loop) setGoal(goal grid.Cell) {
	l.goal = goal
	l.field.Build(goal)
	for y := range l.h {
		for x := range l.w {
			d := l.field.Direction(grid.Cell{X: int32(x), Y: int32(y)})
			l.dirX[y*l.w+x], l.dirY[y*l.w+x] = float32(d.X), float32(d.Y)
		}
	}
}

// Step advances the crowd by one frame: sort the agents by cell (a counting
// sort whose counts the previous step made), then steer, integrate and keep
// them out of walls.
func (l *Loop) Step() {
	now := float64(float64(l.frame) * float64(l.dt))
	l.frame++
	if l.nextGoal != nil && now+float64(float64(l.dt)/2) >= l.goalAt { // rounded (x/2 compiles to x·0.5): no multiply-add on any build
		l.setGoal(l.nextGoal())
		l.moves++
		l.goalAt += l.goalEvery
	}
	cells, n := l.w*l.h, len(l.cur.pos)
	l.run(phasePrefix, cells)
	l.run(phaseOffsets, cells)
	l.run(phaseScatter, n)
	l.run(phaseStep, n)
	l.run(phaseCount, n)
}

// Close stops the workers.
func (l *Loop) Close() { l.pool.Close() }

// Len returns the number of agents.
func (l *Loop) Len() int { return len(l.cur.pos) }

// Goal returns the current goal.
func (l *Loop) Goal() grid.Cell { return l.goal }

// GoalMoves returns how often the goal has moved.
func (l *Loop) GoalMoves() int { return l.moves }

// Positions returns every agent's position in cells, in spawn order.
func (l *Loop) Positions() []r2.Vec {
	out := make([]r2.Vec, len(l.next.pos))
	for i, id := range l.next.id {
		out[id] = r2.Vec{X: float64(l.next.pos[i].x), Y: float64(l.next.pos[i].y)}
	}
	return out
}

// Hash returns an FNV-1a hash of every agent's position and velocity in
// spawn order: the same for any number of workers.
func (l *Loop) Hash() uint64 {
	n := len(l.next.pos)
	bits := make([]uint32, 4*n)
	for i, id := range l.next.id {
		p, v := l.next.pos[i], l.next.vel[i]
		b := bits[4*id:]
		b[0], b[1], b[2], b[3] = math.Float32bits(p.x), math.Float32bits(p.y), math.Float32bits(v.x), math.Float32bits(v.y)
	}
	sum := uint64(14695981039346656037)
	for _, v := range bits {
		for range 4 {
			sum ^= uint64(v & 0xff)
			sum *= 1099511628211
			v >>= 8
		}
	}
	return sum
}

func (l *Loop) run(phase, n int) {
	l.phase = phase
	l.pool.Run(l, n)
}

// Work implements ecs.Job: one phase of the frame over [lo, hi).
func (l *Loop) Work(worker, lo, hi int) {
	switch l.phase {
	case phaseCount:
		l.count(worker, lo, hi)
	case phasePrefix:
		l.prefix(worker, lo, hi)
	case phaseOffsets:
		l.offsets(worker, lo, hi)
	case phaseScatter:
		l.scatter(worker, lo, hi)
	case phaseStep:
		l.step(lo, hi)
	}
}

// count finds the cell of agents [lo, hi) of next and counts them in the
// worker's own counts (cleared first).
func (l *Loop) count(worker, lo, hi int) {
	cnt := l.counts[worker]
	clear(cnt)
	w, h := int32(l.w), int32(l.h)
	for i, p := range l.next.pos[lo:hi] {
		i += lo
		cx := min(max(int32(p.x), 0), w-1)
		cy := min(max(int32(p.y), 0), h-1)
		c := cy*w + cx
		l.cellOf[i] = c
		cnt[c]++
	}
}

// prefix sums every worker's counts over the cells [lo, hi), a worker's
// contiguous range of cells, into rangeSum[worker].
func (l *Loop) prefix(worker, lo, hi int) {
	var t int32
	for k := range l.counts {
		for _, v := range l.counts[k][lo:hi] {
			t += v
		}
	}
	l.rangeSum[worker] = t
}

// offsets turns the counts of the cell range [lo, hi) into cell starts and
// per-worker cursors, from the agents in the ranges before it. Agents end up
// ordered by cell, then by worker, then by index: their order in next, so
// the sort is stable and the same for any number of workers.
func (l *Loop) offsets(worker, lo, hi int) {
	var base int32
	for _, t := range l.rangeSum[:worker] {
		base += t
	}
	for c := lo; c < hi; c++ {
		l.start[c] = base
		for k := range l.counts {
			v := l.counts[k][c]
			l.counts[k][c] = base
			base += v
		}
	}
	if hi == len(l.start)-1 {
		l.start[hi] = base
	}
}

// scatter moves agents [lo, hi) of next to their sorted places in cur.
func (l *Loop) scatter(worker, lo, hi int) {
	cur, cnt := l.counts[worker], l.next
	for i := lo; i < hi; i++ {
		c := l.cellOf[i]
		j := cur[c]
		cur[c]++
		l.cur.pos[j], l.cur.vel[j], l.cur.id[j] = cnt.pos[i], cnt.vel[i], cnt.id[i]
	}
}

// step steers agents [lo, hi) of cur and writes their new state to next (same
// index): separation from the neighbours within SeparationRadius (read from
// cur, the 3×3 cells around), seek along the cell's flow direction, force and
// speed limits, an Euler step and the wall check.
func (l *Loop) step(lo, hi int) {
	const r = float32(SeparationRadius)
	const maxF, maxV = float32(MaxForce), float32(MaxSpeed)
	dt := l.dt
	w, h := int32(l.w), int32(l.h)
	cur, nx := &l.cur, &l.next
	pos := cur.pos
	for i := lo; i < hi; i++ {
		px, py, vx, vy := pos[i].x, pos[i].y, cur.vel[i].x, cur.vel[i].y
		cx, cy := int32(px), int32(py)
		// separation: (r−d)/r away from each neighbour within r
		var sx, sy float32
		for yy := max(cy-1, 0); yy <= min(cy+1, h-1); yy++ {
			row := yy * w
			a, b := l.start[row+max(cx-1, 0)], l.start[row+min(cx+1, w-1)+1]
			for k, q := range pos[a:b] {
				dx, dy := px-q.x, py-q.y
				d2 := float32(dx*dx) + float32(dy*dy) // each rounded: no multiply-add on any build
				if d2 >= r*r || int(a)+k == i {
					continue
				}
				if d2 == 0 {
					sx += 1 // coincident: push along +x
					continue
				}
				d := sqrt32(d2)
				s := (r - d) / (r * d)
				sx += float32(dx * s)
				sy += float32(dy * s)
			}
		}
		fx, fy := truncate(sx*maxF, sy*maxF, maxF)
		fx, fy = float32(fx*SeparationWeight), float32(fy*SeparationWeight)
		// seek along the flow direction: (desired − vel)/dt
		c := cy*w + cx
		sk, sl := truncate((float32(l.dirX[c]*maxV)-vx)/dt, (float32(l.dirY[c]*maxV)-vy)/dt, maxF)
		fx, fy = truncate(fx+sk, fy+sl, maxF)
		vx, vy = truncate(vx+float32(fx*dt), vy+float32(fy*dt), maxV)
		qx, qy := px+float32(vx*dt), py+float32(vy*dt)
		// wall check: slide along a blocked cell or stop
		tx, ty := int32(qx), int32(qy)
		if qx < 0 || qy < 0 || tx >= w || ty >= h || !l.open[ty*w+tx] ||
			(tx != cx && ty != cy && (!l.open[cy*w+tx] || !l.open[ty*w+cx])) {
			switch {
			case qx >= 0 && tx < w && l.open[cy*w+tx]:
				qy, vy = py, 0
			case qy >= 0 && ty < h && l.open[ty*w+cx]:
				qx, vx = px, 0
			default:
				qx, qy, vx, vy = px, py, 0, 0
			}
		}
		nx.pos[i], nx.vel[i], nx.id[i] = vec2{qx, qy}, vec2{vx, vy}, cur.id[i]
	}
}

// truncate returns (x, y) scaled down to length m if longer.
func truncate(x, y, m float32) (float32, float32) {
	if n2 := float32(x*x) + float32(y*y); n2 > m*m {
		s := m / sqrt32(n2)
		return x * s, y * s
	}
	return x, y
}

func sqrt32(v float32) float32 { return float32(math.Sqrt(float64(v))) }
