package grid

import (
	"errors"
	"fmt"
	"github.com/archai-go/archai/internal/detmath"
	"math"
)

// Sentinel errors returned by [Search.Path], [Search.Start] and
// [Search.Result]; compare with errors.Is.
var (
	// ErrUnreachable: start and goal lie in different connected components.
	ErrUnreachable = errors.New("grid: goal unreachable from start")
	// ErrOutOfBounds: start or goal lies outside the grid.
	ErrOutOfBounds = errors.New("grid: cell out of bounds")
	// ErrBlocked: start or goal is a Blocked cell.
	ErrBlocked = errors.New("grid: cell blocked")
	// ErrNotUniform: jump point search was asked for on a grid whose
	// passable cells do not all have the same cost.
	ErrNotUniform = errors.New("grid: jump point search needs a uniform-cost grid")
	// ErrPending: [Search.Result] was called before [Search.Step] finished.
	ErrPending = errors.New("grid: search not finished")
	// ErrBadOptions: the search's [Options] are not valid; the error names
	// the field (see [Options.Validate]).
	ErrBadOptions = errors.New("grid: bad search options")
)

// Sqrt2 is the cost factor of a diagonal move.
const Sqrt2 = math.Sqrt2

// Moves selects the neighbourhood of a cell.
type Moves uint8

const (
	// Moves8: the four orthogonal neighbours (cost = cost of the entered
	// cell) and the four diagonal ones (√2 × that cost), a diagonal being
	// allowed only when both orthogonal cells beside it are passable (no
	// corner cutting). The zero value, and the MovingAI benchmark's rule.
	Moves8 Moves = iota
	// Moves4: orthogonal neighbours only.
	Moves4
)

// Heuristic selects the distance estimate of A*. Each is a distance on an
// empty grid multiplied by [Grid.MinCost], so it never overestimates the
// remaining cost when it suits the moves.
type Heuristic uint8

const (
	// AutoHeuristic picks the tightest admissible heuristic for the moves:
	// OctileHeuristic for Moves8, ManhattanHeuristic for Moves4.
	AutoHeuristic Heuristic = iota
	// OctileHeuristic is [Octile]: exact on an empty 8-connected grid,
	// consistent, admissible for Moves8 and Moves4.
	OctileHeuristic
	// ManhattanHeuristic is [Manhattan]: exact on an empty 4-connected grid.
	// Important: it overestimates diagonal moves, so with Moves8 it is not
	// admissible and paths may be longer than optimal.
	ManhattanHeuristic
	// EuclideanHeuristic is [Euclidean]: admissible for both move sets but
	// weaker than the matching one, so A* expands more nodes.
	EuclideanHeuristic
	// ZeroHeuristic makes A* Dijkstra's algorithm.
	ZeroHeuristic
)

// Options configure a [Search]. The zero value is exact 8-connected A* with
// the octile heuristic.
type Options struct {
	Moves     Moves
	Heuristic Heuristic

	// HeuristicFunc, when set, replaces Heuristic: it estimates the cost
	// from c to goal in the grid's cost units. If it is admissible (never
	// above the true remaining cost) the result is shortest, even when it is
	// not consistent: a cell whose cost improves after it was expanded is
	// opened and expanded again (Hart, Nilsson & Raphael 1968; Martelli
	// 1977 on the re-expansions this can cost). It is called once per
	// generated node, so it should be cheap.
	//
	// An estimate that is NaN, negative or +Inf (or becomes +Inf when
	// weighted) is used as 0 (which is always admissible, so the path stays
	// shortest) and counted by [Search.HeuristicFaults]: +Inf would bury the
	// cell at the bottom of the open list and could make the path longer.
	HeuristicFunc func(c, goal Cell) float64

	// Weight > 1 makes the search weighted A* (Pohl 1970): it orders the
	// open list by g + Weight·h, expanding far fewer nodes on open maps at
	// the price of optimality; with an admissible heuristic the cost found
	// is at most Weight times the optimal one. 0 and 1 mean exact A*; a
	// weight between 0 and 1 shrinks the heuristic towards Dijkstra's
	// algorithm (still exact, more expansions). NaN, infinite or negative
	// weights are an error ([ErrBadOptions]).
	Weight float64

	// JumpPoints selects jump point search (Harabor & Grastien 2011) with
	// the no-corner-cutting rule: the same optimal costs as A* with far
	// fewer expansions, for Moves8 on grids whose passable cells all cost
	// the same ([ErrNotUniform] otherwise; with Moves4 the options are
	// invalid). Heuristic and HeuristicFunc are ignored (octile); Weight
	// applies. With Weight 0 or 1, on grids of at most 2²⁰ cells, the
	// search also keeps the cost from four landmark cells to every cell and
	// takes the larger of the octile distance and the bound they give
	// (|d(L, goal) − d(L, cell)|): still exact, and far fewer jump points
	// expanded where obstacles make paths wind (on the MovingAI map
	// random512-25-0, 1,530 a query instead of 3,910; on maze512-4-0, 540
	// instead of 2,172). Each such Search computes its landmarks when it is
	// made (about 45 ms on a 512² map, 200 ms on 1024²) and keeps them: 20
	// bytes a cell of the grid with its border (about 5 MB at 512², 21 MB at
	// 1024²), repaired after edits.
	JumpPoints bool

	// Clearance, when above 1, keeps paths wide enough for a large agent:
	// every cell the path enters, and both orthogonal cells beside each
	// diagonal move, must have a [Grid.Clearance] of at least Clearance
	// cells. A disc whose centre follows such a path from cell centre to
	// cell centre stays at least Clearance − 0.5 cells away from every
	// blocked cell, so an agent of radius r gets routes wide enough for it
	// with [ClearanceFor](r) (a gap of k open cells between walls lets
	// through Clearance ⌈k/2⌉, a radius up to ⌈k/2⌉ − 0.5). 0 and 1 mean
	// any passable cell.
	//
	// The start cell is exempt (an agent may stand close to a wall). A goal
	// cell of smaller clearance, or no wide-enough route, is
	// [ErrUnreachable], both found without searching ([Grid.ConnectedWide]:
	// components of the cells of that clearance, labelled once per clearance
	// and after edits). With Clearance above 1 jump point search is not used:
	// JumpPoints then runs A* (the same costs).
	Clearance uint8
}

// ClearanceFor returns the [Options.Clearance] for an agent of radius r
// (cells): ⌈r + 0.5⌉, at least 1 and at most 255; r ≤ 0.5 (or NaN) gives
// 1, any passable cell.
func ClearanceFor(r float64) uint8 {
	if !(r > 0.5) {
		return 1
	}
	return uint8(min(math.Ceil(r+0.5), 255))
}

// Validate returns nil when o is usable, else an error wrapping
// [ErrBadOptions] that names the field: Moves other than Moves8 and Moves4,
// a Heuristic other than the listed constants, a Weight that is NaN,
// infinite or negative, or JumpPoints with Moves4. [Search.Start] and
// [Search.Path] return this error, so a bad option never runs silently as
// another one.
func (o Options) Validate() error {
	switch {
	case o.Moves > Moves4:
		return fmt.Errorf("%w: Moves %d (want Moves8 or Moves4)", ErrBadOptions, o.Moves)
	case o.Heuristic > ZeroHeuristic:
		return fmt.Errorf("%w: Heuristic %d (want AutoHeuristic … ZeroHeuristic)", ErrBadOptions, o.Heuristic)
	case math.IsNaN(o.Weight) || math.IsInf(o.Weight, 0) || o.Weight < 0:
		return fmt.Errorf("%w: Weight %v (want finite and >= 0)", ErrBadOptions, o.Weight)
	case o.JumpPoints && o.Moves != Moves8:
		return fmt.Errorf("%w: JumpPoints needs Moves8", ErrBadOptions)
	}
	return nil
}

// Search finds shortest paths on one [Grid] with A* (Hart, Nilsson & Raphael
// 1968) or jump point search (Harabor & Grastien 2011). It keeps its buffers
// between queries, invalidating them with a generation counter instead of
// clearing, so a query allocates nothing once the buffers have grown (pass a
// dst with enough capacity).
//
// Costs: a straight move costs the cost of the entered cell, a diagonal move
// √2 times that cost, and a diagonal move is allowed only when both
// orthogonal neighbours it passes are passable (no corner cutting, the
// MovingAI/GPPC rule); see [Options] for 4-connected moves, heuristics,
// weighted A* and jump points. With the default options the heuristic is the
// octile distance scaled by [Grid.MinCost]; it is consistent, so the path is
// shortest.
//
// On a grid whose passable cells all cost the same (every MovingAI map) the
// search runs on integers: a straight move costs 2378 and a diagonal one
// 3363, a convergent of √2 that is 4.4e-8 too long relative to it. Two path
// lengths then compare as in exact arithmetic unless the paths differ by more
// than about 2,300 diagonal moves, and even then the path found is longer
// than a shortest one by less than 5e-8 relative. The cost returned is the
// found path's own (straight moves + √2 × diagonal moves, times the cell
// cost). Grids of several costs, and [Options.HeuristicFunc], use float64
// costs.
//
// A search can be run whole ([Search.Path]) or sliced across frames
// ([Search.Start], then [Search.Step] with a budget of node expansions until
// it reports done, then [Search.Result]).
//
// A Search notices changes made with [Grid.SetCost] between queries and
// between steps (a sliced search then restarts). It is not safe for
// concurrent use; use one Search per goroutine.
type Search struct {
	g   *Grid
	opt Options

	// the grid as the search sees it: padded by one Blocked cell on every
	// side, so the inner loops need no bounds tests (see sync)
	pw, ph      int
	div         uint64 // ⌈2⁶⁴/pw⌉: padded index → row by one multiplication
	costVersion uint64 // grid version mirrored (0 = never)
	uniform     float32
	isUniform   bool

	// integer search, used on uniform-cost grids (astar_internal.go)
	moves        []uint8 // allowed moves per padded cell (see moveW…moveSE)
	rowBuf       []uint8 // syncMoves's scratch: three padded rows
	movesVersion uint64
	movesClear   uint8    // Options.Clearance moves was built for
	editBuf      []Cell   // syncMoves's scratch: the cells edited since movesVersion
	rows, cols   bitLines // passable cells by row and by column, for JPS
	stopE, stopW bitLines // by row: where scans east and west stop
	stopS, stopN bitLines // by column: where scans south and north stop
	jcell        []uint16 // per padded cell: jump bits, diagonal passability, moves
	colScratch   []uint64 // syncJumps's scratch
	diag         []uint16 // per padded cell and diagonal: its run (syncDiagonals)
	bitsVersion  uint64
	nodes        []inode
	open         []openKey    // heap: with an inconsistent heuristic, or bq's overflow
	bq           *bucketQueue // with a consistent heuristic
	jq           *jpsQueue    // the default jump point query's (runJPSExact)
	gen          uint32
	tieBits      uint  // low key bits holding the tie-break (see key)
	startH       int64 // the integer search's heuristic at the start (beginInt)

	// landmarks of the default jump point query (jps_landmarks.go)
	lm        []uint32 // lmCount distances per padded cell
	lmOn      bool     // lm is valid for the grid
	lmq       bool     // the running query reads lm
	lmg       [lmCount]int64
	lmVersion uint64
	lmHeap    []lmItem
	lmMin     []uint32    // buildLandmarks's scratch
	lmRing    [3][]lmItem // lmFrom's buckets
	lmPass    []uint64    // a bit per cell: passable at lmVersion (lmNotePass)
	lmW, lmH  int         // the grid's size at lmVersion

	// float search, used on grids of several costs and with HeuristicFunc
	// (search_internal.go); allocated on first use
	pcost        []float32
	pcostVersion uint64
	pcostClear   uint8 // Options.Clearance pcost was built for
	fnodes       []node
	fopen        []openItem
	fgen         uint32

	// the running query
	state              searchState
	intMode            bool // the query runs the integer search
	reopen             bool // the heuristic may be inconsistent: closed nodes may reopen
	buckets            bool // the integer open list is bq, not open
	wmode              uint8
	startCell, goalCel Cell
	start, goal        int32 // padded indices
	gx, gy             int   // padded goal coordinates
	hScale             float64
	hKind              Heuristic
	optErr             error // Options.Validate of opt
	badH               int
	found              int32
	err                error
	expanded           int
	reopened           int
}

// NewSearch returns a Search over g with default [Options]. Its buffers
// for uniform-cost grids (about 9 bytes per cell) are allocated and filled
// here, as [NewSearchOptions] and [Search.SetOptions] also fill those of
// jump point search (about 11 bytes per cell more, and 20 for the
// landmarks of a grid of at most 2²⁰ cells) when [Options.JumpPoints] is
// set, so that the first query costs what the later ones do (on a 512×512
// map the jump point tables take about 5 to 12 ms to build, the landmarks
// about 45 ms: four Dijkstra searches over the grid; on 1024², about
// 200 ms); a grid of several costs, or a HeuristicFunc, adds about 28
// bytes per cell on its first query.
//
// After a [Grid.SetCost] the next query rebuilds the search's mirror of the
// grid: for A* on a uniform-cost grid only the allowed moves of the nine
// cells around each edited cell are updated (see [Grid.EditsSince]; a full
// O(width·height) rebuild after more than 4,096 edits, when the grid forgot
// some, or with [Options.Clearance] above 1, which reads the clearance
// field, itself rebuilt in full after an edit); jump point search then
// updates its bitsets, jump bits and diagonal runs along the rows and
// columns through each edited cell, O(width + height + the diagonal runs
// that change) per edit, and rebuilds them in full, O(width·height), after
// more than 64 edits (BenchmarkRebuildAfterEdit, BenchmarkEditThenSearch).
// Its landmark costs are left as they are when cells are blocked (they stay
// a valid bound) and lowered from each cell opened, as far as the opening
// shortens paths (a door opened a second time costs nothing); when the
// grid no longer remembers its edits (more than [MaxEditLog] since the last
// query), the cells opened are found by a pass over the costs, and the
// landmarks are computed again in full only when more than 4,096 cells (or
// a sixteenth of the grid) were opened: about 200 ms of CPU on a 1024²
// map, 130 ms on 832².
func NewSearch(g *Grid) *Search {
	return NewSearchOptions(g, Options{})
}

// NewSearchOptions returns a Search over g with the given options. Invalid
// options ([Options.Validate]) are reported by every [Search.Start] and
// [Search.Path] as an error wrapping [ErrBadOptions].
func NewSearchOptions(g *Grid, opt Options) *Search {
	s := &Search{g: g, opt: opt, optErr: opt.Validate(), open: make([]openKey, 0, 1024)}
	s.prepare()
	return s
}

// Grid returns the grid the search runs on.
func (s *Search) Grid() *Grid { return s.g }

// Options returns the options of the search.
func (s *Search) Options() Options { return s.opt }

// SetOptions changes the options for the next query, and on a uniform-cost
// grid builds what it reads (see [NewSearch]); a sliced search in progress
// is abandoned. It returns [Options.Validate] of opt; invalid
// options are kept but every query then fails with that error.
func (s *Search) SetOptions(opt Options) error {
	s.opt = opt
	s.optErr = opt.Validate()
	s.state = stateIdle
	s.prepare()
	return s.optErr
}

// Path finds a shortest path from start to goal. The path, both ends
// included, is appended to dst[:0] and returned with its cost (the sum of
// move costs, in the grid's cost units; with unit costs, the length in
// cells). start == goal gives [start] and cost 0. With jump point search the
// path is still every cell walked, not only the jump points.
//
// Errors, checked in this order (path is dst[:0] and cost 0):
//   - [ErrBadOptions] when the options are invalid ([Options.Validate]);
//   - [ErrOutOfBounds] when start or goal is outside the grid;
//   - [ErrBlocked] when start or goal is Blocked;
//   - [ErrNotUniform] for jump point search on a non-uniform grid;
//   - [ErrUnreachable] when they are in different components, found with
//     [Grid.Connected] without searching; with [Options.Clearance] above 1,
//     also when no route is wide enough ([Grid.ConnectedWide], likewise).
func (s *Search) Path(start, goal Cell, dst []Cell) (path []Cell, cost float64, err error) {
	if err := s.Start(start, goal); err != nil {
		return dst[:0], 0, err
	}
	s.Step(math.MaxInt)
	return s.Result(dst)
}

// Start begins a search from start to goal for slicing with [Search.Step].
// It returns the errors of [Search.Path] at once (no search is then
// pending); otherwise nothing is expanded yet.
func (s *Search) Start(start, goal Cell) error {
	s.state = stateIdle
	s.expanded, s.reopened, s.badH = 0, 0, 0
	s.startCell, s.goalCel = start, goal
	if s.optErr != nil {
		return s.optErr
	}
	g := s.g
	if !g.InBounds(start) || !g.InBounds(goal) {
		return ErrOutOfBounds
	}
	if !g.Passable(start) || !g.Passable(goal) {
		return ErrBlocked
	}
	s.sync()
	if s.opt.JumpPoints && !s.isUniform {
		return ErrNotUniform
	}
	if start != goal && !g.Connected(start, goal) {
		return ErrUnreachable
	}
	if c := s.opt.Clearance; c > 1 && start != goal && !g.reachesWide(start, goal, c) {
		return ErrUnreachable // too narrow a goal, or no wide-enough route: without searching
	}
	s.begin()
	return nil
}

// Step expands at most budget nodes of the search begun with [Search.Start]
// and reports how many it expanded and whether the search is finished.
// A budget ≤ 0 counts as 1: every call on a pending search expands a node
// (or finishes it), so a loop calling Step until done always ends, also one
// whose budget ran down to 0 or below. Calling it when no search is pending
// returns (0, true). If the grid changed since the last step, the search
// restarts from the beginning.
func (s *Search) Step(budget int) (expanded int, done bool) {
	if s.state != stateRunning {
		return 0, true
	}
	budget = max(budget, 1)
	if s.costVersion != s.g.version {
		if err := s.Start(s.startCell, s.goalCel); err != nil {
			s.err, s.state = err, stateDone
			return 0, true
		}
	}
	before := s.expanded
	switch {
	case s.jps() && s.buckets && s.wmode == keyExact:
		s.runJPSExact(budget)
	case s.jps():
		s.runJPS(budget)
	case s.buckets && s.hKind == OctileHeuristic && s.wmode == keyExact && s.opt.Moves == Moves8:
		s.runOctile(budget)
	case s.buckets:
		s.runBuckets(budget)
	case s.intMode:
		s.runInt(budget)
	default:
		s.run(budget)
	}
	return s.expanded - before, s.state == stateDone
}

// Result appends the path found by the finished search to dst[:0] and
// returns it with its cost, or the search's error: one of [Search.Path]'s,
// or [ErrPending] while [Search.Step] has not reported done.
func (s *Search) Result(dst []Cell) (path []Cell, cost float64, err error) {
	dst = dst[:0]
	switch {
	case s.state == stateRunning:
		return dst, 0, ErrPending
	case s.state == stateIdle:
		return dst, 0, ErrPending
	case s.err != nil:
		return dst, 0, s.err
	}
	return s.reconstruct(dst)
}

// Expanded returns the number of nodes the current or last search expanded
// (removed from the open list), re-expansions included. Jump point search
// expands a diagonal jump point whose f equals its parent's at once, without
// queueing it; those are not counted.
func (s *Search) Expanded() int { return s.expanded }

// Reopened returns how many times the current or last search reopened an
// already expanded node because its cost improved; always 0 with a
// consistent heuristic and no weight.
func (s *Search) Reopened() int { return s.reopened }

// HeuristicFaults returns how many estimates of [Options.HeuristicFunc] the
// current or last search got that were NaN, negative or infinite and so were
// used as 0. A correct heuristic gives 0.
func (s *Search) HeuristicFaults() int { return s.badH }

// Octile returns the octile distance between a and b: the length of a
// shortest 8-connected path on an empty grid, max(dx,dy) + (√2−1)·min(dx,dy).
func Octile(a, b Cell) float64 {
	dx := math.Abs(float64(a.X - b.X))
	dy := math.Abs(float64(a.Y - b.Y))
	return octile(dx, dy)
}

// Manhattan returns |dx| + |dy|: the length of a shortest 4-connected path
// on an empty grid.
func Manhattan(a, b Cell) float64 {
	return math.Abs(float64(a.X-b.X)) + math.Abs(float64(a.Y-b.Y))
}

// Euclidean returns the straight-line distance between the centres of a
// and b.
func Euclidean(a, b Cell) float64 {
	return detmath.Hypot(float64(a.X-b.X), float64(a.Y-b.Y))
}
