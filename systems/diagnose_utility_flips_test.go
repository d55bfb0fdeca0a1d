package systems_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ai/utility"
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

// TestDiagnoseReportsAUtilityChoiceThatFlipFlops: two actions whose scores cross and
// cross again at every think (Work 0.5 against Eat 0.48, 0.52, 0.48, ...) make the
// zero Policy's choice go back and forth. Before, Diagnose said nothing (a state
// machine doing the same is state_reentered); now the agents are counted under
// utility_flip_flop, the note naming both actions and Policy.Hysteresis. With a
// hysteresis of 0.15 the choice holds and nothing is reported.
func TestDiagnoseReportsAUtilityChoiceThatFlipFlops(t *testing.T) {
	for _, c := range []struct {
		name   string
		policy utility.Policy
		want   int
	}{
		{"zero Policy", utility.Policy{}, 3},
		{"hysteresis 0.15", utility.Policy{}.WithHysteresis(0.15), 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			arche.AddResource(w, grid.New(8, 8))
			hunger := 0.48
			r, err := utility.New("villager", c.policy,
				utility.Action{Name: "Work", Considerations: []utility.Consideration{{Name: "duty", Input: func(any) float64 { return 0.5 }}}},
				utility.Action{Name: "Eat", Considerations: []utility.Consideration{{Name: "hunger", Input: func(any) float64 { return hunger }}}})
			require.NoError(t, err)
			sp, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r, Interval: 1.0 / 60})
			require.NoError(t, err)
			for i := range 3 {
				sp.Spawn(r2.Vec{X: 1.5 + float64(i), Y: 1.5}, nil)
			}
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Utility{})
			require.NoError(t, s.InitializeChecked(w))
			defer s.Finalize(w)
			for f := range 60 {
				hunger = 0.48 + 0.04*float64(f%2)
				s.Update(w)
			}
			rep := systems.Diagnose(w)
			assert.Equal(t, c.want, rep.Counts[systems.CauseUtilityFlipFlop], rep.String())
			assert.Equal(t, c.want, rep.Total(), rep.String())
			if c.want == 0 {
				return
			}
			assert.Equal(t, "utility_flip_flop", systems.CauseUtilityFlipFlop.String())
			msg := rep.String()
			for _, want := range []string{`"Work"`, `"Eat"`, "Policy.Hysteresis 0", "WithHysteresis(0.15)"} {
				assert.Contains(t, msg, want)
			}
			brains := generic.NewMap[components.UtilityBrain](w)
			st := brains.Get(rep.Examples[systems.CauseUtilityFlipFlop]).State
			assert.Positive(t, st.FlipFlops)
		})
	}
}

// TestFlipFlopNoteUnderAHysteresisSaysWhatHelps: a defender whose Shoot action scores 2
// while a foe is in range and 0 (a veto) otherwise, against a constant Guard of 0.3,
// flip-flops while a foe walks in and out of range, under Policy.Hysteresis 0.15. The
// note used to tell it to "give the reasoner a hysteresis (WithHysteresis(0.15))", the
// setting it already had; no hysteresis holds a vetoed choice. Now, with a hysteresis
// set, the note says it is not enough, to raise it, and that a consideration jumping
// between 0 and 1 at a threshold wants a graded curve or a margin; and the count reads
// "1 flip-flop", not "1 flip-flops".
func TestFlipFlopNoteUnderAHysteresisSaysWhatHelps(t *testing.T) {
	for _, frames := range []int{6, 60} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, grid.New(8, 8))
		inRange := 1.0
		r, err := utility.New("defender", utility.Policy{}.WithHysteresis(0.15),
			utility.Action{Name: "Shoot", Weight: 2, Considerations: []utility.Consideration{{Name: "in range", Input: func(any) float64 { return inRange }}}},
			utility.Action{Name: "Guard", Weight: 0.3})
		require.NoError(t, err)
		sp, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r, Interval: 1.0 / 60})
		require.NoError(t, err)
		sp.Spawn(r2.Vec{X: 1.5, Y: 1.5}, nil)
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Utility{})
		require.NoError(t, s.InitializeChecked(w))
		for f := range frames {
			inRange = float64(f % 2)
			s.Update(w)
		}
		rep := systems.Diagnose(w)
		s.Finalize(w)
		require.Equal(t, 1, rep.Counts[systems.CauseUtilityFlipFlop], rep.String())
		brains := generic.NewMap[components.UtilityBrain](w)
		n := brains.Get(rep.Examples[systems.CauseUtilityFlipFlop]).State.FlipFlops
		msg := rep.String()
		assert.Contains(t, msg, "Policy.Hysteresis 0.15")
		assert.NotContains(t, msg, "give the reasoner a hysteresis", "it has one")
		assert.Contains(t, msg, "raise")
		assert.Contains(t, msg, "between 0 and 1")
		if n == 1 {
			assert.Contains(t, msg, "(1 flip-flop, ")
		} else {
			assert.Contains(t, msg, fmt.Sprintf("(%d flip-flops, ", n))
		}
	}
}
