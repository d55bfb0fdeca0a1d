package systems

import (
	"math"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// FlowField serves flow fields to swarms ([components.FlowFollower]): every
// agent heading to the same goal cell shares one field from a
// [flowfield.Cache] (Emerson, "Crowd Pathfinding and Steering Using Flow
// Field Tiles", Game AI Pro ch. 23). A field for a new goal is built within
// Budget settled cells per frame; until it is complete the agents keep
// following the field of their previous goal.
//
// For each agent it samples, when the agent enters a new cell or its field
// changes, the point to head for: the goal itself when it is in line of sight
// (Direct), else the farthest of the next few cells along the direction field
// that the agent can see (see [flowfield.Field.Sample] for the rule that
// keeps agents from oscillating or stalling). [Steer] then follows it.
//
// Agents gather at the goal without piling up: an agent stops (Arrived) once
// it is within r = 1 + Spacing·√(n/π) cells of the goal along the field (its
// integration value over the grid's minimum cell cost), n being the number
// of agents that had arrived at that goal in the previous frame, so the crowd
// fills a disk around the goal from the centre outwards, at about one agent
// per Spacing² cells, and never on the far side of a wall. It stays arrived
// while within r + 1.
//
// The cache holds Capacity fields and grows, up to MaxFields (about 5 bytes
// per grid cell each), when more distinct goals are in use at once; agents
// with goals beyond MaxFields wait for one to fall out of use.
//
// Sampling is split over Workers goroutines (0: runtime.GOMAXPROCS).
//
// Contract:
//
//	requires   Position, FlowFollower
//	writes     FlowFollower (Active, Has, Cell, Aim, Direct, Steer, Arrived);
//	           adds the *flowfield.Cache resource
//	resources  *grid.Grid
//
//	absent or unusable             what FlowField does                    Diagnose counts
//	Position                       never served                           CauseSteerIncomplete
//	FlowFollower.Goal off the      no field to follow: Steer false        CauseFlowGoal
//	  grid or blocked
type FlowField struct {
	Capacity  int     // fields the cache starts with; 8 if zero
	MaxFields int     // fields the cache may grow to when more goals are in use; 64 if zero
	Budget    int     // cells settled per frame when building; 0 builds a field at once
	Spacing   float64 // cells between agents gathered at a goal; 0.75 if zero
	Workers   int

	Cache *flowfield.Cache // the shared cache, also a world resource

	grid   *grid.Grid
	pool   *ecs.Workers
	filter *generic.Filter2[components.Position, components.FlowFollower]
	jobs   []flowJob
	goals  []flowGoal // the goals asked for this frame, at most Capacity
	// agents arrived per goal: last frame's counts, this frame's counts
	arrived, counting []goalCount
}

type goalCount struct {
	goal grid.Cell
	n    int
}

// count returns the entry of goal in counts, adding it.
func count(counts *[]goalCount, goal grid.Cell) *goalCount {
	for i := range *counts {
		if (*counts)[i].goal == goal {
			return &(*counts)[i]
		}
	}
	*counts = append(*counts, goalCount{goal: goal})
	return &(*counts)[len(*counts)-1]
}

type flowJob struct {
	pos   r2.Vec
	ff    *components.FlowFollower
	field *flowfield.Field
}

type flowGoal struct {
	goal  grid.Cell
	field *flowfield.Field
}

// noCell marks a FlowFollower whose sample must be recomputed.
var noCell = grid.Cell{X: -1, Y: -1}

// Name implements ecs.Namer.
func (s *FlowField) Name() string { return "flowfield" }

// Initialize creates the cache and adds it as a resource.
//
// Panics:
//   - if the world has no *grid.Grid resource: add one with
//     arche.AddResource before Initialize.
func (s *FlowField) Initialize(w *arche.World) {
	if s.Capacity <= 0 {
		s.Capacity = 8
	}
	if s.MaxFields <= 0 {
		s.MaxFields = 64
	}
	if s.Spacing <= 0 {
		s.Spacing = 0.75
	}
	s.grid = mustGrid(w, "FlowField")
	s.Cache = flowfield.NewCache(s.grid, s.Capacity)
	arche.AddResource(w, s.Cache)
	s.pool = ecs.NewWorkers(s.Workers)
	s.filter = generic.NewFilter2[components.Position, components.FlowFollower]()
}

// Update resolves each follower's field, advances pending builds and samples.
func (s *FlowField) Update(w *arche.World) {
	s.goals = s.goals[:0]
	s.jobs = s.jobs[:0]
	q := s.filter.Query(w)
	for q.Next() {
		pos, ff := q.Get()
		want := s.field(ff.Goal)
		if want != nil && want.Done() && (!ff.Has || ff.Active != ff.Goal) {
			ff.Active, ff.Has, ff.Cell, ff.Arrived = ff.Goal, true, noCell, false
		}
		var f *flowfield.Field
		switch {
		case ff.Has && ff.Active == ff.Goal:
			f = want
		case ff.Has:
			f = s.field(ff.Active)
		}
		if f != nil && !f.Done() {
			f = nil
		}
		if f != nil {
			s.arrive(pos.Vec, ff, f)
		}
		s.jobs = append(s.jobs, flowJob{pos: pos.Vec, ff: ff, field: f})
	}
	s.arrived, s.counting = s.counting, s.arrived[:0]
	if s.Budget > 0 {
		s.Cache.Update(s.Budget)
	} else {
		s.Cache.Update(int(^uint(0) >> 1))
	}
	s.grid.Prepare()
	s.pool.Run(s, len(s.jobs))
	clear(s.jobs)
}

// arrive updates ff.Arrived against the disk of agents gathered at its
// goal, measured along the field (its integration value, the cost of the way
// there), not as the crow flies, so agents behind a wall do not count as
// arrived.
func (s *FlowField) arrive(p r2.Vec, ff *components.FlowFollower, f *flowfield.Field) {
	prev := 0
	for _, c := range s.arrived {
		if c.goal == ff.Active {
			prev = c.n
		}
	}
	r := 1 + s.Spacing*math.Sqrt(float64(prev)/math.Pi)
	if ff.Arrived {
		r++
	}
	// the way there is never shorter than the straight line: most agents are
	// far and need no look at the field
	d := r2.Sub(s.grid.Center(ff.Active), p)
	ff.Arrived = d.X*d.X+d.Y*d.Y <= (r+1)*(r+1) && f.Integration(s.grid.CellAt(p)) <= r*float64(s.grid.MinCost())
	if ff.Arrived {
		count(&s.counting, ff.Active).n++
	}
}

// field returns the cache's field for goal, asking the cache once per goal
// and frame. The cache grows (up to MaxFields) when more distinct goals are
// in use in one frame than it holds, so a field handed out this frame is
// never evicted by another asked for later in the same frame; beyond
// MaxFields goals, an agent with a further goal gets nil and waits.
func (s *FlowField) field(goal grid.Cell) *flowfield.Field {
	for i := range s.goals {
		if s.goals[i].goal == goal {
			return s.goals[i].field
		}
	}
	if len(s.goals) >= s.Cache.Capacity() {
		if s.Cache.Capacity() >= s.MaxFields {
			return nil
		}
		s.Cache.SetCapacity(min(2*s.Cache.Capacity(), s.MaxFields))
	}
	f, _ := s.Cache.Request(goal)
	s.goals = append(s.goals, flowGoal{goal: goal, field: f})
	return f
}

// Work implements ecs.Job.
func (s *FlowField) Work(worker, lo, hi int) {
	for i := lo; i < hi; i++ {
		j := &s.jobs[i]
		ff := j.ff
		if j.field == nil {
			ff.Steer, ff.Cell = false, noCell
			continue
		}
		c := s.grid.CellAt(j.pos)
		if c == ff.Cell {
			continue
		}
		ff.Cell = c
		ff.Aim, ff.Direct, ff.Steer = aim(j.field, s.grid, j.pos)
	}
}

// aim returns the point an agent at p heads for on field f, whether it is the
// goal in direct line of sight, and whether there is anywhere to head.
func aim(f *flowfield.Field, g *grid.Grid, p r2.Vec) (r2.Vec, bool, bool) {
	dir, ok := f.Sample(p)
	if !ok || (dir.X == 0 && dir.Y == 0) {
		return r2.Vec{}, false, false
	}
	goals := f.Goals()
	if len(goals) > 0 {
		if t := g.Center(goals[0]); g.LineOfSight(p, t) {
			return t, true, true
		}
	}
	return r2.Add(p, r2.Scale(flowfield.LookAhead+1, dir)), false, true
}

// Finalize stops the workers.
func (s *FlowField) Finalize(w *arche.World) { s.pool.Close() }
