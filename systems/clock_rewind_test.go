package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A program that steps its own Clock and sets its Time back (a replay, a level restarted
// on the same world) must not leave its agents without a think until the clock catches up
// with the time they last thought at: an agent whose Think.Last is after the clock's Time
// thinks in that frame, and then every Interval from there. Before, a 10 Hz agent that
// had thought at 9.9 s did not think at all in the 10 s after the clock went back to 0.
func TestAgentsThinkAfterTheClockGoesBack(t *testing.T) {
	w := arche.NewWorld()
	arche.AddResource(&w, grid.New(16, 16))
	ticks := 0
	tree, err := bt.Compile("count", bt.Action("Count", func(*bt.Context) bt.Status { ticks++; return bt.Success }))
	require.NoError(t, err)
	sp, err := systems.NewSpawner(&w, systems.Thinker{Tree: tree})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
	s := ecs.NewScheduler(&systems.Decision{})
	clock := ecs.ClockOf(&w)
	clock.DT = 1.0 / 60
	s.Initialize(&w)
	defer s.Finalize(&w)
	run := func() int {
		ticks = 0
		for f := range 600 {
			clock.Time, clock.Frame = float64(f)/60, int64(f)
			s.Update(&w)
		}
		return ticks
	}
	assert.Equal(t, 100, run(), "10 s at 10 Hz")
	assert.Equal(t, 100, run(), "the next 10 s, the clock set back to 0")
	th := (*components.Think)(w.Get(e, arche.ComponentID[components.Think](&w)))
	assert.InDelta(t, 10.0, th.Next, 0.1+1e-9, "the next think is an Interval after the last, not 20 s")
}
