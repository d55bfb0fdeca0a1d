package scenario

import (
	"math"

	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// staggerBlock is the most agents, consecutive in Arche's storage order,
// that share a think phase: 256 agents' Position, Think or Intent fill whole
// pages, so the hardware prefetcher streams a block's components.
const staggerBlock = 256

// staggerCycles is the fewest times the phases repeat over the storage order:
// each worker's contiguous range of the query then holds its share of every
// frame's thinkers.
const staggerCycles = 8

// staggerByStorage spreads the first thinks of the world's agents (spawned
// at time now, frames of dt seconds) over one think interval by blocks of
// storage order: block b (agents [B·b, B·b+B) in query order, B =
// min(staggerBlock, n/(8k)) for n agents, at least 1) thinks in phase b mod
// k of the interval's k = Interval/dt frames, at
// Think.Next = now + (phase + ½)/k · Interval.
//
// The spawner's own stagger (a fraction of the interval from each agent's
// Rand) spreads the thinkers of a frame over the whole storage, one agent in
// k: perception and decision then fetch each one's components (a dozen cache
// lines, from a dozen columns) from memory with little reuse. In blocks,
// about the same number of agents think each frame at the same rate, and a
// frame's thinkers are runs of neighbours in every column. It is a
// scheduling choice, as any stagger is: each agent still thinks every
// Interval.
func staggerByStorage(w *arche.World, now, dt float64) {
	f := generic.NewFilter1[components.Think]()
	q := f.Query(w)
	n := q.Count()
	for i := 0; q.Next(); i++ {
		th := q.Get()
		k := max(1, int(math.Round(th.Interval/dt)))
		block := max(1, min(staggerBlock, n/(staggerCycles*k)))
		phase := (i / block) % k
		th.Next = now + float64((float64(phase)+0.5)/float64(k)*th.Interval)
	}
}
