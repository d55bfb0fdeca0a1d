package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A goal of the same priority as the running plan's but declared before it is one
// goap.Planner.PlanBest tries first (goals of one priority in the order declared): an
// Eat of priority 1 that can never be planned (a misspelt fact) declared before Work of
// priority 1 is passed over for Work for good, as one of priority 10 is, and is counted
// (planner_domain_error). Declared after Work, it is not tried before Work: not counted.
func TestDiagnoseCountsAGOAPAgentBusyBesideAnEarlierGoalOfItsPriority(t *testing.T) {
	for _, tc := range []struct {
		name     string
		eatFirst bool
		counted  bool
	}{
		{"Eat declared first", true, true},
		{"Eat declared after", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := goap.NewBuilder("colonist")
			hungry, atFood, delivered := b.Fact("hungry"), b.Fact("atFood"), b.Fact("delivered")
			atFod := b.Fact("atFod")
			b.Action(goap.Action{Name: "GoToFood", Cost: 1, Effects: []goap.Effect{{Fact: atFood, Value: 1}},
				Run: func(*goap.Context) goap.Status { return goap.Running }})
			b.Action(goap.Action{Name: "Eat", Cost: 1, Pre: []goap.Cond{{Fact: atFod, Op: goap.Eq, Value: 1}},
				Effects: []goap.Effect{{Fact: hungry, Value: 0}}})
			b.Action(goap.Action{Name: "Deliver", Cost: 1, Effects: []goap.Effect{{Fact: delivered, Value: 1}},
				Run: func(*goap.Context) goap.Status { return goap.Running }})
			eat := goap.Goal{Name: "Eat", Priority: 1, Want: []goap.Cond{{Fact: hungry, Op: goap.Eq, Value: 0}}}
			work := goap.Goal{Name: "Work", Priority: 1, Want: []goap.Cond{{Fact: delivered, Op: goap.Eq, Value: 1}}}
			if tc.eatFirst {
				b.Goal(eat)
				b.Goal(work)
			} else {
				b.Goal(work)
				b.Goal(eat)
			}
			d, err := b.Build()
			require.NoError(t, err)
			reg := &goap.Registry{}
			id, err := reg.Add(d)
			require.NoError(t, err)
			world := arche.NewWorld()
			w := &world
			arche.AddResource(w, reg)
			var start goap.State
			start[hungry] = 1
			sp, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: reg, Domain: id, State: start})
			require.NoError(t, err)
			sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
			s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.GOAP{})
			require.NoError(t, s.InitializeChecked(w))
			defer s.Finalize(w)
			s.Run(w, 10)
			r := systems.Diagnose(w)
			if !tc.counted {
				assert.Zero(t, r.Counts[systems.CausePlannerDomainError], "%s", r)
				return
			}
			assert.Equal(t, 1, r.Counts[systems.CausePlannerDomainError], "%s", r)
			assert.Contains(t, r.String(), `it carries out a plan for goal "Work" while goal "Eat", of the same priority and declared before it (PlanBest tries it first), has no plan `+
				`from its GOAPPlanner.State: goal "Eat" needs hungry == 0; Eat could make that true but needs atFod == 1`)
		})
	}
}
