package systems

import (
	"math/rand/v2"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestLODWorkersChangeNothing: LOD over 1 and 3 workers leaves every agent's
// LOD, Think and Path priority and the Counts the same, on 6,000 agents in two
// archetypes (with and without a Path; thawing, slowing, speeding up and
// freezing) among 50 focus points that move each frame, and its Update
// allocates nothing once warm.
func TestLODWorkersChangeNothing(t *testing.T) {
	type state struct {
		lods   []components.LOD
		thinks []components.Think
		prios  []int8
		counts [][]int
	}
	run := func(workers int) state {
		world := arche.NewWorld()
		w := &world
		rng := rand.New(rand.NewPCG(3, 9))
		withPath := generic.NewMap4[components.Position, components.Think, components.LOD, components.Path](w)
		without := generic.NewMap3[components.Position, components.Think, components.LOD](w)
		var es []arche.Entity
		for i := range 6000 {
			var e arche.Entity
			if i%3 == 0 {
				e = without.New()
			} else {
				e = withPath.New()
			}
			p := (*components.Position)(w.Get(e, arche.ComponentID[components.Position](w)))
			th := (*components.Think)(w.Get(e, arche.ComponentID[components.Think](w)))
			p.Vec = r2.Vec{X: 512 * rng.Float64(), Y: 512 * rng.Float64()}
			*th = components.Think{Interval: []float64{0, 0.1, 0.5, 2}[rng.IntN(4)], Next: rng.Float64(), Frozen: rng.IntN(5) == 0}
			es = append(es, e)
		}
		lod := &LOD{Workers: workers}
		for range 50 {
			lod.Points = append(lod.Points, r2.Vec{X: 512 * rng.Float64(), Y: 512 * rng.Float64()})
		}
		clock := ecs.NewClockSystem(1.0 / 60)
		clock.Initialize(w)
		lod.Initialize(w)
		defer lod.Finalize(w)
		var st state
		for range 20 {
			clock.Update(w)
			for i := range lod.Points {
				lod.Points[i].X += 30 * (rng.Float64() - 0.5)
			}
			lod.Update(w)
			st.counts = append(st.counts, append([]int(nil), lod.Counts...))
		}
		for _, e := range es {
			st.lods = append(st.lods, *(*components.LOD)(w.Get(e, arche.ComponentID[components.LOD](w))))
			st.thinks = append(st.thinks, *(*components.Think)(w.Get(e, arche.ComponentID[components.Think](w))))
			if w.Has(e, arche.ComponentID[components.Path](w)) {
				st.prios = append(st.prios, (*components.Path)(w.Get(e, arche.ComponentID[components.Path](w))).Priority)
			}
		}
		clock.Update(w)
		require.Zero(t, testing.AllocsPerRun(20, func() { lod.Update(w) }), "LOD.Update allocates")
		return st
	}
	one, three := run(1), run(3)
	require.Equal(t, one.counts, three.counts)
	require.Equal(t, one.lods, three.lods)
	require.Equal(t, one.thinks, three.thinks)
	require.Equal(t, one.prios, three.prios)
	last := one.counts[len(one.counts)-1]
	require.Equal(t, 6000, last[0]+last[1]+last[2])
	require.Greater(t, last[2], 0, "some frozen")
	require.Greater(t, last[1], 0, "some at the second level")
}
