package systems

import (
	"errors"

	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
)

// Default tuning of the [Avoider] bundle (ORCA local avoidance).
const (
	DefaultTimeHorizon     = 2.0 // seconds: other agents are avoided this far ahead
	DefaultObstacleHorizon = 1.0 // seconds: walls are avoided this far ahead
	DefaultMaxNeighbours   = 10  // the nearest agents avoided
	DefaultNeighbourDist   = 5.0 // cells, centre to centre
	DefaultORCABias        = 0.3 // radians the preferred velocity turns right while a neighbour is near
)

// Avoider makes a moving agent avoid others with ORCA instead of separation: it adds a
// [components.ORCA], served by the [ORCA] system (between [Steer] and [Movement]), and
// turns the agent's separation weight off (ORCA keeps agents apart by itself). List it
// after the moving bundle ([Mover], [Wanderer], [FlowFollower]), whose SteeringWeights
// it changes; set KeepSeparation to keep both.
//
// Zero fields take their defaults; a negative MaxNeighbours avoids walls only, a
// negative Bias turns the right-hand bias off (pure ORCA, which deadlocks on symmetric
// scenes such as a ring of agents swapping sides).
type Avoider struct {
	TimeHorizon     float64 // seconds; DefaultTimeHorizon (2)
	ObstacleHorizon float64 // seconds; DefaultObstacleHorizon (1)
	MaxNeighbours   int     // DefaultMaxNeighbours (10)
	NeighbourDist   float64 // cells; DefaultNeighbourDist (5)
	Bias            float64 // radians; DefaultORCABias (0.3)
	KeepSeparation  bool    // keep the moving bundle's separation weight
}

// DefaultAvoider returns an Avoider with every default written out.
func DefaultAvoider() Avoider { return Avoider{}.resolve() }

func (b Avoider) resolve() Avoider {
	b.TimeHorizon = orDefault(b.TimeHorizon, DefaultTimeHorizon)
	b.ObstacleHorizon = orDefault(b.ObstacleHorizon, DefaultObstacleHorizon)
	switch {
	case b.MaxNeighbours == 0:
		b.MaxNeighbours = DefaultMaxNeighbours
	case b.MaxNeighbours < 0:
		b.MaxNeighbours = 0
	}
	b.NeighbourDist = orDefault(b.NeighbourDist, DefaultNeighbourDist)
	b.Bias = weight(b.Bias, DefaultORCABias)
	return b
}

// Validate reports a negative or non-finite horizon or distance, or a non-finite Bias.
func (b Avoider) Validate() error {
	return errors.Join(checkSize("TimeHorizon", b.TimeHorizon), checkSize("ObstacleHorizon", b.ObstacleHorizon),
		checkSize("NeighbourDist", b.NeighbourDist), checkWeight("Bias", b.Bias))
}

// Components implements [Bundle].
func (b Avoider) Components(w *arche.World) []arche.ID {
	return []arche.ID{arche.ComponentID[components.ORCA](w)}
}

// sets lists the ORCA alone: the separation weight it turns off is the moving
// bundle's, on purpose (NewSpawner checks the order).
func (b Avoider) sets(w *arche.World) []arche.ID { return b.Components(w) }

// Init implements [Bundle].
func (b Avoider) Init(a *Spawned) {
	r := b.resolve()
	if o := Component[components.ORCA](a); o != nil { // always: Components adds it
		*o = components.ORCA{TimeHorizon: r.TimeHorizon, ObstacleHorizon: r.ObstacleHorizon,
			MaxNeighbours: r.MaxNeighbours, NeighbourDist: r.NeighbourDist, Bias: r.Bias}
	}
	if a.SteeringWeights != nil && !r.KeepSeparation {
		a.SteeringWeights.Separation = 0
	}
}
