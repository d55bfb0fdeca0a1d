package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// firstUtilityReport runs Example_firstUtility's workers for 30 s with the
// given policy and rest Range and returns Diagnose's line.
func firstUtilityReport(t *testing.T, policy utility.Policy, tired utility.Range) string {
	t.Helper()
	world := arche.NewWorld()
	stamina := utility.Fact(func(a *systems.Agent) float64 { return systems.Get[Stamina](a).Value })
	work := utility.Action{Name: "work", Weight: 0.5, Act: func(x any) {
		a := systems.UtilityAgent(x)
		s := systems.Get[Stamina](a)
		s.Value = max(s.Value-4*a.DT, 0)
	}}
	rest := utility.Action{Name: "rest",
		Considerations: []utility.Consideration{{Name: "tired", Input: stamina, Range: tired, Curve: utility.Quadratic()}},
		Act: func(x any) {
			a := systems.UtilityAgent(x)
			s := systems.Get[Stamina](a)
			s.Value = min(s.Value+10*a.DT, 100)
		}}
	r, err := utility.New("worker", policy, work, rest)
	require.NoError(t, err)
	workers, err := systems.NewSpawner(&world, systems.Thinker{Reasoner: r}, systems.With(Stamina{}))
	require.NoError(t, err)
	start := []float64{100, 70, 40, 10}
	workers.SpawnBatch(len(start), func(k int, a *systems.Spawned) { systems.Component[Stamina](a).Value = start[k] })
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Utility{})
	require.NoError(t, s.InitializeChecked(&world))
	s.Run(&world, 1800)
	defer s.Finalize(&world)
	return systems.Diagnose(&world).String()
}

// TestFirstUtilityNeedsItsRangeAndHysteresis: the README's utility program
// says its Range and hysteresis are what keep Diagnose quiet; without the
// hysteresis the workers flip-flop between work and rest at the crossing, and
// without the Range the raw 0–100 stamina is clamped (and rest never wins).
func TestFirstUtilityNeedsItsRangeAndHysteresis(t *testing.T) {
	tired := utility.Range{Min: 100, Max: 0}
	require.Equal(t, "diagnostics: 4 agents, no misconfiguration",
		firstUtilityReport(t, utility.Policy{}.WithHysteresis(0.15), tired))
	require.Contains(t, firstUtilityReport(t, utility.Policy{}, tired), "utility_flip_flop")
	require.Contains(t, firstUtilityReport(t, utility.Policy{}.WithHysteresis(0.15), utility.Range{}),
		"utility_input_out_of_range")
}
