package systems

import (
	"math"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// flowWide is what FlowField keeps for its wide followers (Kinematics.Radius
// over 0.5), also a world resource that Diagnose reads.
type flowWide struct {
	sectors bool           // sector mode: wide followers are served as point agents (CauseFlowFollowerWideSector)
	sealed  []arche.Entity // whole-grid mode: the wide followers whose cell had no route wide enough at the last Update
	filter  *generic.Filter3[components.Position, components.FlowFollower, components.Kinematics]
}

func (s *FlowField) initWide(w *arche.World) {
	if ecs.Resource[flowWide](w) != nil {
		w.Resources().Remove(arche.ResourceID[flowWide](w))
	}
	s.wide = &flowWide{sectors: s.Sectors != 0,
		filter: generic.NewFilter3[components.Position, components.FlowFollower, components.Kinematics]()}
	arche.AddResource(w, s.wide)
}

// updateWide serves each wide follower (grid.ClearanceFor(Kinematics.Radius)
// above 1), once updatePoint has resolved and sampled it as a point agent,
// the field of its clearance towards its Active goal: its Aim, Direct and
// Steer are sampled again from that field, every frame, with lines of sight
// at its clearance (grid.Grid.LineOfSightWide). A follower whose wide field
// is not complete yet stands (Steer false) and counts in Waiting; one whose
// cell has no route wide enough stands and is listed in sealed
// (CauseFlowFollowerWide). Arrived stays the point rule's. Point followers
// are not touched, and a frame without wide followers costs one pass over
// the followers with a Kinematics.
func (s *FlowField) updateWide(w *arche.World) {
	s.wide.sealed = s.wide.sealed[:0]
	var (
		lastGoal grid.Cell
		lastClr  uint8
		last     *flowfield.Field
	)
	q := s.wide.filter.Query(w)
	for q.Next() {
		pos, ff, kin := q.Get()
		if !(kin.Radius > 0.5) || !ff.Has || ff.Arrived {
			continue
		}
		clr := grid.ClearanceFor(kin.Radius)
		if last == nil || ff.Active != lastGoal || clr != lastClr {
			last, lastGoal, lastClr = s.wideField(ff.Active, clr), ff.Active, clr
		}
		if last == nil || !last.Done() {
			ff.Steer = false
			s.Waiting++
			last = nil
			continue
		}
		ff.Aim, ff.Direct, ff.Steer = aimWith(last, s.grid, pos.Vec, s.maxCost, nil, nil)
		if c := cellAt(s.grid, pos.Vec); s.grid.Passable(c) {
			if _, ok := last.Next(c); !ok {
				s.wide.sealed = append(s.wide.sealed, q.Entity())
			}
		}
	}
}

// wideField returns the field of clearance clr towards goal: built at once
// with Budget 0, else requested (the cache's Update builds it within Budget
// from the next frame); a complete field being rebuilt after an edit is
// served meanwhile. The cache grows by a field for each wide field it holds,
// up to 2·MaxFields in all, so wide fields take no room from the goals of
// point followers; nil beyond that.
func (s *FlowField) wideField(goal grid.Cell, clr uint8) *flowfield.Field {
	c := s.Cache
	if c.Len() >= c.Capacity() {
		if c.Capacity() >= 2*s.MaxFields {
			return nil
		}
		c.SetCapacity(c.Capacity() + 1)
	}
	if s.Budget <= 0 {
		return c.GetWide(goal, clr)
	}
	f, _ := c.RequestWide(goal, clr)
	return f
}

// wideFollower reports whether a FlowFollower of Kinematics kin is wide:
// a radius over 0.5 cells (finite or not).
func wideFollower(kin *components.Kinematics) bool {
	return kin != nil && kin.Radius > 0.5 && !math.IsNaN(kin.Radius)
}
