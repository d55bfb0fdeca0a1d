package systems_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// diagnoseOneGOAP spawns one GOAP agent of domain d from start, runs 10 thinks and
// returns Diagnose's report.
func diagnoseOneGOAP(t *testing.T, d *goap.Domain, start goap.State, budget int) systems.Report {
	t.Helper()
	reg := &goap.Registry{}
	id, err := reg.Add(d)
	require.NoError(t, err)
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, reg)
	sp, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: reg, Domain: id, State: start})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.GOAP{NodeBudget: budget})
	require.NoError(t, s.InitializeChecked(w))
	defer s.Finalize(w)
	s.Run(w, 10)
	return systems.Diagnose(w)
}

// A goal whose search ends in plain goap.ErrNoPlan on every planning (the check before
// the search lets it through: Craft adds to planks, but only while there is none, and
// the goal wants planks >= 2) was not counted: the agent worked on a lower goal, or
// idled, with no finding. It is counted (planner_domain_error) with
// goap.Domain.WhyNeverReached's note, busy below it or idle; not when a fact the goal
// depends on is sensed (Craft needs atBench, which perception may change).
func TestDiagnoseCountsAGOAPGoalNeverReached(t *testing.T) {
	const never = `goal "Stock" is never reached: planks >= 2 holds in none of the 2 states the actions reach from the ` +
		`state (planks is 0), and no fact the goal depends on (planks) is sensed`
	forever := func(*goap.Context) goap.Status { return goap.Running }
	for _, tc := range []struct {
		name          string
		busy, sensed  bool
		counted, note string
	}{
		{"busy", true, false, "counted", `it carries out a plan for goal "Work" while goal "Stock", of higher priority, has ` +
			`no plan from its GOAPPlanner.State: ` + never},
		{"idle", false, false, "counted", `it idles, no plan exists from its GOAPPlanner.State: ` + never},
		{"busy, sensed", true, true, "", ""},
		{"idle, sensed", false, true, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := goap.NewBuilder("stock")
			planks, atBench, delivered := b.Fact("planks"), b.Fact("atBench"), b.Fact("delivered")
			pre := []goap.Cond{{Fact: planks, Op: goap.Eq, Value: 0}}
			if tc.sensed {
				pre = append(pre, goap.Cond{Fact: atBench, Op: goap.Eq, Value: 0})
				b.Sensed(atBench)
			}
			b.Action(goap.Action{Name: "Craft", Cost: 1, Pre: pre, Effects: []goap.Effect{{Fact: planks, Value: 1, Add: true}}})
			b.Goal(goap.Goal{Name: "Stock", Priority: 10, Want: []goap.Cond{{Fact: planks, Op: goap.Ge, Value: 2}}})
			if tc.busy {
				b.Action(goap.Action{Name: "Deliver", Cost: 1, Effects: []goap.Effect{{Fact: delivered, Value: 1}}, Run: forever})
				b.Goal(goap.Goal{Name: "Work", Priority: 1, Want: []goap.Cond{{Fact: delivered, Op: goap.Eq, Value: 1}}})
			}
			d, err := b.Build()
			require.NoError(t, err)
			r := diagnoseOneGOAP(t, d, goap.State{}, 0)
			if tc.counted == "" {
				assert.Zero(t, r.Counts[systems.CausePlannerDomainError], "%s", r)
				return
			}
			assert.Equal(t, 1, r.Counts[systems.CausePlannerDomainError], "%s", r)
			assert.Contains(t, r.String(), tc.note)
		})
	}
}

// spyDomain's goal Ambush (armed and hidden) is never reached: Draw, which needs n
// flags set first, puts the disguise away; Hide drops the weapon. The actions reach
// 2·(2^n − 1) + 3 states (hidden or not with any flags; armed too once all are set),
// all within n+1 actions, so the search (with a budget above them) ends in plain
// goap.ErrNoPlan, not cut; with 12 flags (8193 states) WhyNeverReached explores them
// all and the idle agent is counted, with 13 (16385, one past goap.NeverReachedStates)
// it cannot tell and the agent is not counted.
func spyDomain(t *testing.T, n int) *goap.Domain {
	t.Helper()
	b := goap.NewBuilder("spy")
	armed, hidden := b.Fact("armed"), b.Fact("hidden")
	var pre []goap.Cond
	for i := range n {
		f := b.Fact(fmt.Sprintf("flag%d", i))
		b.Action(goap.Action{Name: fmt.Sprintf("Set%d", i), Cost: 1, Effects: []goap.Effect{{Fact: f, Value: 1}}})
		pre = append(pre, goap.Cond{Fact: f, Op: goap.Eq, Value: 1})
	}
	b.Action(goap.Action{Name: "Draw", Cost: 1, Pre: pre, Effects: []goap.Effect{{Fact: armed, Value: 1}, {Fact: hidden, Value: 0}}})
	b.Action(goap.Action{Name: "Hide", Cost: 1, Effects: []goap.Effect{{Fact: hidden, Value: 1}, {Fact: armed, Value: 0}}})
	b.Goal(goap.Goal{Name: "Ambush", Priority: 1, Want: []goap.Cond{{Fact: armed, Op: goap.Eq, Value: 1},
		{Fact: hidden, Op: goap.Eq, Value: 1}}})
	d, err := b.Build()
	require.NoError(t, err)
	return d
}

func TestDiagnoseGOAPGoalNeverReachedCap(t *testing.T) {
	const budget = 1 << 16
	for _, tc := range []struct {
		flags   int
		counted int
	}{{12, 1}, {13, 0}} {
		d := spyDomain(t, tc.flags)
		var s goap.State
		var p goap.Planner
		p.MaxNodes = budget
		var plan goap.Plan
		err := p.PlanBest(d, &s, &plan)
		require.ErrorIs(t, err, goap.ErrNoPlan)
		require.NotErrorIs(t, err, goap.ErrPlanTooLong, "flags %d", tc.flags)
		require.NotErrorIs(t, err, goap.ErrUnreachable, "flags %d", tc.flags)
		assert.Equal(t, tc.counted == 0, d.WhyNeverReached(&s, 0) == "", "flags %d", tc.flags)
		r := diagnoseOneGOAP(t, d, s, budget)
		assert.Equal(t, tc.counted, r.Counts[systems.CausePlannerDomainError], "flags %d: %s", tc.flags, r)
		if tc.counted > 0 {
			assert.Contains(t, r.String(), `goal "Ambush" is never reached: armed == 1 and hidden == 1 each hold in one `+
				`of the 8193 states the actions reach from the state, but never all at once`)
		}
	}
}
