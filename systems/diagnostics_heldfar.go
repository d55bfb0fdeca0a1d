package systems

import (
	"math"
	"strconv"
	"strings"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// The bounds of CauseHeldFarFromGoal.
const (
	heldFarPacking = 0.25 // the loosest share of the room its discs cover that a crowd at rest is taken to pack at (settleLoose)
	heldFarMargin  = 1.0  // cells beyond the room's radius plus a diameter before a holder counts as far
)

// heldFarCand is an agent holding (DesiredHold) at rest, for CauseHeldFarFromGoal's
// check once every agent's goal has been seen.
type heldFarCand struct {
	e    arche.Entity
	pos  r2.Vec
	goal r2.Vec
	r    float64
}

// heldFarGoal is what the check knows of one goal: the agents sent there (n), the
// sum of their squared radii and the radius of the room they need (0: not yet
// computed).
type heldFarGoal struct {
	n    int
	sum  float64
	room float64
}

// heldFarCheck finds holders far from their goal (CauseHeldFarFromGoal). Its
// buffers are reused between checks.
type heldFarCheck struct {
	cands  []heldFarCand
	goals  map[r2.Vec]*heldFarGoal
	free   []*heldFarGoal // goal records kept for reuse
	filter *generic.Filter2[components.Intent, components.Kinematics]
}

// consider keeps agent e at pos (Kinematics kin, Intent in, Desired des, Velocity
// vel) as a candidate when it holds at rest, sent to a goal farther than a
// diameter plus heldFarMargin from where it stands.
func (h *heldFarCheck) consider(e arche.Entity, pos, vel r2.Vec, kin *components.Kinematics, in *components.Intent, des *components.Desired) {
	if des.Mode != components.DesiredHold || !in.Move || in.Mode != components.IntentGo || !goodKinematics(kin) ||
		!finiteVec(pos) || !finiteVec(in.Goal) || !finiteVec(vel) {
		return
	}
	slow := heldOffSlow * kin.MaxSpeed
	if norm2(vel) > slow*slow || !(dist2(pos, in.Goal) > sq(2*kin.Radius+heldFarMargin)) {
		return
	}
	h.cands = append(h.cands, heldFarCand{e: e, pos: pos, goal: in.Goal, r: kin.Radius})
}

func sq(x float64) float64 { return x * x }

// report counts the candidates farther from their goal than the room the agents
// sent there need (heldFarRoom) plus a diameter and heldFarMargin, on g (nil: an
// open plane), and empties the list. Only when there are candidates does it look
// at every agent's goal again (a query of Intent and Kinematics).
func (h *heldFarCheck) report(w *arche.World, g *grid.Grid, r *Report) {
	if len(h.cands) == 0 {
		return
	}
	if h.goals == nil {
		h.goals = map[r2.Vec]*heldFarGoal{}
		h.filter = generic.NewFilter2[components.Intent, components.Kinematics]()
	}
	for _, c := range h.cands {
		if h.goals[c.goal] == nil {
			var rec *heldFarGoal
			if n := len(h.free); n > 0 {
				rec, h.free = h.free[n-1], h.free[:n-1]
			} else {
				rec = &heldFarGoal{}
			}
			*rec = heldFarGoal{}
			h.goals[c.goal] = rec
		}
	}
	q := h.filter.Query(w)
	for q.Next() {
		in, kin := q.Get()
		if !in.Move || in.Mode != components.IntentGo || !goodKinematics(kin) {
			continue
		}
		if rec := h.goals[in.Goal]; rec != nil {
			rec.n++
			rec.sum += float64(kin.Radius * kin.Radius)
		}
	}
	for _, c := range h.cands {
		rec := h.goals[c.goal]
		if rec.room == 0 {
			rec.room = heldFarRoom(g, c.goal, rec.sum)
		}
		dist := math.Sqrt(dist2(c.pos, c.goal))
		if dist > rec.room+2*c.r+heldFarMargin {
			r.addNote(CauseHeldFarFromGoal, c.e, exampleNote{kind: noteHeldFar, pos: r2.Vec{X: dist, Y: rec.room}, more: r2.Vec{X: float64(rec.n)}})
		}
	}
	for _, c := range h.cands {
		if rec := h.goals[c.goal]; rec != nil {
			h.free = append(h.free, rec)
			delete(h.goals, c.goal)
		}
	}
	clear(h.cands)
	h.cands = h.cands[:0]
}

// heldFarRoom returns the radius, in cells, of the disc about goal whose open
// cells (of g, counted by their centres; nil g: all open) hold discs of squared
// radii summing to sum at a packing of heldFarPacking: sqrt(sum/heldFarPacking)
// on an open plane, more where walls or the grid's edge take part of that disc
// (grown by the share of it they take, up to four times). Walls between the
// cells and the goal are not looked at: it is the room there is, not the room
// reachable.
func heldFarRoom(g *grid.Grid, goal r2.Vec, sum float64) float64 {
	need := math.Pi * sum / heldFarPacking // cells
	rad := math.Sqrt(sum / heldFarPacking)
	if g == nil {
		return rad
	}
	for range 4 {
		open := openCellsWithin(g, goal, rad)
		if float64(open) >= need || open == 0 {
			return rad
		}
		rad *= math.Sqrt(need / float64(open))
		rad = min(rad, float64(g.Width()+g.Height()))
	}
	return rad
}

// openCellsWithin counts g's passable cells whose centres lie within rad of p.
func openCellsWithin(g *grid.Grid, p r2.Vec, rad float64) int {
	x0, x1 := int32(math.Floor(p.X-rad)), int32(math.Ceil(p.X+rad))
	y0, y1 := int32(math.Floor(p.Y-rad)), int32(math.Ceil(p.Y+rad))
	x0, y0 = max(x0, 0), max(y0, 0)
	x1, y1 = min(x1, int32(g.Width())-1), min(y1, int32(g.Height())-1)
	n := 0
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			if dist2(r2.Vec{X: float64(x) + 0.5, Y: float64(y) + 0.5}, p) <= rad*rad && g.Passable(grid.Cell{X: x, Y: y}) {
				n++
			}
		}
	}
	return n
}

// appendHeldFar writes CauseHeldFarFromGoal's note n (pos: the distance to the goal and
// the room's radius, more.X: the agents sent there).
func appendHeldFar(b *strings.Builder, n *exampleNote) {
	b.WriteString(", holds (DesiredHold) at rest ")
	b.WriteString(strconv.FormatFloat(n.pos.X, 'g', 4, 64))
	b.WriteString(" cells from its goal, while the ")
	b.WriteString(strconv.Itoa(int(n.more.X)))
	b.WriteString(" agents sent there would fit within ")
	b.WriteString(strconv.FormatFloat(n.pos.Y, 'g', 4, 64))
	b.WriteString(" cells of it at a quarter of the open cells' area: there is room nearer, and it stopped where it met" +
		" others of its group (a queue of holders behind a gap or round a corner); send the group to points spread" +
		" over the room about the goal (a formation), or order it on")
}

// narrowIntentGoal reports whether in's goal cell is too narrow for a disc of
// kin's radius (CausePathGoalNarrow explains a holder off it). It does not
// read the Path's Goal, which is the zero cell (on the grid's edge) while no
// path is held (see narrowGoal).
func narrowIntentGoal(g *grid.Grid, in *components.Intent, kin *components.Kinematics) bool {
	if g == nil || kin == nil || kin.Radius <= 0.5 {
		return false
	}
	gc, ok := moveGoalCell(g, in)
	return ok && g.InBounds(gc) && g.Passable(gc) && g.Clearance(gc) < grid.ClearanceFor(kin.Radius)
}
