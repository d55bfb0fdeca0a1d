package systems_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ai/steer"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// newAvoidCrowd is newCrowd's guard-like crowd with ORCA instead of
// separation (the Avoider bundle), and its frame's systems with ORCA between
// Steer and Movement.
func newAvoidCrowd(tb testing.TB, n int, seed uint64, workers int) (*crowd, *systems.ORCA, []ecs.System) {
	tb.Helper()
	g := fixtureMap(n, seed)
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, g)
	tree, err := fighterTree()
	require.NoError(tb, err)
	c := &crowd{World: w, Grid: g,
		Clock:      ecs.NewClockSystem(1.0 / 60),
		Spatial:    &systems.Spatial{},
		Perception: &systems.Perception{Workers: workers},
		Decision:   &systems.Decision{Workers: workers},
		PathQueue:  &systems.PathQueue{},
		Combat:     &systems.Combat{},
		PathFollow: &systems.PathFollow{Workers: workers},
		Steer:      &systems.Steer{Workers: workers},
		Movement:   &systems.Movement{Workers: workers},
		Respawn:    &respawn{grid: g},
	}
	for team := range c.Respawn.spawners {
		sp, err := systems.NewSpawner(w,
			systems.Mover{Motion: systems.Motion{MaxSpeed: 3, MaxForce: 12}},
			systems.Avoider{},
			systems.Thinker{Tree: tree},
			systems.Combatant{Team: uint8(team), Damage: 25},
			systems.With(components.LOD{}))
		require.NoError(tb, err)
		c.Respawn.spawners[team] = sp
	}
	r := steer.NewRand(seed)
	for i := range n {
		sp := c.Respawn.spawners[boolInt(i%4 == 3)]
		sp.Seed = r.Uint64()
		sp.Spawn(openCell(g, &r), nil)
	}
	o := &systems.ORCA{Workers: workers}
	return c, o, []ecs.System{c.Clock, c.Spatial, c.Perception, c.Decision, c.PathQueue, c.Combat, c.Respawn, c.Steer, o, c.Movement}
}

// BenchmarkAvoidance times local avoidance per agent on the guard-like crowd
// (2 workers on this machine): "orca" is the ORCA system alone (the Avoider
// bundle's defaults: 10 neighbours within 5 cells, horizons 2 s and 1 s),
// "separation" the Steer system of the same crowd with separation instead
// (Steer's whole job, separation included: the force it replaces).
func BenchmarkAvoidance(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(fmt.Sprintf("orca/agents=%d", n), func(b *testing.B) {
			c, o, sys := newAvoidCrowd(b, n, 1, 0)
			s := ecs.NewScheduler(sys...)
			s.Initialize(c.World)
			defer s.Finalize(c.World)
			s.Run(c.World, 120)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				c.Clock.Update(c.World)
				o.Update(c.World)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/agent")
		})
		b.Run(fmt.Sprintf("separation/agents=%d", n), func(b *testing.B) {
			c, s := warmGuards(b, n, 120)
			defer s.Finalize(c.World)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				c.Clock.Update(c.World)
				c.Steer.Update(c.World)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/agent")
		})
	}
}
