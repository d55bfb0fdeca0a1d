package systems

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// LODLevel is one band of level of detail: agents within Distance cells of
// the nearest focus point (and beyond the previous band) think every Interval
// seconds.
type LODLevel struct {
	Distance float64 // cells
	Interval float64 // seconds between decisions
}

// DefaultLODLevels: 10 Hz within 32 cells of a focus point, 2 Hz within 96,
// frozen beyond.
var DefaultLODLevels = []LODLevel{{Distance: 32, Interval: 0.1}, {Distance: 96, Interval: 0.5}}

// LOD sets each agent's level of detail ([components.LOD]) from its distance
// to the nearest focus point, and with it the agent's think interval
// ([components.Think]); past the last level the agent is frozen and does not
// think (nor perceive) until it comes back into range. Focus points are the
// Positions of entities with a [components.Focus] and the static Points; a
// point with a NaN or infinite coordinate is left out (Diagnose counts a Focus
// entity's as CausePosition). With no focus point at all, every agent gets level 0.
//
// When an agent's interval changes, the wait to its next decision is scaled by
// the ratio of the intervals (so a nearer agent thinks sooner, a farther one
// later, and each keeps its place within the interval as a fraction of it: a
// crowd spawned staggered over 0.1 s and slowed to 2 s thinks spread over 2 s,
// not within the same 0.1 s of every 2 s); an agent coming out of a freeze thinks in the next
// frame, and its tree sees the whole frozen time as dt, then thinks on its
// stagger phase again (a crowd that thaws together does not think in one frame
// of every interval from then on). A frozen agent does
// not think or perceive, but still steers towards its last intent.
//
// Agents with a [components.Path] get a path-queue priority from their level:
// the nearest level the highest.
//
// Contract:
//
//	requires   Position, Think, LOD
//	optional   Path (gets a priority); focus points: Focus with Position
//	writes     LOD, Think (Interval, Next, Frozen), Path.Priority
//	resources  *ecs.Clock (ecs.ClockSystem)
//
//	absent or unusable             what LOD does                          Diagnose counts
//	LOD (the component)            opt-out: keeps its Think.Interval,     - (CauseNoLODComponent when no
//	                               never frozen                             agent with a Think has one)
//	the LOD system, for an agent   keeps its Think.Interval, never        CauseNoLODSystem (with a
//	  with a LOD                     frozen; Level stays 0                  Focus entity in the world)
//	Path                           opt-out: no path priority              -
//	no focus point at all          every agent gets level 0               -
//	a focus point NaN or infinite  left out                               CausePosition (a Focus entity's)
//	a level NaN, negative, out of  Initialize panics naming the level     -
//	  order
type LOD struct {
	ran    ecs.Ran    // the frame it last ran, for save.Save's check (ecs.Frame.Between)
	Levels []LODLevel // by increasing Distance; DefaultLODLevels if empty
	Points []r2.Vec   // static focus points, cells

	Counts []int // agents per level in the last frame; the last entry counts frozen agents

	// Workers splits the agents over goroutines (0: runtime.GOMAXPROCS);
	// each agent's level reads only its own components and the focus points,
	// so the result does not depend on the count.
	Workers int

	clock  *ecs.Clock
	focus  *generic.Filter2[components.Focus, components.Position]
	agents *generic.Filter4[components.Position, components.Think, components.LOD, components.Path]
	points []r2.Vec

	pool    *ecs.Workers
	blocks  blockRun
	cols    columns
	wcounts [][]int // per worker, its Counts

	finalized bool // Finalize ran, and Initialize not since (lifecycle.go)
}

// Name implements ecs.Namer.
func (s *LOD) Name() string { return "lod" }

// Initialize builds the filters.
//
// Panics:
//   - if the world has no *ecs.Clock resource: add ecs.NewClockSystem(dt) as
//     the first system.
//   - if a level is unusable: a Distance NaN, negative or below the level
//     before's (+Inf is fine: no cut-off), or an Interval NaN, infinite or
//     negative (0 is DefaultThinkInterval). An Interval over MaxThinkInterval is
//     kept; Diagnose counts it on the agents (CauseThinkIntervalLong).
func (s *LOD) Initialize(w *arche.World) {
	if len(s.Levels) == 0 {
		s.Levels = DefaultLODLevels
	}
	for i, l := range s.Levels {
		if math.IsNaN(l.Distance) || l.Distance < 0 || (i > 0 && l.Distance < s.Levels[i-1].Distance) ||
			math.IsNaN(l.Interval) || math.IsInf(l.Interval, 0) || l.Interval < 0 {
			panic(setupFault("LOD", ecs.ErrSettings, fmt.Sprintf("systems: LOD.Levels[%d] is {Distance: %v, Interval: %v}; want each Distance ≥ 0 (cells, +Inf for no cut-off), "+
				"not below the one before, and Interval finite and ≥ 0 (seconds, 0 for DefaultThinkInterval)", i, l.Distance, l.Interval)))
		}
	}
	s.clock = mustClock(w, "LOD")
	s.focus = generic.NewFilter2[components.Focus, components.Position]()
	s.agents = generic.NewFilter4[components.Position, components.Think, components.LOD, components.Path]().
		Optional(generic.T[components.Path]())
	s.Counts = make([]int, len(s.Levels)+1)
	s.pool = reopenPool(s.pool, s.Workers)
	s.wcounts = make([][]int, s.pool.N())
	for i := range s.wcounts {
		s.wcounts[i] = make([]int, len(s.Levels)+1)
	}
	s.cols.reset() // a second world (a level restart) registers its own columns
	s.cols.column(arche.ComponentID[components.Position](w), unsafe.Sizeof(components.Position{}))
	s.cols.column(arche.ComponentID[components.Think](w), unsafe.Sizeof(components.Think{}))
	s.cols.column(arche.ComponentID[components.LOD](w), unsafe.Sizeof(components.LOD{}))
	s.cols.column(arche.ComponentID[components.Path](w), unsafe.Sizeof(components.Path{}))
	markInstalled(w, sysLOD)
	s.ran.Join(w, s)
}

// Update assigns levels, the agents split over the workers in blocks
// (blockRun), each worker counting its own.
func (s *LOD) Update(w *arche.World) {
	s.ran.Mark(w)
	mustInitialized(s.agents, s.finalized, "LOD")
	s.points = s.points[:0]
	for _, p := range s.Points {
		if finiteVec(p) { // a NaN point would make every distance NaN: all frozen
			s.points = append(s.points, p)
		}
	}
	fq := s.focus.Query(w)
	for fq.Next() {
		if _, p := fq.Get(); finiteVec(p.Vec) {
			s.points = append(s.points, p.Vec)
		}
	}
	if len(s.points) > lodScan { // for nearest's sweep
		slices.SortFunc(s.points, func(a, b r2.Vec) int { return cmp.Compare(a.X, b.X) })
	}
	q := s.agents.Query(w)
	n := q.Count()
	s.cols.scanRuns(w, &q.Query) // no entity needed: runs and count only
	for _, c := range s.wcounts {
		clear(c)
	}
	s.blocks.run(s.pool, s, n)
	clear(s.Counts)
	for _, c := range s.wcounts {
		for i, k := range c {
			s.Counts[i] += k
		}
	}
}

// Columns of LOD's query (the order of Initialize's cols.column calls).
const (
	lodPos = iota
	lodThink
	lodLOD
	lodPath
)

// Work implements ecs.Job: the levels of agents [lo, hi) of the query.
func (s *LOD) Work(worker, lo, hi int) {
	c := &s.cols
	n := c.count
	counts := s.wcounts[worker]
	now := s.clock.Time
	for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
		start := c.runs[r].start
		a, b := max(lo, start)-start, min(hi, c.end(r, n))-start
		pos := columnOf[components.Position](c, r, lodPos, n)[a:b]
		think := columnOf[components.Think](c, r, lodThink, n)[a:b]
		lods := columnOf[components.LOD](c, r, lodLOD, n)[a:b]
		paths := columnOf[components.Path](c, r, lodPath, n) // nil without a Path
		if paths != nil {
			paths = paths[a:b]
		}
		think, lods = think[:len(pos)], lods[:len(pos)]
		for i := range pos {
			th, lod := &think[i], &lods[i]
			dist := s.nearest(pos[i].Vec)
			level := len(s.Levels)
			for k, l := range s.Levels {
				if dist <= l.Distance {
					level = k
					break
				}
			}
			lod.Level, lod.Distance = uint8(min(level, 255)), dist
			counts[level]++
			if paths != nil {
				paths[i].Priority = int8(min(len(s.Levels)-level, 127))
			}
			if level == len(s.Levels) {
				th.Frozen = true
				continue
			}
			interval := s.Levels[level].Interval
			if th.Frozen {
				th.Frozen = false
				th.Interval = interval
				th.Next = thawNext(th.Next, now, s.clock.DT, thinkInterval(interval))
				continue
			}
			if th.Interval != interval {
				th.Next = rescaleNext(th.Next, now, thinkInterval(th.Interval), thinkInterval(interval))
				th.Interval = interval
			}
		}
	}
}

// thawNext is the Think.Next of an agent coming out of a freeze in the frame starting at now
// and lasting dt: due in this frame (the latest time on the agent's stagger phase,
// next + k·interval, before the frame's end as [Due] reads it), so it thinks in this frame
// and then on its own phase again. Setting it to now would put every agent of a crowd that
// thaws together in one frame for good; the latest phase time at or before now made an
// agent whose phase falls inside this frame's step think again in the next frame. A next
// that is not finite (Diagnose counts it) becomes now, and so does an interval that is
// not finite and > 0; a dt that is not (a program's own clock) counts as 0.
func thawNext(next, now, dt, interval float64) float64 {
	if next-next != 0 || now-now != 0 || !(interval > 0) || interval-interval != 0 {
		return now
	}
	end := now
	if e := now + dt - dueEpsilon; dt > 0 && e-e == 0 && e > now {
		end = e
	}
	back := math.Mod(end-next, interval) // in (-interval, interval)
	if back < 0 {
		back += interval
	}
	if back >= interval { // rounding
		back = 0
	}
	p := end - back
	if end > now && p >= end { // on the frame's end: due in the next frame, not this one
		p -= interval
	}
	return p
}

// rescaleNext is the Think.Next of an agent whose think interval changes from old to
// interval at now: the wait to its next think scaled by interval/old, so it keeps its place
// within the interval as a fraction of it, and a crowd whose thinks were spread over the
// old interval (the spawn stagger) is spread over the new one. Moving Next by the
// difference of the intervals kept each agent's phase in seconds: a crowd spawned at
// 0.1 s and slowed to 2 s then thought within the same 0.1 s of every 2 s, all of it in 6
// frames. An agent already due (Next at or before now), or a Next or now that is not
// finite, keeps its Next; so does a ratio that is not finite and > 0.
func rescaleNext(next, now, old, interval float64) float64 {
	wait := next - now
	ratio := interval / old
	if !(wait > 0) || wait-wait != 0 || !(ratio > 0) || ratio-ratio != 0 {
		return next
	}
	return now + float64(wait*ratio) // rounded: no multiply-add on any build
}

// thinkInterval is the interval Decision thinks at for a Think.Interval (or a level's
// Interval) of i: DefaultThinkInterval for 0 or less.
func thinkInterval(i float64) float64 {
	if i <= 0 {
		return DefaultThinkInterval
	}
	return i
}

// lodScan is how many focus points nearest compares with every agent's
// position, one by one; with more, it sweeps them sorted by X.
const lodScan = 8

// nearest returns the distance from p to the nearest of s.points (finite),
// 0 with none. With more than lodScan points (sorted by X, as Update leaves
// them) it walks out from p's X on both sides and stops on each side at the
// first point whose X alone is as far as the nearest found: its sq2 and every
// later one's are at least that (a sum of squares, rounded, is at least
// either square), so the distance is the one a scan of every point gives, to
// the bit, in O(log n + k) for the k points in the slab (a game's 50
// survivors among 100,000 zombies took LOD from 106 ms a frame to a few). A
// position that is not finite is scanned whole (NaN or +Inf, as always).
func (s *LOD) nearest(p r2.Vec) float64 {
	pts := s.points
	if len(pts) == 0 {
		return 0
	}
	best := math.Inf(1)
	if len(pts) <= lodScan || !finiteVec(p) {
		for _, f := range pts {
			best = math.Min(best, sq2(f.X-p.X, f.Y-p.Y))
		}
		return math.Sqrt(best)
	}
	lo, hi := 0, len(pts) // the first point with X ≥ p.X
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); pts[m].X < p.X {
			lo = m + 1
		} else {
			hi = m
		}
	}
	for _, f := range pts[lo:] {
		dx := f.X - p.X
		if float64(dx*dx) >= best {
			break
		}
		best = min(best, sq2(dx, f.Y-p.Y))
	}
	for j := lo - 1; j >= 0; j-- {
		f := pts[j]
		dx := f.X - p.X
		if float64(dx*dx) >= best {
			break
		}
		best = min(best, sq2(dx, f.Y-p.Y))
	}
	return math.Sqrt(best)
}

// Finalize drops the filter: Update panics until the next Initialize (see
// lifecycle.go).
func (s *LOD) Finalize(w *arche.World) {
	if s.agents == nil { // never initialized, or finalized already
		return
	}
	s.agents, s.finalized = nil, true
	s.pool.Close()
	s.ran.Leave()
	markFinalized(w, sysLOD)
}
