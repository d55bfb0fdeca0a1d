package systems_test

import (
	"io"
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A newcomer added &systems.LOD{Points: ...} to the frame and spawned the agents with
// the README's bundles only: no bundle adds a components.LOD, the system serves only
// agents with one, so it did nothing (LOD.Counts [0 0 0], every agent at 10 Hz however
// far) and Diagnose said "no misconfiguration". It counts each thinking agent as
// no_lod_component, naming the fix; with systems.With(components.LOD{}) the levels are
// set and nothing is counted; a mix (some agents opt out) is not counted, nor a LOD
// system finalized.
func TestDiagnoseReportsALODSystemWithNoAgentToServe(t *testing.T) {
	tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	run := func(t *testing.T, withLOD []bool) (*arche.World, *systems.LOD, *systems.Diagnostics, *ecs.Scheduler) {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(64, 64))
		plain, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree})
		require.NoError(t, err)
		lodded, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree}, systems.With(components.LOD{}))
		require.NoError(t, err)
		for i, l := range withLOD {
			sp := plain
			if l {
				sp = lodded
			}
			sp.Spawn(r2.Vec{X: 2.5 + 12*float64(i), Y: 2.5}, nil)
		}
		lod := &systems.LOD{Points: []r2.Vec{{X: 2, Y: 2}}, Levels: []systems.LODLevel{{Distance: 10, Interval: 0.1}, {Distance: 20, Interval: 0.5}}}
		diag := &systems.Diagnostics{Every: 30, Out: io.Discard}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), lod, &systems.Spatial{Workers: 1}, &systems.Decision{},
			&systems.PathQueue{}, &systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1}, &systems.Movement{Workers: 1}, diag)
		require.NoError(t, s.InitializeChecked(w))
		s.Run(w, 60)
		return w, lod, diag, s
	}

	w, lod, diag, s := run(t, []bool{false, false, false})
	assert.Equal(t, []int{0, 0, 0}, lod.Counts, "the LOD system served nobody")
	r := systems.Diagnose(w)
	assert.Equal(t, 3, r.Counts[systems.CauseNoLODComponent], "%s", r)
	assert.Equal(t, 3, r.Total(), "%s", r)
	assert.Contains(t, r.String(), "no_lod_component 3 (e.g. entity 1, a LOD system runs but no thinking agent has a "+
		"components.LOD, so it sets no level: spawn the agents it should slow down or freeze with "+
		"systems.With(components.LOD{})", "%s", r)
	assert.Equal(t, 3, diag.Report.Counts[systems.CauseNoLODComponent], "the Diagnostics system too: %s", diag.Report)
	assert.Zero(t, testing.AllocsPerRun(10, func() { diag.Check(w) }), "the check allocates nothing")
	s.Finalize(w)
	r = systems.Diagnose(w)
	assert.Zero(t, r.Counts[systems.CauseNoLODComponent], "no LOD system runs any more: %s", r)

	for _, c := range []struct {
		name    string
		withLOD []bool
		counts  []int
	}{
		{"every agent with a LOD", []bool{true, true, true}, []int{1, 1, 1}},
		{"a mix: the agent without a LOD opts out", []bool{true, false, true}, []int{1, 0, 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, lod, diag, s := run(t, c.withLOD)
			defer s.Finalize(w)
			assert.Equal(t, c.counts, lod.Counts)
			r := systems.Diagnose(w)
			assert.Zero(t, r.Total(), "%s", r)
			assert.Zero(t, diag.Report.Total(), "%s", diag.Report)
		})
	}
}

// The LOD system serves agents with a Position, a Think and a LOD. An entity with a
// LOD and a Think but no Position (a headless thinker, a half-built agent) is served
// by nobody, yet it made Diagnose believe some agent used the LOD system: a crowd
// without any LOD was reported healthy. Agents spawned before their LOD crowd are
// counted until it comes, and counted again once it has all gone.
func TestDiagnoseNoLODComponentNotHiddenByAnAgentWithoutPosition(t *testing.T) {
	tree, err := bt.Compile("idle", bt.Action("idle", func(*bt.Context) bt.Status { return bt.Running }))
	require.NoError(t, err)
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(64, 64))
	plain, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree})
	require.NoError(t, err)
	lodded, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree}, systems.With(components.LOD{}))
	require.NoError(t, err)
	lod := &systems.LOD{Points: []r2.Vec{{X: 2, Y: 2}}}
	diag := &systems.Diagnostics{Every: 30, Out: io.Discard}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), lod, &systems.Spatial{Workers: 1}, &systems.Decision{},
		&systems.PathQueue{}, &systems.PathFollow{Workers: 1}, &systems.Steer{Workers: 1}, &systems.Movement{Workers: 1}, diag)
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)

	a := plain.Spawn(r2.Vec{X: 2.5, Y: 2.5}, nil)
	s.Run(w, 60)
	assert.Equal(t, 1, systems.Diagnose(w).Counts[systems.CauseNoLODComponent], "before the LOD crowd")
	l := lodded.Spawn(r2.Vec{X: 5.5, Y: 2.5}, nil)
	s.Run(w, 60)
	r := systems.Diagnose(w)
	assert.Zero(t, r.Total(), "the mix is the opt-out: %s", r)
	w.RemoveEntity(l)
	s.Run(w, 60)
	r = systems.Diagnose(w)
	assert.Equal(t, 1, r.Counts[systems.CauseNoLODComponent], "the LOD crowd gone: %s", r)
	assert.Equal(t, a, r.Examples[systems.CauseNoLODComponent])

	headless := generic.NewMap2[components.Think, components.LOD](w)
	headless.NewWith(&components.Think{}, &components.LOD{})
	s.Run(w, 60)
	assert.Equal(t, []int{0, 0, 0}, lod.Counts, "the LOD system serves nobody")
	r = systems.Diagnose(w)
	assert.Equal(t, 1, r.Counts[systems.CauseNoLODComponent], "a LOD without a Position hides it: %s", r)
	assert.Equal(t, 1, diag.Report.Counts[systems.CauseNoLODComponent], "the Diagnostics system too: %s", diag.Report)
}
