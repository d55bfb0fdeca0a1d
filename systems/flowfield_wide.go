package systems

import (
	"math"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
)

// flowWide is what FlowField keeps for its wide followers (Kinematics.Radius
// over 0.5), also a world resource that Diagnose reads.
type flowWide struct {
	sectors bool           // sector mode: wide followers are served as point agents (CauseFlowFollowerWideSector)
	spacing float64        // FlowField.Spacing (CauseFlowFollowerSpacing); 0: not known
	sealed  []arche.Entity // whole-grid mode: the wide followers whose cell had no route wide enough at the last Update
	at      []int32        // updateWide: their query indices
}

func (s *FlowField) initWide(w *arche.World) {
	if ecs.Resource[flowWide](w) != nil {
		w.Resources().Remove(arche.ResourceID[flowWide](w))
	}
	s.wide = &flowWide{sectors: s.Sectors != 0, spacing: s.Spacing}
	if s.auto > 0 && s.Sectors == 0 {
		s.wide.spacing = 0 // automatic: fits the widest follower (autoSpacing; whole-grid fields only)
	}
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
	if s.auto > 0 && s.Spacing != s.auto {
		s.auto = 0 // Spacing set by hand since: kept
	}
	s.wide.spacing = s.Spacing // as set now, for Diagnose
	if s.auto > 0 {
		s.wide.spacing = 0 // automatic: fits the widest follower (autoSpacing)
	}
	s.wide.sealed, s.wide.at = s.wide.sealed[:0], s.wide.at[:0]
	widest := 0.0
	var (
		lastGoal grid.Cell
		lastClr  uint8
		last     *flowfield.Field
	)
	// the columns updatePoint scanned (no structural change since): a pass
	// over the radii of the followers with a Kinematics, a few instructions
	// each, then the wide ones' components
	c := &s.cols
	n := c.count
	for r := range c.runs {
		kins := columnOf[components.Kinematics](c, r, ffKin, n)
		start := c.runs[r].start
		for k := range kins {
			if r := kins[k].Radius; r > widest && r <= MaxKinematicRadius { // (not NaN)
				widest = r
			}
			if !(kins[k].Radius > 0.5) {
				continue
			}
			ff := &columnOf[components.FlowFollower](c, r, ffFollower, n)[k]
			if !ff.Has || ff.Arrived {
				continue
			}
			clr := grid.ClearanceFor(kins[k].Radius)
			if last == nil || ff.Active != lastGoal || clr != lastClr {
				last, lastGoal, lastClr = s.wideField(ff.Active, clr), ff.Active, clr
			}
			if last == nil || !last.Done() {
				ff.Steer = false
				s.Waiting++
				last = nil
				continue
			}
			p := columnOf[components.Position](c, r, ffPos, n)[k].Vec
			ff.Aim, ff.Direct, ff.Steer = aimWith(last, s.grid, p, s.maxCost, nil, nil)
			if cell := cellAt(s.grid, p); s.grid.Passable(cell) {
				if _, ok := last.Next(cell); !ok {
					s.wide.at = append(s.wide.at, int32(start+k))
				}
			}
		}
	}
	if len(s.wide.at) > 0 {
		c.entitiesAt(w, s.filter.Filter(w), s.wide.at)
		for _, i := range s.wide.at {
			s.wide.sealed = append(s.wide.sealed, c.ents[i])
		}
	}
	if s.auto > 0 {
		s.Spacing = autoSpacing(widest)
		s.auto = s.Spacing
	}
}

// DefaultFlowSpacing is FlowField.Spacing, in cells, for followers of radius up to
// 0.45 when Spacing is left at zero: 2.5 radii of a default follower (0.3).
const DefaultFlowSpacing = 0.75

// autoSpacing is the Spacing of a FlowField whose Spacing was zero or negative at
// Initialize, for widest, the largest Kinematics.Radius among its followers
// (0: none): DefaultFlowSpacing, or 2.5·widest, the default's ratio to
// a default follower's radius, when the diameter is over flowSpacingSlack times
// DefaultFlowSpacing (where Diagnose would count CauseFlowFollowerSpacing). With
// the default, followers of radius 0.6 or 0.8 never all came to rest at their
// goal (the arrival rule packs one agent per Spacing² cells). It applies from the
// frame after the one that saw the followers (a change of Spacing rebuilds the
// arrival tables once). A Spacing set by hand after Initialize is kept: the
// automatic one stops. Sector mode (Sectors > 0, which serves wide followers as
// point agents: CauseFlowFollowerWideSector) keeps DefaultFlowSpacing, and
// Diagnose checks it as one set by hand.
func autoSpacing(widest float64) float64 {
	if 2*widest > flowSpacingSlack*DefaultFlowSpacing {
		return 2.5 * widest
	}
	return DefaultFlowSpacing
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

// flowSpacingSlack is how much wider than FlowField.Spacing a follower's disc
// may be before Diagnose counts it (CauseFlowFollowerSpacing): followers of
// radius 0.44 rest at the default 0.75, of 0.45 they jitter a little, of 0.5
// 11 of 20 never arrive.
const flowSpacingSlack = 1.2

// wideFollower reports whether Diagnose counts a FlowFollower of Kinematics
// kin as wide: a finite radius over 0.5 cells (an infinite one is counted as
// kinematics_invalid: one fault, one finding).
func wideFollower(kin *components.Kinematics) bool {
	return kin != nil && kin.Radius > 0.5 && !math.IsInf(kin.Radius, 1)
}
