package systems_test

import (
	"bytes"
	"testing"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// towerWorld is n defenders thinking at the default 10 Hz on a 60 Hz clock, whose Shoot
// scores 2 while *inRange and 0 (a veto) otherwise, against Guard 0.3, under
// hysteresis 0.15, with a Diagnostics system checking every second into out.
func towerWorld(t *testing.T, n int, inRange *bool, out *bytes.Buffer) (*arche.World, *ecs.Scheduler) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(32, 8))
	r, err := utility.New("defender", utility.Policy{}.WithHysteresis(0.15),
		utility.Action{Name: "Shoot", Weight: 2, Considerations: []utility.Consideration{{Name: "target in range", Input: func(any) float64 {
			if *inRange {
				return 1
			}
			return 0
		}}}},
		utility.Action{Name: "Guard", Weight: 0.3})
	require.NoError(t, err)
	sp, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r})
	require.NoError(t, err)
	for i := range n {
		sp.Spawn(r2.Vec{X: 1.5 + float64(i), Y: 1.5}, nil)
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Utility{}, &systems.Diagnostics{Every: 60, Out: out})
	require.NoError(t, s.InitializeChecked(w))
	t.Cleanup(func() { s.Finalize(w) })
	return w, s
}

// TestUtilityFlipFlopIsNotGameplay: 14 tower defenders (10 Hz thinks) each shoot a
// target for 1 s, kill it, guard 0.5 s and shoot the next: Shoot and Guard in turn
// every 1.5 s, for 60 s. Each change went back within 10 decisions, so every
// defender was counted under utility_flip_flop (the tower defence's "14 of them
// misconfigured") and stayed counted. Five changes span 3 s, beyond
// utility.FlipWindow (2 s): none is counted, and the periodic Diagnostics line never
// names the cause.
func TestUtilityFlipFlopIsNotGameplay(t *testing.T) {
	var inRange bool
	var out bytes.Buffer
	w, s := towerWorld(t, 14, &inRange, &out)
	for f := range 60 * 60 {
		inRange = f%90 < 60
		s.Update(w)
		if f%60 == 59 {
			rep := systems.Diagnose(w)
			require.Zero(t, rep.Counts[systems.CauseUtilityFlipFlop], "at %d s: %s", (f+1)/60, rep.String())
		}
	}
	assert.NotContains(t, out.String(), "utility_flip_flop")
}

// TestUtilityFlipFlopClearsWhenStable: the same defenders with a target hovering at
// the edge of their range (in, out, in, ... at every think: no hysteresis holds a
// vetoed choice) flip-flop, and are counted, for the 3 s it lasts. Once the target
// stays in range they are stable; utility.FlipWindow (2 s) after their last
// flip-flop they are no longer counted. Before, State.FlipFlops > 0 counted them
// until respawned. The decision path allocates nothing meanwhile.
func TestUtilityFlipFlopClearsWhenStable(t *testing.T) {
	var inRange bool
	var out bytes.Buffer
	w, s := towerWorld(t, 14, &inRange, &out)
	for f := range 3 * 60 {
		inRange = f%12 < 6 // a change every think (0.1 s)
		s.Update(w)
	}
	rep := systems.Diagnose(w)
	assert.Equal(t, 14, rep.Counts[systems.CauseUtilityFlipFlop], rep.String())
	assert.Contains(t, out.String(), "utility_flip_flop")

	inRange = true
	for range 60 + 50 { // 1.83 s stable: still within the window
		s.Update(w)
	}
	rep = systems.Diagnose(w)
	assert.Equal(t, 14, rep.Counts[systems.CauseUtilityFlipFlop], "within FlipWindow of the last flip-flop: %s", rep.String())
	s.Run(w, 20) // 2.17 s
	rep = systems.Diagnose(w)
	assert.Zero(t, rep.Counts[systems.CauseUtilityFlipFlop], "stable for FlipWindow: %s", rep.String())
	assert.Zero(t, rep.Total(), rep.String())

	n := 0
	assert.Zero(t, testing.AllocsPerRun(120, func() {
		n++
		inRange = n%12 < 6 // flip-flopping again: the counting allocates nothing
		s.Update(w)
	}))
	assert.Equal(t, 14, systems.Diagnose(w).Counts[systems.CauseUtilityFlipFlop])
}
