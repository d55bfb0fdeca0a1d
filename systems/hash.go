package systems

import (
	"math"

	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// StateHash returns an FNV-1a hash of every agent's entity, position,
// velocity and health (when it has one), in Arche's query order. Two runs from
// the same seed with the same systems give the same hash; it is the quick test
// that a change kept the simulation deterministic.
func StateHash(w *arche.World) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	mix := func(v uint64) {
		for i := 0; i < 8; i++ {
			h ^= v & 0xff
			h *= prime
			v >>= 8
		}
	}
	f := generic.NewFilter3[components.Position, components.Velocity, components.Health]().
		Optional(generic.T[components.Velocity](), generic.T[components.Health]())
	q := f.Query(w)
	for q.Next() {
		p, v, hp := q.Get()
		e := q.Entity()
		mix(uint64(e.ID())<<32 | uint64(e.Generation()))
		mix(math.Float64bits(p.X))
		mix(math.Float64bits(p.Y))
		if v != nil {
			mix(math.Float64bits(v.X))
			mix(math.Float64bits(v.Y))
		}
		if hp != nil {
			mix(math.Float64bits(hp.Current))
		}
	}
	return h
}
