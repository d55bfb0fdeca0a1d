package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/cmd/bench/scenario"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/iterator"
	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"
)

// compareQueries is the number of random queries -compare times with our A*
// and gonum's; compareSample is the most per-agent searches it times before
// estimating the rest from their mean. Tests make them smaller.
var (
	compareQueries = 100
	compareSample  = 2000
)

// compareReport is -compare's result for one agent count. Times are wall
// clock.
type compareReport struct {
	Kind    string `json:"kind"` // "compare"
	Agents  int    `json:"agents"`
	Map     string `json:"map"`
	Seed    uint64 `json:"seed"`
	Queries int    `json:"astar_queries"`
	// our A* (grid.Search) and gonum's path.AStar on the same grid (octile
	// heuristic, the same moves and costs), µs per query; equal costs checked
	OursUsPerQuery  float64 `json:"astar_ours_us_per_query"`
	GonumUsPerQuery float64 `json:"astar_gonum_us_per_query"`
	GonumOverOurs   float64 `json:"astar_gonum_over_ours"`
	// all agents heading to one goal: one flow field (build and every agent's
	// lookup) against an A* search per agent (timed on up to compareSample
	// agents, the rest estimated from their mean)
	FlowFieldMs      float64 `json:"flowfield_ms"`
	PerAgentAStarMs  float64 `json:"per_agent_astar_ms"`
	AStarSampled     int     `json:"per_agent_astar_sampled"`
	AStarOverFlow    float64 `json:"per_agent_astar_over_flowfield"`
	CostsAgree       bool    `json:"costs_agree"`
	FlowMatchesAStar bool    `json:"flowfield_matches_astar"`
}

// runCompare runs the comparisons of -compare for each agent count of
// -sweep (or -agents) and prints them (JSON lines with -json).
func (rf *reportFlags) runCompare(cfg crowdConfig, asJSON bool, stdout, stderr io.Writer) int {
	counts, err := parseCounts("-sweep", rf.sweep, cfg.Agents)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	var g *grid.Grid
	if cfg.MapFile != "" {
		name := ""
		if g, err = loadMap(cfg.MapFile, &name); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
	}
	var reps []*compareReport
	for _, n := range counts {
		rep, err := compareAt(n, cfg.Seed, g)
		if err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
		if asJSON {
			b, _ := json.Marshal(rep)
			fmt.Fprintf(stdout, "%s\n", b)
		}
		reps = append(reps, rep)
	}
	if !asJSON {
		writeCompare(stdout, reps)
	}
	for _, r := range reps {
		if !r.CostsAgree || !r.FlowMatchesAStar {
			fmt.Fprintf(stderr, "bench: -compare at %d agents: the searches disagree on a path's cost\n", r.Agents)
			return 1
		}
	}
	return 0
}

// compareAt runs both comparisons for agents on g (the generated map for
// agents and seed if nil).
func compareAt(agents int, seed uint64, g *grid.Grid) (*compareReport, error) {
	lay, err := scenario.NewSwarmLayout(agents, seed, g)
	if err != nil {
		return nil, err
	}
	g = lay.Grid
	rep := &compareReport{Kind: "compare", Agents: agents, Seed: seed, CostsAgree: true, FlowMatchesAStar: true,
		Map: fmt.Sprintf("%dx%d", g.Width(), g.Height())}

	// our A* against gonum's on random queries between open cells
	rng := steer.NewRand(seed ^ 0xc0)
	s := grid.NewSearch(g)
	gg := gridGraph{g}
	h := func(x, y graph.Node) float64 { return grid.Octile(gg.cell(x.ID()), gg.cell(y.ID())) }
	var buf []grid.Cell
	var ours, theirs time.Duration
	for range compareQueries {
		a, b := randomCell(g, &rng), randomCell(g, &rng)
		t0 := time.Now()
		var cost float64
		buf, cost, err = s.Path(a, b, buf[:0])
		t1 := time.Now()
		sp, _ := path.AStar(simple.Node(gg.id(a)), simple.Node(gg.id(b)), gg, h)
		_, gc := sp.To(gg.id(b))
		theirs += time.Since(t1)
		ours += t1.Sub(t0)
		if err != nil || math.Abs(gc-cost) > 1e-6*max(1, cost) {
			rep.CostsAgree = false
		}
	}
	rep.Queries = compareQueries
	rep.OursUsPerQuery = float64(ours.Microseconds()) / float64(compareQueries)
	rep.GonumUsPerQuery = float64(theirs.Microseconds()) / float64(compareQueries)
	if ours > 0 {
		rep.GonumOverOurs = float64(theirs) / float64(ours)
	}

	// every agent heading to one goal: a flow field, then each agent's
	// direction, against a search per agent
	t0 := time.Now()
	f := flowfield.New(g)
	f.Build(lay.Goal)
	var sum float64
	for _, p := range lay.Positions {
		d, _ := f.Sample(p)
		sum += d.X
	}
	rep.FlowFieldMs = float64(time.Since(t0).Nanoseconds()) / 1e6
	_ = sum
	step := max(1, len(lay.Positions)/compareSample)
	var astar time.Duration
	for i := 0; i < len(lay.Positions); i += step {
		c := g.CellAt(lay.Positions[i])
		t0 := time.Now()
		var cost float64
		buf, cost, err = s.Path(c, lay.Goal, buf[:0])
		astar += time.Since(t0)
		rep.AStarSampled++
		if err != nil || math.Abs(f.Integration(c)-cost) > 1e-4*max(1, cost) {
			rep.FlowMatchesAStar = false
		}
	}
	rep.PerAgentAStarMs = float64(astar.Nanoseconds()) / 1e6 / float64(rep.AStarSampled) * float64(len(lay.Positions))
	if rep.FlowFieldMs > 0 {
		rep.AStarOverFlow = rep.PerAgentAStarMs / rep.FlowFieldMs
	}
	return rep, nil
}

func randomCell(g *grid.Grid, r *steer.Rand) grid.Cell {
	for {
		c := grid.Cell{X: int32(r.Intn(g.Width())), Y: int32(r.Intn(g.Height()))}
		if g.Passable(c) {
			return c
		}
	}
}

func writeCompare(w io.Writer, reps []*compareReport) {
	fmt.Fprintf(w, "archai bench -compare (wall clock; ratios from the same run)\n\n")
	t := table{head: []string{"agents", "map", "A* ours µs/query", "gonum µs/query", "gonum/ours",
		"flow field ms", "A* per agent ms", "A*/flow field", "costs agree"}}
	for _, r := range reps {
		est := ""
		if r.AStarSampled < r.Agents {
			est = fmt.Sprintf(" (est. from %d)", r.AStarSampled)
		}
		t.rows = append(t.rows, []string{fmt.Sprint(r.Agents), r.Map, fmt.Sprintf("%.1f", r.OursUsPerQuery),
			fmt.Sprintf("%.1f", r.GonumUsPerQuery), fmt.Sprintf("%.1f×", r.GonumOverOurs), f3(r.FlowFieldMs),
			fmt.Sprintf("%.1f%s", r.PerAgentAStarMs, est), fmt.Sprintf("%.0f×", r.AStarOverFlow),
			fmt.Sprint(r.CostsAgree && r.FlowMatchesAStar)})
	}
	t.writeText(w)
	fmt.Fprintf(w, "\nA*: %d random queries between open cells of the generated map, our grid.Search against gonum's path.AStar\n", compareQueries)
	fmt.Fprintf(w, "(octile heuristic) on the same grid seen as a gonum graph (8 moves, no corner cutting); costs checked equal.\n")
	fmt.Fprintf(w, "Flow field: every agent of the swarm layout heading to its goal; time until all have a route: one field\n")
	fmt.Fprintf(w, "(nav/flowfield: build, then each agent's direction) against one A* per agent (its cost checked against the field's).\n")
}

// gridGraph is a grid seen as a gonum weighted graph, built on the fly: node
// id = y·width + x, the 8 moves of grid.Search (no corner cutting), a move's
// weight the entered cell's cost (×√2 diagonally).
type gridGraph struct{ g *grid.Grid }

func (gg gridGraph) id(c grid.Cell) int64 { return int64(c.Y)*int64(gg.g.Width()) + int64(c.X) }
func (gg gridGraph) cell(id int64) grid.Cell {
	w := int64(gg.g.Width())
	return grid.Cell{X: int32(id % w), Y: int32(id / w)}
}

// From returns the cells reachable in one move from id.
func (gg gridGraph) From(id int64) graph.Nodes {
	c := gg.cell(id)
	var out []graph.Node
	for dy := int32(-1); dy <= 1; dy++ {
		for dx := int32(-1); dx <= 1; dx++ {
			if _, ok := gg.move(c, grid.Cell{X: c.X + dx, Y: c.Y + dy}); ok {
				out = append(out, simple.Node(gg.id(grid.Cell{X: c.X + dx, Y: c.Y + dy})))
			}
		}
	}
	return iterator.NewOrderedNodes(out)
}

// move returns the cost of the move from a to b, if it is one.
func (gg gridGraph) move(a, b grid.Cell) (float64, bool) {
	g := gg.g
	dx, dy := b.X-a.X, b.Y-a.Y
	if (dx == 0 && dy == 0) || dx < -1 || dx > 1 || dy < -1 || dy > 1 || !g.Passable(a) || !g.Passable(b) {
		return 0, false
	}
	cost := float64(g.Cost(b))
	if dx != 0 && dy != 0 {
		if !g.Passable(grid.Cell{X: a.X + dx, Y: a.Y}) || !g.Passable(grid.Cell{X: a.X, Y: a.Y + dy}) {
			return 0, false
		}
		cost *= grid.Sqrt2
	}
	return cost, true
}

// Edge returns the move from uid to vid, nil if there is none.
func (gg gridGraph) Edge(uid, vid int64) graph.Edge {
	w, ok := gg.move(gg.cell(uid), gg.cell(vid))
	if !ok {
		return nil
	}
	return simple.WeightedEdge{F: simple.Node(uid), T: simple.Node(vid), W: w}
}

// Weight is path.Weighted's weight of the move from xid to yid.
func (gg gridGraph) Weight(xid, yid int64) (float64, bool) {
	if xid == yid {
		return 0, true
	}
	return gg.move(gg.cell(xid), gg.cell(yid))
}
