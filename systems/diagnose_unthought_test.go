package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Diagnose right after Initialize cannot see what the trees will ask (they have not
// thought): a tree sending its agents off the grid gets "no misconfiguration found"
// with a note saying so, counted in Report.Unthought, instead of a bare "no
// misconfiguration"; after the first frame the goal is reported and the note goes.
func TestDiagnoseBeforeTheFirstFrameSaysTheBrainsHaveNotThought(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(48, 48))
	tree, err := bt.Compile("off", bt.Action("GoOffTheGrid", func(c *bt.Context) bt.Status {
		in := systems.AgentOf(c).Intent
		in.Move, in.Goal = true, r2.Vec{X: 100.5, Y: 4.5}
		return bt.Running
	}))
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, nil)
	sp.Spawn(r2.Vec{X: 3.5, Y: 2.5}, nil)
	sp.Spawn(r2.Vec{X: 4.5, Y: 2.5}, nil) // two and three think in later frames (staggered)
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.Decision{},
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)

	r := systems.Diagnose(w)
	assert.Equal(t, 3, r.Unthought)
	assert.Equal(t, "diagnostics: 3 agents, no misconfiguration found (before the first frame: 3 brains have not "+
		"thought yet; add &systems.Diagnostics{} to the frame to check what they ask)", r.String())

	s.Run(w, 60)
	r = systems.Diagnose(w)
	assert.Zero(t, r.Unthought, "the clock started")
	assert.Equal(t, 3, r.Counts[systems.CauseGoalUnusable], "%s", r)
	assert.NotContains(t, r.String(), "before the first frame")
}

// A program that steps its ecs.Clock by hand (no ecs.ClockSystem in the schedule:
// clock.Time += clock.DT before each Update) never sets the clock's Started, and
// Diagnose told it, frame after frame, that its brains had "not thought yet"
// (Report.Unthought) while they had. Before the first Update the note is right and
// stays; once a decision system has run it goes, as with a ClockSystem.
func TestDiagnoseUnthoughtWithAClockSteppedByHand(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(48, 48))
	clock := ecs.ClockOf(w) // DT 1/60, stepped below without a ClockSystem
	thinks := 0
	tree, err := bt.Compile("walk", bt.Action("Walk", func(c *bt.Context) bt.Status {
		thinks++
		in := systems.AgentOf(c).Intent
		in.Move, in.Goal = true, r2.Vec{X: 20.5, Y: 4.5}
		return bt.Running
	}))
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Mover{}, systems.Thinker{Tree: tree})
	require.NoError(t, err)
	for i := 0; i < 3; i++ {
		sp.Spawn(r2.Vec{X: 2.5 + float64(i), Y: 2.5}, nil)
	}
	s := ecs.NewScheduler(&systems.Spatial{}, &systems.Decision{},
		&systems.PathQueue{}, &systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)
	require.Zero(t, ecs.LiveClockSystems(w))

	r := systems.Diagnose(w)
	assert.Equal(t, 3, r.Unthought, "before the first Update the brains have not thought")
	assert.Contains(t, r.String(), "before the first frame: 3 brains have not thought yet")

	for range 60 {
		s.Update(w)
		clock.Time += clock.DT
		clock.Frame++
	}
	require.False(t, clock.Started, "stepped by hand: never started")
	require.Positive(t, thinks)
	r = systems.Diagnose(w)
	assert.Zero(t, r.Unthought, "the brains have thought: %s", r)
	assert.Equal(t, "diagnostics: 3 agents, no misconfiguration", r.String())
}
