package systems

import (
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// DefaultPathBudget is the number of searches [PathQueue] runs per frame when
// its Budget is not set.
const DefaultPathBudget = 32

// PathQueue serves path requests within a per-frame budget of searches.
//
// An agent asks for a path by setting Path.Want and Path.Goal. Each frame the
// queue takes new requests (clearing Want and setting State to PathPending) in
// query order, then runs at most Budget grid A* searches, oldest request first,
// from the cell of the agent's current Position to its Path.Goal as it is when
// served, so a newer request from an agent that is still waiting replaces its
// older one without a second search. The result is written back into the
// requester's Path (State PathReady with Waypoints, or PathUnreachable). A
// request whose agent has died meanwhile is dropped (counted in Dropped).
type PathQueue struct {
	Budget int // searches per frame; DefaultPathBudget if zero

	// Statistics of the last frame and totals since Initialize.
	Served, Dropped, Waiting  int
	TotalServed, TotalDropped int

	grid   *grid.Grid
	search *grid.Search
	filter *generic.Filter2[components.Path, components.Position]
	paths  generic.Map2[components.Path, components.Position]
	queue  []arche.Entity
	head   int
}

// Name implements ecs.Namer.
func (s *PathQueue) Name() string { return "pathqueue" }

// Initialize builds the search buffers for the grid resource.
func (s *PathQueue) Initialize(w *arche.World) {
	if s.Budget <= 0 {
		s.Budget = DefaultPathBudget
	}
	s.grid = mustGrid(w)
	s.search = grid.NewSearch(s.grid)
	s.filter = generic.NewFilter2[components.Path, components.Position]()
	s.paths = generic.NewMap2[components.Path, components.Position](w)
}

// Update takes new requests and serves up to Budget of them.
func (s *PathQueue) Update(w *arche.World) {
	q := s.filter.Query(w)
	for q.Next() {
		p, _ := q.Get()
		if !p.Want {
			continue
		}
		p.Want = false
		if p.State != components.PathPending {
			p.State = components.PathPending
			s.queue = append(s.queue, q.Entity())
		}
	}

	s.Served, s.Dropped = 0, 0
	for s.Served < s.Budget && s.head < len(s.queue) {
		e := s.queue[s.head]
		s.queue[s.head] = arche.Entity{}
		s.head++
		if !w.Alive(e) {
			s.Dropped++
			continue
		}
		p, pos := s.paths.Get(e)
		if p == nil || pos == nil || p.State != components.PathPending {
			s.Dropped++
			continue
		}
		s.serve(p, s.grid.CellAt(pos.Vec))
		s.Served++
	}
	// compact the queue in place once its consumed head dominates
	if s.head > 0 && s.head*2 >= len(s.queue) {
		n := copy(s.queue, s.queue[s.head:])
		s.queue = s.queue[:n]
		s.head = 0
	}
	s.Waiting = len(s.queue) - s.head
	s.TotalServed += s.Served
	s.TotalDropped += s.Dropped
}

func (s *PathQueue) serve(p *components.Path, start grid.Cell) {
	path, _, err := s.search.Path(start, p.Goal, p.Waypoints[:0])
	p.Next = 0
	if err != nil { // ErrUnreachable, ErrBlocked or ErrOutOfBounds
		p.State = components.PathUnreachable
		p.Waypoints = p.Waypoints[:0]
		return
	}
	p.Waypoints = path
	p.State = components.PathReady
	if len(path) > 1 {
		p.Next = 1
	}
}

// Finalize does nothing.
func (s *PathQueue) Finalize(w *arche.World) {}
