package systems

import (
	"math"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// FlowProgressPeriod is how often, in seconds of simulation time, [FlowField]
// checks its followers' progress along their fields
// (components.FlowFollower.ProgressCost and ProgressCheck), which [Diagnose]
// reads for CauseBlockedByAgents: in the frames whose step (Time, Time+DT]
// holds a multiple of it, every follower at once. The frames are the clock's
// alone, so the check sees the same agents in the same frames whatever the
// order Arche stores them in and whatever the workers; without a started
// Clock there is no check. A pass over every follower every 30 frames (at
// 60 Hz) costs each frame about a thirtieth of one.
const FlowProgressPeriod = 0.5

// flowProgressSlack is how far, in cells of the grid's least cost, a follower
// may be found above its ProgressCost and keep its run without progress in a
// check after a grid edit (the grid edited since the last check, or a field
// still older than the grid then): beyond it the edit made its route longer
// (a door closed, the swarm sent round) and its run starts again. Between
// edits a follower found above its ProgressCost keeps its run however far: a
// jammed crowd shoves its agents back and forth by cells, which is no progress.
const flowProgressSlack = 2.0

// progressCheck returns the number of the progress check clock c's frame
// holds (the multiple of FlowProgressPeriod in its step, the last if several;
// at least 1), or 0 when the frame holds none (or c is nil, not started, or
// its DT not positive).
func progressCheck(c *ecs.Clock) uint32 {
	if c == nil || !c.Started || !(c.DT > 0) || !(c.Time >= 0) {
		return 0
	}
	k := math.Floor((c.Time + c.DT) / FlowProgressPeriod)
	if !(k > math.Floor(c.Time/FlowProgressPeriod)) || !(k < math.MaxUint32) {
		return 0
	}
	return uint32(k)
}

// flowProgress is a progress check's settings: its number and the grid's
// costs that count.
type flowProgress struct {
	check  uint32  // the check's number (progressCheck)
	step   float32 // a cell's least cost: the progress that counts (a cell nearer)
	slack  float32 // flowProgressSlack in costs
	rebase bool    // the grid was edited since the last check (or a field was older than it then): see flowProgressSlack
}

// newFlowProgress returns check number k's settings on a grid whose least
// cell cost is minCost; rebase: see flowProgress.
func newFlowProgress(k uint32, minCost float32, rebase bool) flowProgress {
	return flowProgress{check: k, step: minCost, slack: flowProgressSlack * minCost, rebase: rebase}
}

// progressEdits is what a FlowField's progress checks know of grid edits:
// the grid's Version at the last check, and whether a field followed then was
// older than the grid (built within a Budget, or a sector field behind it).
type progressEdits struct {
	version uint64
	stale   bool
}

// rebase reports whether this check follows a grid edit (see
// flowProgressSlack): the grid's Version differs from the last check's, or a
// field was stale then; it records version and stale for the next check.
func (p *progressEdits) rebase(version uint64, stale bool) bool {
	r := version != p.version || p.stale
	p.version, p.stale = version, stale
	return r
}

// follow updates ff's run without progress (see
// components.FlowFollower.ProgressCost): v is the integration value of its
// field at its cell, has false when it follows no complete field. It writes
// ff only when the run changes.
func (t *flowProgress) follow(ff *components.FlowFollower, v float64, has bool) {
	if !has || !ff.Has || ff.Arrived || !ff.Steer || !(v < math.MaxFloat32) || !(v >= 0) {
		// not following (at rest at its goal, no field, no route from its cell): no run
		if ff.ProgressCheck != 0 || ff.ProgressCost != 0 {
			ff.ProgressCost, ff.ProgressCheck = 0, 0
		}
		return
	}
	cost := float32(v)
	if ff.ProgressCheck == 0 || ff.ProgressCheck > t.check || cost <= ff.ProgressCost-t.step || t.rebase && cost >= ff.ProgressCost+t.slack {
		ff.ProgressCost, ff.ProgressCheck = cost, t.check
	}
}

// trackProgress runs progress check k over the frame's whole-grid followers
// (the query of updatePoint, s.cols, and their fields, s.jobs), on the
// workers, after the frame's sampling, so that each follower's field, cell,
// Arrived and Steer are the frame's. It allocates nothing.
func (s *FlowField) trackProgress(k uint32) {
	n := s.cols.count
	if n == 0 || len(s.jobs) < n {
		return
	}
	rebase := s.progressEdits.rebase(s.grid.Version(), s.edits.behindFollowers > 0)
	s.progress = progressPass{s: s, t: newFlowProgress(k, s.grid.MinCost(), rebase)}
	s.pool.Run(&s.progress, n)
}

// progressPass is trackProgress's job.
type progressPass struct {
	s *FlowField
	t flowProgress
}

// Work implements ecs.Job: the progress check of the query's agents [lo, hi).
func (p *progressPass) Work(_, lo, hi int) {
	s := p.s
	c := &s.cols
	n := c.count
	for r := c.run(lo, 0); r < len(c.runs) && c.runs[r].start < hi; r++ {
		start := c.runs[r].start
		pos := columnOf[components.Position](c, r, ffPos, n)
		ffs := columnOf[components.FlowFollower](c, r, ffFollower, n)
		for i := max(lo, start); i < min(hi, c.end(r, n)); i++ {
			gi := s.jobs[i].goal
			v, has := 0.0, gi >= 0 && int(gi) < len(s.goals)
			if has {
				v = s.goals[gi].field.Integration(cellAt(s.grid, pos[i-start].Vec))
			}
			p.t.follow(&ffs[i-start], v, has)
		}
	}
}

// aheadOf reports whether p lies in front of an agent at pos heading for aim:
// in the open half-plane beyond pos towards aim.
func aheadOf(pos, aim, p r2.Vec) bool {
	return float64((p.X-pos.X)*(aim.X-pos.X))+float64((p.Y-pos.Y)*(aim.Y-pos.Y)) > 0
}

// crowdRimRows is how far, in Spacings, crowdRim reaches beyond the disk it
// measures: the followers that press on a crowd at rest without joining it
// stand a row or two beyond its rim. Half a Spacing (a follower touching the
// disk) counted 2 of 100 followers at a goal 7.5 cells from the grid's edge
// (sector fields, 10 pressing on the crowd's east side, 6.5 cells from the
// goal, the rim at 6.4) as jammed; 2.5 counts none in the small crowds of
// TestFlowSwarmAtRestAtItsGoalIsNotBlocked.
const crowdRimRows = 2.5

// crowdRim returns the rim, in cells from goal's centre, of the crowd that
// gathers at goal: a disk holding every follower of its field in the last
// Update at twice the area each of the arrival rule's (one per 2·Spacing²
// cells, a crowd at rest packing looser than Spacing), plus crowdRimRows
// Spacings; 0 when no follower followed a field towards goal then. A follower
// within it is at its crowd, not on its way (flowBlocked): a jam there is not
// counted (a crowd at rest at its goal, and the followers pressing on it,
// could not be told from one).
func (s *FlowField) crowdRim(goal grid.Cell) float64 {
	n := 0
	if s.sector != nil {
		for i := range s.sector.goals {
			if g := &s.sector.goals[i]; g.goal == goal && g.used == s.sector.frame {
				n += g.followers
			}
		}
	} else {
		for i := range s.goals {
			if s.goals[i].goal == goal {
				n += s.goals[i].followers
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(s.Spacing*math.Sqrt2*math.Sqrt(float64(n)/math.Pi)) + float64(crowdRimRows*s.Spacing)
}
