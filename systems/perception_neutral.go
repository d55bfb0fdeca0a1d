package systems

import (
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// neutralAgents finds, each frame Perception perceives, the agents of the
// Neighbours without a Faction (the Spatial system gives them team 0): they
// are bystanders, nobody's foe. Its mask is kept between frames, so a warm
// frame allocates nothing; a world whose agents all have a Faction pays one
// query that matches no archetype.
type neutralAgents struct {
	filter *generic.Filter2[components.Position, components.Velocity]
	mask   []bool // by hash ID
	any    bool   // mask has a true entry
}

func (n *neutralAgents) init() {
	n.filter = generic.NewFilter2[components.Position, components.Velocity]().Without(generic.T[components.Faction]())
	n.any = false
}

// mark returns the mask of nb's hash IDs whose agent has no Faction, nil if
// there is none.
func (n *neutralAgents) mark(w *arche.World, nb *Neighbours) []bool {
	if n.any {
		clear(n.mask)
		n.any = false
	}
	q := n.filter.Query(w)
	for q.Next() {
		id := nb.ID(q.Entity())
		if id < 0 {
			continue
		}
		if !n.any {
			n.mask = grow(n.mask, len(nb.Positions))
			clear(n.mask)
			n.any = true
		}
		n.mask[id] = true
	}
	if !n.any {
		return nil
	}
	return n.mask
}
