package scenario

import (
	"errors"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/nav/grid"
	"gonum.org/v1/gonum/spatial/r2"
)

// SwarmLayout is where the swarm scenario puts things for a seed, without a
// world: its map, the first goal, every agent's spawn position, and the
// sequence of later goals. [NewSwarm] draws exactly these (a test holds them
// together), so a loop outside Arche — the reference loop of package
// cmd/bench/reference — can run the same crowd on the same map.
type SwarmLayout struct {
	Grid      *grid.Grid
	Goal      grid.Cell // the first goal
	Positions []r2.Vec  // spawn positions in cells, in spawn order

	goals steer.Rand // the GoalDirector's random source
}

// NewSwarmLayout returns the swarm's layout for agents (10,000 if ≤ 0) and
// seed on g, or on the generated MapSizeFor(agents) map if g is nil. It
// returns an error if the map has no passable cell.
func NewSwarmLayout(agents int, seed uint64, g *grid.Grid) (*SwarmLayout, error) {
	if agents <= 0 {
		agents = 10000
	}
	if g == nil {
		var err error
		if g, err = generateFor(agents, seed); err != nil {
			return nil, err
		}
	}
	rng := steer.NewRand(seed ^ 0x5a4a)
	goal, ok := randomOpenCell(g, &rng)
	if !ok {
		return nil, errors.New("scenario: the map has no passable cell")
	}
	l := &SwarmLayout{Grid: g, Goal: g.CellAt(goal), goals: rng}
	var err error
	if l.Positions, err = swarmPositions(g, &rng, agents, false); err != nil {
		return nil, err
	}
	return l, nil
}

// NextGoal returns the next goal the swarm's [GoalDirector] moves to (the
// first call gives its first move, and so on).
func (l *SwarmLayout) NextGoal() grid.Cell {
	p, ok := randomOpenCell(l.Grid, &l.goals)
	if !ok {
		return l.Goal
	}
	return l.Grid.CellAt(p)
}
