package systems

import (
	"math"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"gonum.org/v1/gonum/spatial/r2"
)

// Perception updates the [components.Perception] of each agent about to think
// this frame (its Think.Next has come), so decisions read fresh, cached facts
// and agents that are not thinking cost nothing. It picks the nearest agent of
// another team within SightRange that is in line of sight over the grid
// ([grid.Grid.LineOfSight]), and remembers where and when a foe was last seen.
//
// Needs the [Neighbours] resource ([Spatial] must run first).
type Perception struct {
	clock  *ecs.Clock
	grid   *grid.Grid
	nb     *Neighbours
	filter *generic.Filter4[components.Position, components.Faction, components.Perception, components.Think]
	buf    []int32

	Checked int // agents that perceived in the last frame
}

// Name implements ecs.Namer.
func (s *Perception) Name() string { return "perception" }

// Initialize finds the resources.
func (s *Perception) Initialize(w *arche.World) {
	s.clock = ecs.ClockOf(w)
	s.grid = mustGrid(w)
	s.nb = arche.GetResource[Neighbours](w)
	if s.nb == nil {
		panic("systems: Perception needs the Neighbours resource; add the Spatial system before it")
	}
	s.filter = generic.NewFilter4[components.Position, components.Faction, components.Perception, components.Think]()
}

// Update perceives for the agents due to think.
func (s *Perception) Update(w *arche.World) {
	now := s.clock.Time
	s.Checked = 0
	q := s.filter.Query(w)
	for q.Next() {
		pos, fac, per, th := q.Get()
		if !Due(th, now, s.clock.DT) {
			continue
		}
		s.Checked++
		s.perceive(q.Entity(), pos.Vec, fac.Team, per, now)
	}
}

func (s *Perception) perceive(self arche.Entity, pos r2.Vec, team uint8, per *components.Perception, now float64) {
	nb := s.nb
	s.buf = nb.Hash.Query(pos, per.SightRange, s.buf[:0])
	best, bestD := int32(-1), math.Inf(1)
	for _, id := range s.buf {
		if nb.Teams[id] == team || nb.Entities[id] == self {
			continue
		}
		d := r2.Norm(r2.Sub(nb.Positions[id], pos))
		if d >= bestD || !s.grid.LineOfSight(pos, nb.Positions[id]) {
			continue
		}
		best, bestD = id, d
	}
	if best < 0 {
		per.Visible = false
		per.Target = arche.Entity{}
		return
	}
	per.Visible = true
	per.Target = nb.Entities[best]
	per.TargetAt = nb.Positions[best]
	per.Distance = bestD
	per.HasLastSeen = true
	per.LastSeen = per.TargetAt
	per.LastSeenTime = now
}

// Finalize does nothing.
func (s *Perception) Finalize(w *arche.World) {}
