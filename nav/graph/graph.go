package graph

import (
	"errors"
	"fmt"
	"github.com/archai-go/archai/internal/detmath"
	"math"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/spatial/kdtree"
	"gonum.org/v1/gonum/spatial/r2"
)

// Sentinel errors; compare with errors.Is.
var (
	// ErrUnreachable: no path joins the two waypoints.
	ErrUnreachable = errors.New("graph: goal unreachable from start")
	// ErrNoWaypoint: a waypoint ID is unknown, or the graph is empty.
	ErrNoWaypoint = errors.New("graph: no such waypoint")
	// ErrPosition: a position given to Nearest or Route has a NaN or infinite
	// coordinate, or is farther than math.MaxFloat64 from every waypoint; or
	// TryConnect's waypoints are that far apart.
	ErrPosition = errors.New("graph: position not finite")
	// ErrBadWeight: the search met an edge whose weight is negative or NaN.
	ErrBadWeight = errors.New("graph: edge weight negative or NaN")
)

// Graph is a waypoint graph: points in the plane (IDs 0, 1, 2, … in the
// order they were added) joined by undirected edges whose weight is the
// cost of travelling them. Positions are in the caller's world units.
//
// A Graph is not safe for concurrent writes; after the last change and one
// [Graph.Nearest] (which builds the k-d tree), concurrent reads are safe.
type Graph struct {
	g     *simple.WeightedUndirectedGraph
	pos   []r2.Vec
	tree  *kdtree.Tree
	dirty bool
	// hscale scales Path's straight-line heuristic: at most 1 and at most the
	// cost-to-length ratio of every open edge set by ConnectCost since New (see
	// [Graph.Path]). It only ever goes down: a lower bound, still admissible
	// after the edge that lowered it was raised, closed or removed.
	hscale float64
}

// New returns an empty waypoint graph.
func New() *Graph {
	return &Graph{g: simple.NewWeightedUndirectedGraph(0, math.Inf(1)), hscale: 1}
}

// AddWaypoint adds a waypoint at p and returns its ID.
func (g *Graph) AddWaypoint(p r2.Vec) int64 {
	id := int64(len(g.pos))
	g.pos = append(g.pos, p)
	g.g.AddNode(simple.Node(id))
	g.dirty = true
	return id
}

// Len returns the number of waypoints.
func (g *Graph) Len() int { return len(g.pos) }

// Position returns the position of waypoint id.
//
// Panics:
//   - when id is not a waypoint (the message names Position, id and the
//     number of waypoints).
func (g *Graph) Position(id int64) r2.Vec {
	if id < 0 || id >= int64(len(g.pos)) {
		panic(fmt.Sprintf("graph: Position(%d): not a waypoint (the graph has %d)", id, len(g.pos)))
	}
	return g.pos[id]
}

// Connect joins waypoints a and b by an edge whose cost is the distance
// between them.
//
// Panics:
//   - when a or b is not a waypoint, or a == b;
//   - when the distance is NaN (a waypoint with a NaN coordinate, or both
//     infinite), as [Graph.ConnectCost] does;
//   - when the distance of two finite waypoints overflows to +Inf (they are
//     farther apart than math.MaxFloat64: ±1e308): it would make a closed
//     edge, not the road asked for.
//
// [Graph.TryConnect] returns an error instead.
func (g *Graph) Connect(a, b int64) {
	if g.checkEnds(a, b) != nil {
		panic(fmt.Sprintf("graph: Connect(%d, %d): bad waypoints", a, b))
	}
	d := detmath.Norm(r2.Sub(g.pos[a], g.pos[b]))
	if math.IsInf(d, 1) && finite(g.pos[a]) && finite(g.pos[b]) {
		panic(fmt.Sprintf("graph: Connect(%d, %d): %v", a, b, errTooFar(a, b)))
	}
	g.ConnectCost(a, b, d)
}

// errTooFar is the error of two finite waypoints whose distance overflows.
func errTooFar(a, b int64) error {
	return fmt.Errorf("%w: waypoints %d and %d are farther apart than %g (the distance overflows)", ErrPosition, a, b, math.MaxFloat64)
}

// ConnectCost joins waypoints a and b by an edge of the given cost. A cost
// of +Inf closes the edge: no path takes it (raise a road's cost to +Inf to
// close it, set it back to open it). A cost below the distance between a and
// b (a rail, a teleporter, or costs in seconds rather than world units) is
// allowed: it lowers the scale of [Graph.Path]'s heuristic to the edge's
// cost-to-length ratio, so Path stays cheapest but expands more waypoints on
// every later search of the graph (see Path).
//
// Panics:
//   - when a or b is not a waypoint, or a == b;
//   - when cost is negative or NaN.
//
// [Graph.TryConnectCost] returns an error instead.
func (g *Graph) ConnectCost(a, b int64, cost float64) {
	if a < 0 || b < 0 || a >= int64(len(g.pos)) || b >= int64(len(g.pos)) || a == b {
		panic(fmt.Sprintf("graph: ConnectCost(%d, %d): bad waypoints", a, b))
	}
	if !(cost >= 0) {
		panic(fmt.Sprintf("graph: ConnectCost: invalid cost %v", cost))
	}
	g.lowerScale(a, b, cost)
	g.g.SetWeightedEdge(g.g.NewWeightedEdge(simple.Node(a), simple.Node(b), cost))
}

// lowerScale lowers hscale to the cost-to-length ratio of an edge a–b of the
// given cost when that is lower. A closed edge (+Inf) is never taken and a
// zero-length one moves the heuristic by nothing, so neither bounds it; an
// edge of non-finite length (a waypoint with a NaN or infinite coordinate,
// joined by ConnectCost) bounds nothing either, so it makes the scale 0.
func (g *Graph) lowerScale(a, b int64, cost float64) {
	if math.IsInf(cost, 1) {
		return
	}
	d := detmath.Norm(r2.Sub(g.pos[a], g.pos[b]))
	var r float64
	switch {
	case d == 0:
		return
	case d-d == 0: // finite
		if r = cost / d; float64(r*d) > cost { // rounded up: one ulp down keeps r·d ≤ cost
			r = math.Nextafter(r, 0)
		}
	default: // NaN or +Inf: no bound from this edge
		r = 0
	}
	if r < g.hscale {
		g.hscale = r
	}
}

// TryConnect is [Graph.Connect] for waypoints read from level data: it returns
// an error instead of panicking. ErrNoWaypoint when a or b is not a waypoint or
// a == b (an edge to itself), ErrPosition when a waypoint has a NaN or infinite
// coordinate (the distance would be NaN or infinite) or when the two are so far
// apart that their distance overflows (finite coordinates of ±1e308: the edge
// would cost +Inf, a closed road); the graph is then unchanged.
func (g *Graph) TryConnect(a, b int64) error {
	if err := g.checkEnds(a, b); err != nil {
		return err
	}
	if err := g.checkPositions(a, b); err != nil {
		return err
	}
	if math.IsInf(detmath.Norm(r2.Sub(g.pos[a], g.pos[b])), 1) {
		return errTooFar(a, b)
	}
	g.Connect(a, b)
	return nil
}

// TryConnectCost is [Graph.ConnectCost] for edges read from level data,
// returning an error instead of panicking: ErrNoWaypoint when a or b is not a
// waypoint or a == b, ErrPosition when a waypoint has a NaN or infinite
// coordinate (as [Graph.TryConnect]: a route through it would hand an agent a
// point it cannot walk to), ErrBadWeight when cost is negative or NaN; the graph
// is then unchanged.
func (g *Graph) TryConnectCost(a, b int64, cost float64) error {
	if err := g.checkEnds(a, b); err != nil {
		return err
	}
	if err := g.checkPositions(a, b); err != nil {
		return err
	}
	if !(cost >= 0) {
		return fmt.Errorf("%w: %v for the edge %d–%d", ErrBadWeight, cost, a, b)
	}
	g.ConnectCost(a, b, cost)
	return nil
}

// checkEnds returns an error wrapping ErrNoWaypoint unless a and b are two
// distinct waypoints.
func (g *Graph) checkEnds(a, b int64) error {
	n := int64(len(g.pos))
	switch {
	case a < 0 || a >= n:
		return fmt.Errorf("%w: %d (the graph has %d)", ErrNoWaypoint, a, n)
	case b < 0 || b >= n:
		return fmt.Errorf("%w: %d (the graph has %d)", ErrNoWaypoint, b, n)
	case a == b:
		return fmt.Errorf("%w: an edge from waypoint %d to itself", ErrNoWaypoint, a)
	}
	return nil
}

// checkPositions returns an error wrapping ErrPosition naming the first of a
// and b whose position has a NaN or infinite coordinate.
func (g *Graph) checkPositions(a, b int64) error {
	for _, id := range [2]int64{a, b} {
		if p := g.pos[id]; !finite(p) {
			return fmt.Errorf("%w: waypoint %d at (%v, %v)", ErrPosition, id, p.X, p.Y)
		}
	}
	return nil
}

// finite reports whether both coordinates of p are finite.
func finite(p r2.Vec) bool { return p.X-p.X == 0 && p.Y-p.Y == 0 }

// Gonum returns the underlying gonum graph (node IDs are waypoint IDs), for
// gonum's algorithms. Changing it directly bypasses the waypoint positions.
//
// Important: an edge weight set here is not seen by [Graph.Path]'s heuristic:
// set a weight below the edge's length × [Graph.HeuristicScale] with
// [Graph.ConnectCost], or Path may return a path that is not the cheapest.
//
// Important: a node removed here keeps its waypoint: [Graph.Nearest] still
// returns it, so [Graph.Route] from or to a point nearest it fails with
// ErrNoWaypoint, and [Graph.Connect] with it adds the node back (with that
// edge only). To take a waypoint out of use (a bridge destroyed), close its
// edges instead: [Graph.ConnectCost] with +Inf.
func (g *Graph) Gonum() *simple.WeightedUndirectedGraph { return g.g }

// Nearest returns the waypoint closest to p and its distance, or
// ErrNoWaypoint when the graph is empty, or ErrPosition (and -1) when p has a
// NaN or infinite coordinate or is farther than math.MaxFloat64 from every
// waypoint (the distance overflows). A waypoint at a NaN or infinite position is never
// the nearest (ErrNoWaypoint if every one is). It rebuilds the k-d tree after
// waypoints were added (O(n log² n)), then answers in O(log n); a p more than
// about 1.34e154 from every waypoint (where squared distances overflow) is answered
// by comparing every waypoint's distance, O(n), the lowest ID on a tie, and so is a p
// under about 2⁻⁴⁸⁴ (2e-146) from its nearest waypoint but not on it (where squared
// distances underflow), with the differences scaled up by a power of two: the answer
// is the same waypoint and distance as for the layout scaled up, scaled back.
func (g *Graph) Nearest(p r2.Vec) (id int64, dist float64, err error) {
	if len(g.pos) == 0 {
		return -1, 0, ErrNoWaypoint
	}
	if p.X-p.X != 0 || p.Y-p.Y != 0 { // NaN or ±Inf
		return -1, 0, ErrPosition
	}
	if g.dirty {
		pts := make(waypoints, 0, len(g.pos))
		for i, q := range g.pos {
			if q.X-q.X == 0 && q.Y-q.Y == 0 { // a NaN or infinite waypoint would break the k-d tree
				pts = append(pts, waypoint{p: q, id: int64(i)})
			}
		}
		g.tree = nil
		if len(pts) > 0 {
			g.tree = kdtree.New(pts, false)
		}
		g.dirty = false
	}
	if g.tree == nil {
		return -1, 0, ErrNoWaypoint
	}
	c, d2 := g.tree.Nearest(waypoint{p: p})
	if d2 >= tinyD2 && !math.IsInf(d2, 1) || c.(waypoint).p == p {
		return c.(waypoint).id, math.Sqrt(d2), nil
	}
	if d2 < tinyD2 {
		return g.nearestTiny(p)
	}
	// the squared distance to every waypoint overflowed (each over about 1.34e154):
	// the tree could not tell them apart, so compare the distances themselves
	id, dist = -1, math.Inf(1)
	for i, q := range g.pos {
		if d := detmath.Norm(r2.Sub(q, p)); finite(q) && d < dist {
			id, dist = int64(i), d
		}
	}
	if id < 0 {
		return -1, 0, fmt.Errorf("%w: (%v, %v) is farther than %g from every waypoint (the distance overflows)", ErrPosition, p.X, p.Y, math.MaxFloat64)
	}
	return id, dist, nil
}

// tinyD2 is the squared distance below which Nearest does not trust the k-d tree:
// squares under 2⁻¹⁰²² are subnormal and lose bits (0 below about 2.2e-162 apart), so
// near ties were broken by rounding. At 2⁻⁹⁶⁸ and above, a square's lost bits (at most
// 2⁻¹⁰⁷⁵ each) are under 2⁻¹⁰⁷ of the nearest distance², far below the sum's own rounding.
const tinyD2 = 0x1p-968

// tinyUp scales the coordinate differences of Nearest's tiny case into the normal
// range; a power of two, so the scaling itself is exact. The nearest distance is under
// 2⁻⁴⁸⁴, so its square scaled stays under 2²³²; a difference of a subnormal (2⁻¹⁰⁷⁴)
// is 2⁻⁴⁷⁴ scaled, whose square is normal. A far waypoint's scaled square may overflow
// to +Inf, which is never the nearest.
const tinyUp = 0x1p600

// nearestTiny is Nearest of a p whose nearest waypoint is under about 2⁻⁴⁸⁴ away
// (squared distances underflow): it compares every finite waypoint's squared distance
// with the differences scaled by tinyUp, so it answers exactly what the k-d tree answers
// for the layout scaled by tinyUp, scaled back; the lowest ID on a tie. O(n).
func (g *Graph) nearestTiny(p r2.Vec) (id int64, dist float64, err error) {
	id, best := int64(-1), math.Inf(1)
	for i, q := range g.pos {
		if !finite(q) {
			continue
		}
		d := r2.Scale(tinyUp, r2.Sub(q, p))
		if d2 := float64(d.X*d.X) + float64(d.Y*d.Y); d2 < best { // no multiply-add, as waypoint.Distance
			id, best = int64(i), d2
		}
	}
	return id, math.Sqrt(best) / tinyUp, nil
}

// Path returns the cheapest path of waypoint IDs from a to b (both
// included) appended to dst[:0], and its cost, found by [AStar] with the
// straight-line distance times [Graph.HeuristicScale] as heuristic. The scale
// is 1 while every edge costs at least its length (as [Graph.Connect] makes
// them); an edge cheaper than its length set by [Graph.ConnectCost] or
// [Graph.TryConnectCost] lowers it to that edge's cost-to-length ratio, so
// the heuristic stays admissible and the path cheapest. The price is a weaker
// heuristic: more waypoints expanded, up to all those Dijkstra's search
// expands at scale 0 (an edge of cost 0, or one to a waypoint with a NaN or
// infinite coordinate). The scale only goes down: closing, raising or
// removing that edge later leaves it low (still admissible, as slow as
// before); build the graph anew to raise it. Edge weights set through
// [Graph.Gonum] are not seen (see there). Errors: ErrNoWaypoint,
// ErrUnreachable, ErrBadWeight (a weight set through [Graph.Gonum]).
func (g *Graph) Path(a, b int64, dst []int64) ([]int64, float64, error) {
	if n := int64(len(g.pos)); a < 0 || a >= n {
		return dst[:0], 0, fmt.Errorf("%w: %d (the graph has %d)", ErrNoWaypoint, a, n)
	} else if b < 0 || b >= n {
		return dst[:0], 0, fmt.Errorf("%w: %d (the graph has %d)", ErrNoWaypoint, b, n)
	}
	if g.hscale == 0 {
		path, cost, _, err := AStar(g.g, a, b, nil, dst)
		return path, cost, err
	}
	goal, scale := g.pos[b], g.hscale
	path, cost, _, err := AStar(g.g, a, b, func(n int64) float64 {
		if h := float64(scale * detmath.Norm(r2.Sub(g.pos[n], goal))); h-h == 0 { // rounded: no multiply-add with h-h
			return h
		}
		return 0 // a waypoint (or goal) at a NaN or infinite position: no estimate
	}, dst)
	return path, cost, err
}

// HeuristicScale returns the factor, in [0, 1], by which [Graph.Path]
// multiplies the straight-line distance for its heuristic: 1, or the lowest
// cost-to-length ratio of an edge set cheaper than its length by
// [Graph.ConnectCost] since [New] (see Path).
func (g *Graph) HeuristicScale() float64 { return g.hscale }

// Route finds a route between two positions: from `from` to its nearest
// waypoint, along [Graph.Path] to the waypoint nearest `to`, then to `to`.
// The points, both ends included, are appended to dst[:0]; the cost is the
// path's cost plus the two straight legs. The caller checks that the legs
// are walkable (for example with a line-of-sight test). Errors: ErrNoWaypoint,
// ErrPosition (from or to not finite or farther than math.MaxFloat64 from every
// waypoint, see [Graph.Nearest], or the path passes a waypoint with a NaN
// or infinite position, joined by [Graph.ConnectCost]: no point of it can be
// walked to), ErrUnreachable (also when the cost, path and legs summed, overflows
// past math.MaxFloat64, as [AStar]'s does). On an error dst holds no point.
func (g *Graph) Route(from, to r2.Vec, dst []r2.Vec) ([]r2.Vec, float64, error) {
	dst = dst[:0]
	a, da, err := g.Nearest(from)
	if err != nil {
		return dst, 0, routeEnd(err, "from", from, len(g.pos))
	}
	b, db, err := g.Nearest(to)
	if err != nil {
		return dst, 0, routeEnd(err, "to", to, len(g.pos))
	}
	ids, cost, err := g.Path(a, b, nil)
	if err != nil {
		return dst, 0, err
	}
	for _, id := range ids {
		if p := g.pos[id]; !finite(p) {
			return dst, 0, fmt.Errorf("%w: the path passes waypoint %d at (%v, %v)", ErrPosition, id, p.X, p.Y)
		}
	}
	total := cost + da + db
	if math.IsInf(total, 1) {
		return dst, 0, fmt.Errorf("%w: the route's cost overflows (path %g, legs %g and %g)", ErrUnreachable, cost, da, db)
	}
	dst = append(dst, from)
	for _, id := range ids {
		dst = append(dst, g.pos[id])
	}
	return append(dst, to), total, nil
}

// routeEnd wraps the error [Graph.Nearest] gave for Route's end named end at p,
// saying which end it was and, for an empty graph, that the graph has none.
func routeEnd(err error, end string, p r2.Vec, n int) error {
	if n == 0 {
		return fmt.Errorf("%w: the graph has no waypoints (route %s (%v, %v))", err, end, p.X, p.Y)
	}
	return fmt.Errorf("%w: route %s (%v, %v)", err, end, p.X, p.Y)
}

// AStar finds a cheapest path from s to t in g with A* (Hart, Nilsson &
// Raphael 1968). h(n) estimates the cost from n to t; nil means 0
// (Dijkstra). Edge weights must be non-negative: the search stops with an
// error wrapping ErrBadWeight at the first negative or NaN weight it meets.
// An edge of weight +Inf is never taken (a closed road), so a goal reached
// only through one is ErrUnreachable; so is a goal every path to which costs
// more than math.MaxFloat64 (finite weights whose sum overflows), with an
// error that wraps ErrUnreachable and counts the waypoints reached only so.
//
// The path is cheapest whenever h is admissible (never above the true
// remaining cost), even if h is not consistent: a node whose cost improves
// after it was expanded is reopened and expanded again (Martelli 1977).
// gonum's path.AStar closes nodes for good and may return a longer path
// under such a heuristic. h(t) counts as 0, and so does an h(n) below 0 or
// NaN (no remaining cost is: a -Inf or NaN estimate otherwise orders the open
// list wrongly); an h(n) of +Inf says t cannot be reached from n.
//
// Ties (equal f and g) go to the lower node ID, so the path found does not
// depend on the order g gives a node's neighbours in (gonum's simple graphs
// give them in a Go map's order, which changes from run to run).
//
// It returns the path (s to t, appended to dst[:0]), its cost, and the
// number of expansions. Errors: ErrNoWaypoint when s or t is not in g,
// ErrUnreachable when no path exists, ErrBadWeight.
func AStar(g graph.Weighted, s, t int64, h func(n int64) float64, dst []int64) (path []int64, cost float64, expanded int, err error) {
	dst = dst[:0]
	if g.Node(s) == nil || g.Node(t) == nil {
		return dst, 0, 0, ErrNoWaypoint
	}
	est := func(n int64) float64 { // h, with what cannot be a remaining cost as 0
		if h == nil || n == t {
			return 0
		}
		if v := h(n); v > 0 {
			return v
		}
		return 0
	}
	type state struct {
		g      float64
		parent int64
		closed bool
	}
	st := map[int64]*state{s: {g: 0, parent: s}}
	// nodes reached only through finite edges whose costs summed to +Inf (kept
	// with g = +Inf, never opened): if the search fails, the goal may be one
	overflowed := 0
	open := &openList{}
	open.push(openItem{f: est(s), g: 0, id: s})
	for open.len() > 0 {
		cur := open.pop()
		cs := st[cur.id]
		if cur.g > cs.g || cs.closed { // superseded entry
			continue
		}
		cs.closed = true
		expanded++
		if cur.id == t {
			for n := t; ; n = st[n].parent {
				dst = append(dst, n)
				if n == s {
					break
				}
			}
			for l, r := 0, len(dst)-1; l < r; l, r = l+1, r-1 {
				dst[l], dst[r] = dst[r], dst[l]
			}
			return dst, cs.g, expanded, nil
		}
		to := g.From(cur.id)
		bad, badW := int64(-1), 0.0 // the bad edge to the lowest ID: the same whatever the order of From
		for to.Next() {
			nid := to.Node().ID()
			w, _ := g.Weight(cur.id, nid)
			if !(w >= 0) { // NaN, or negative: a cycle of negative cost would improve for ever
				if bad < 0 || nid < bad {
					bad, badW = nid, w
				}
				continue
			}
			if bad >= 0 {
				continue
			}
			ng := cs.g + w
			ns, seen := st[nid]
			if math.IsInf(ng, 1) { // a closed edge: no path of infinite cost
				if !seen && !math.IsInf(w, 1) {
					st[nid] = &state{g: ng}
					overflowed++
				}
				continue
			}
			if seen && ng >= ns.g {
				continue
			}
			if !seen {
				ns = &state{}
				st[nid] = ns
			} else if math.IsInf(ns.g, 1) {
				overflowed-- // reached at a finite cost after all
			}
			ns.g, ns.parent, ns.closed = ng, cur.id, false // reopen if it was closed
			open.push(openItem{f: ng + est(nid), g: ng, id: nid})
		}
		if bad >= 0 {
			return dst, 0, expanded, fmt.Errorf("%w: edge %d–%d weighs %v", ErrBadWeight, cur.id, bad, badW)
		}
	}
	if overflowed > 0 {
		return dst, 0, expanded, fmt.Errorf("%w: %d waypoint(s) reached only by paths costing more than %g (edge weights overflow when summed)",
			ErrUnreachable, overflowed, math.MaxFloat64)
	}
	return dst, 0, expanded, ErrUnreachable
}
