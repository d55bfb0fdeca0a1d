package systems

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/r2"

	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// StateHash returns an FNV-1a hash of every agent's state: entity, position,
// and where the agent has them velocity, health, think schedule, random
// source, intent, path state and the status of every behavior-tree node,
// hashed per agent and combined in entity-ID order, so the hash does not
// depend on the order in which Arche stores the agents (it differs after a
// save and load). Two runs from the same seed with the same systems give the
// same hash whatever the number of workers and the storage order; it is the
// quick test that a change kept the simulation deterministic. It allocates
// (a slice of the agents' hashes): call it after a run, not every frame.
func StateHash(w *arche.World) uint64 {
	type agentSum struct {
		id  uint32
		sum uint64
	}
	var sums []agentSum
	f := generic.NewFilter9[components.Position, components.Velocity, components.Health, components.Think,
		components.Rand, components.Intent, components.Path, components.Brain, components.Perception]().
		Optional(generic.T[components.Velocity](), generic.T[components.Health](), generic.T[components.Think](),
			generic.T[components.Rand](), generic.T[components.Intent](), generic.T[components.Path](),
			generic.T[components.Brain](), generic.T[components.Perception]())
	q := f.Query(w)
	for q.Next() {
		p, v, hp, th, rnd, in, path, brain, per := q.Get()
		e := q.Entity()
		h := fnv{sum: 14695981039346656037}
		h.u64(uint64(e.ID())<<32 | uint64(e.Generation()))
		h.vec(p.Vec)
		if v != nil {
			h.vec(v.Vec)
		}
		if hp != nil {
			h.f64(hp.Current)
		}
		if th != nil {
			h.f64(th.Next)
			h.f64(th.Last)
		}
		if rnd != nil {
			h.u64(rnd.State)
		}
		if in != nil {
			h.vec(in.Goal)
			h.u64(uint64(in.Attack.ID()))
		}
		if path != nil {
			h.u64(uint64(path.State) | uint64(path.Next)<<8 | uint64(len(path.Waypoints))<<32)
		}
		if per != nil {
			h.u64(uint64(per.Target.ID()))
			h.f64(per.LastSeenTime)
		}
		if brain != nil && brain.Tree != nil {
			for i := range brain.Memory.Len() {
				h.u64(uint64(brain.Memory.Status(i)))
			}
		}
		sums = append(sums, agentSum{e.ID(), h.sum})
	}
	slices.SortFunc(sums, func(a, b agentSum) int { return cmp.Compare(a.id, b.id) })
	h := fnv{sum: 14695981039346656037}
	for _, a := range sums {
		h.u64(a.sum)
	}
	return h.sum
}

type fnv struct{ sum uint64 }

func (h *fnv) u64(v uint64) {
	for range 8 {
		h.sum ^= v & 0xff
		h.sum *= 1099511628211
		v >>= 8
	}
}

func (h *fnv) f64(x float64) { h.u64(math.Float64bits(x)) }
func (h *fnv) vec(v r2.Vec)  { h.f64(v.X); h.f64(v.Y) }
