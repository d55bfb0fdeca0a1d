package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// warmGuards returns the guard-like crowd fixture of n agents (see newCrowd) after
// warm frames, with its scheduler, so buffers have grown to their steady-state size.
func warmGuards(tb testing.TB, n, warm int) (*crowd, *ecs.Scheduler) {
	tb.Helper()
	sc := newCrowd(tb, n, 1, 0, false)
	s := ecs.NewScheduler(sc.systems()...)
	s.Initialize(sc.World)
	s.Run(sc.World, warm)
	return sc, s
}

// TestSteadyStateAllocatesNothing: once warm, a frame of the decision,
// steering and movement systems (and spatial and perception) allocates nothing.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	sc, _ := warmGuards(t, 2000, 300)
	for _, sys := range []ecs.System{sc.Spatial, sc.Perception, sc.Decision, sc.PathFollow, sc.Steer, sc.Movement} {
		allocs := testing.AllocsPerRun(30, func() {
			sc.Clock.Update(sc.World)
			sys.Update(sc.World)
		})
		require.Zero(t, allocs, "%s allocates in steady state", ecs.SystemName(sys))
	}
	// whole frames too, deaths and replacements included (they recycle buffers)
	whole, sched := warmGuards(t, 2000, 300)
	down := whole.Respawn.Replaced
	allocs := testing.AllocsPerRun(60, func() { sched.Update(whole.World) })
	assert.Zero(t, allocs, "a whole frame allocates in steady state")
	assert.Greater(t, whole.Respawn.Replaced, down, "agents died and were replaced meanwhile")
}

func benchSystem(b *testing.B, pick func(*crowd) ecs.System) {
	const n = 10000
	sc, _ := warmGuards(b, n, 120)
	sys := pick(sc)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		sc.Clock.Update(sc.World)
		sys.Update(sc.World)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/agent")
}

func BenchmarkSpatial(b *testing.B) {
	benchSystem(b, func(s *crowd) ecs.System { return s.Spatial })
}

// BenchmarkPerception reports ns per perceiving agent: without the decision
// system moving Think.Next on, every agent is due every frame, so the figure
// per agent in the crowd is this one times the share of agents due per frame
// (1/6 at 10 Hz and 60 frames/s).
func BenchmarkPerception(b *testing.B) {
	sc, _ := warmGuards(b, 10000, 120)
	b.ReportAllocs()
	b.ResetTimer()
	checked := 0
	for b.Loop() {
		sc.Clock.Update(sc.World)
		sc.Perception.Update(sc.World)
		checked += sc.Perception.Checked
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(checked), "ns/perceive")
}
func BenchmarkDecision(b *testing.B) {
	benchSystem(b, func(s *crowd) ecs.System { return s.Decision })
}
func BenchmarkPathFollow(b *testing.B) {
	benchSystem(b, func(s *crowd) ecs.System { return s.PathFollow })
}
func BenchmarkSteer(b *testing.B) {
	benchSystem(b, func(s *crowd) ecs.System { return s.Steer })
}
func BenchmarkMovement(b *testing.B) {
	benchSystem(b, func(s *crowd) ecs.System { return s.Movement })
}

// BenchmarkFrame runs whole frames of the guard-like crowd.
func BenchmarkFrame(b *testing.B) {
	const n = 10000
	sc, s := warmGuards(b, n, 120)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Update(sc.World)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/agent")
}

// TestSpatialOrderChangesNothing: visiting agents in spatial order (as large
// crowds do) gives exactly the state of visiting them in storage order.
func TestSpatialOrderChangesNothing(t *testing.T) {
	run := func(min int) uint64 {
		old := systems.SetSpatialOrderMin(min)
		defer systems.SetSpatialOrderMin(old)
		sc, _ := warmGuards(t, 1500, 200)
		return systems.StateHash(sc.World)
	}
	require.Equal(t, run(1<<30), run(0))
	swarm := func(min int) uint64 {
		old := systems.SetSpatialOrderMin(min)
		defer systems.SetSpatialOrderMin(old)
		sw := newSwarm(t, 1500, 2) // seed 2
		s := ecs.NewScheduler(sw.systems()...)
		s.Initialize(sw.World)
		defer s.Finalize(sw.World)
		s.Run(sw.World, 200)
		return systems.StateHash(sw.World)
	}
	require.Equal(t, swarm(1<<30), swarm(0), "the swarm (FlowFollowers) too")
}

func BenchmarkLOD(b *testing.B) {
	const n = 10000
	sc := newCrowd(b, n, 1, 0, true)
	s := ecs.NewScheduler(sc.systems()...)
	s.Initialize(sc.World)
	s.Run(sc.World, 60)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		sc.LOD.Update(sc.World)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/agent")
}

// BenchmarkFlowField times the flow-field system (field lookups, arrival,
// per-cell sampling) on a swarm whose fields are built.
func BenchmarkFlowField(b *testing.B) {
	const n = 10000
	sw := newSwarm(b, n, 1)
	s := ecs.NewScheduler(sw.systems()...)
	s.Initialize(sw.World)
	s.Run(sw.World, 120)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		sw.Clock.Update(sw.World)
		sw.Spatial.Update(sw.World)
		sw.Flow.Update(sw.World)
		sw.Movement.Update(sw.World) // agents change cells, so samples are taken
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/agent")
}

// BenchmarkSpawnBatch spawns guard-like agents (Mover, Thinker, Combatant) in batches
// of 10,000 into a fresh world; ns per agent.
func BenchmarkSpawnBatch(b *testing.B) {
	const n = 10000
	tree, err := fighterTree()
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		world := arche.NewWorld()
		sp, err := systems.NewSpawner(&world, systems.Mover{}, systems.Thinker{Tree: tree}, systems.Combatant{})
		require.NoError(b, err)
		sp.SpawnBatch(n, func(i int, a *systems.Spawned) { a.Position.Vec = r2.Vec{X: float64(i % 100), Y: float64(i / 100)} })
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/agent")
}
