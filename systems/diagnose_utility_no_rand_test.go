package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A reasoner with a random policy (Softmax, TopN) on an agent without a Rand picks
// like Argmax, as documented: the designer's weighted random choice never happens (of
// two actions scoring 0.5 and 0.45 under Softmax(0.1), 100 thinks chose the first 100
// times instead of about 62), and Diagnose said nothing, while a Wanderer without a
// Rand is wander_no_rand. Such agents are counted under utility_no_rand now; an
// Argmax reasoner needs no Rand and is not counted.
func TestDiagnoseReportsARandomPolicyWithoutARand(t *testing.T) {
	for _, c := range []struct {
		name   string
		policy utility.Policy
		noRand bool
		want   int
	}{
		{"Softmax without a Rand", utility.SoftmaxPolicy(0.1), true, 1},
		{"TopN without a Rand", utility.TopNPolicy(2), true, 1},
		{"Softmax with a Rand", utility.SoftmaxPolicy(0.1), false, 0},
		{"Argmax without a Rand", utility.Policy{}, true, 0},
		{"Softmax at temperature 0 (Argmax) without a Rand", utility.SoftmaxPolicy(0), true, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			arche.AddResource(w, grid.New(8, 8))
			r, err := utility.New("villager", c.policy,
				utility.Action{Name: "Work", Considerations: []utility.Consideration{{Name: "duty", Input: func(any) float64 { return 0.5 }}}},
				utility.Action{Name: "Rest", Considerations: []utility.Consideration{{Name: "tired", Input: func(any) float64 { return 0.45 }}}})
			require.NoError(t, err)
			sp, err := systems.NewSpawner(w, systems.Thinker{Reasoner: r, Interval: 1.0 / 60})
			require.NoError(t, err)
			e := sp.Spawn(r2.Vec{X: 1.5, Y: 1.5}, nil)
			if c.noRand {
				w.Remove(e, arche.ComponentID[components.Rand](w))
			}
			s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Utility{})
			require.NoError(t, s.InitializeChecked(w))
			defer s.Finalize(w)
			for range 3 {
				s.Update(w)
			}
			rep := systems.Diagnose(w)
			assert.Equal(t, c.want, rep.Counts[systems.CauseUtilityNoRand], rep.String())
			assert.Equal(t, c.want, rep.Total(), rep.String())
			if c.want > 0 {
				assert.Equal(t, "utility_no_rand", systems.CauseUtilityNoRand.String())
				assert.Equal(t, e, rep.Examples[systems.CauseUtilityNoRand])
				assert.Contains(t, rep.String(), `reasoner "villager" has a `+c.policy.Kind.String()+` policy`)
			}
			d := &systems.Diagnostics{}
			d.Initialize(w)
			d.Check(w)
			assert.Zero(t, testing.AllocsPerRun(10, func() { d.Check(w) }), "a check allocates nothing")
			assert.Equal(t, c.want, d.Report.Counts[systems.CauseUtilityNoRand])
		})
	}
}
