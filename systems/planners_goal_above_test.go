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

// A colonist whose Eat action's precondition misspelt its fact ("atFod", which
// Builder.Fact declared in silence) can never plan for its goal Eat, of the highest
// priority: PlanBest passes over it to Work, so the agent is busy, never idle, and
// Diagnose, which counted only idle agents, was silent while every such colonist
// starved (a colony of 500, hungry not declared sensed: no finding; with the check,
// 125 of its 250 GOAP colonists counted after 40 s). It is counted (planner_domain_error), naming both goals and the fact; the
// same agent with the fact spelt right, or declared sensed, is not. It is counted too
// when the goal's own fact (hungry) is declared sensed, as a colony writes it: perception
// may make the goal hold, but while it does not, Eat, the only action that could, can
// never start (goap.Domain.AwaitsPerception gives a goal's own conditions no pass for
// a sensed fact); before, the agent was taken to wait and 250 of 500 colonists starved
// with no finding.
func TestDiagnoseCountsAGOAPAgentBusyBelowAGoalWithNoPlan(t *testing.T) {
	const why = `it carries out a plan for goal "Work" while goal "Eat", of higher priority, has no plan ` +
		`from its GOAPPlanner.State: goal "Eat" needs hungry == 0%s; Eat could make that true but needs atFod == 1, which no ` +
		`action's effect makes true and the state lacks (atFod is 0)`
	for _, tc := range []struct {
		name         string
		typo         bool
		sensed       bool
		hungerSensed bool
		counted      bool
		clause       string
	}{
		{"typo", true, false, false, true, ""},
		{"spelt right", false, false, false, false, ""},
		{"typo declared sensed", true, true, false, false, ""},
		{"typo, the goal's fact sensed", true, false, true, true,
			" (a sensed fact: perception may make it true, but no action that could can ever start, so no plan can)"},
		{"spelt right, the goal's fact sensed", false, false, true, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := goap.NewBuilder("colonist")
			hungry, atFood, delivered := b.Fact("hungry"), b.Fact("atFood"), b.Fact("delivered")
			pre := atFood
			if tc.typo {
				pre = b.Fact("atFod")
			}
			if tc.sensed {
				b.Sensed(pre)
			}
			if tc.hungerSensed {
				b.Sensed(hungry)
			}
			b.Action(goap.Action{Name: "GoToFood", Cost: 1, Effects: []goap.Effect{{Fact: atFood, Value: 1}},
				Run: func(*goap.Context) goap.Status { return goap.Running }})
			b.Action(goap.Action{Name: "Eat", Cost: 1, Pre: []goap.Cond{{Fact: pre, Op: goap.Eq, Value: 1}},
				Effects: []goap.Effect{{Fact: hungry, Value: 0}}})
			b.Action(goap.Action{Name: "Deliver", Cost: 1, Effects: []goap.Effect{{Fact: delivered, Value: 1}},
				Run: func(*goap.Context) goap.Status { return goap.Running }}) // works for good
			b.Goal(goap.Goal{Name: "Eat", Priority: 10, Want: []goap.Cond{{Fact: hungry, Op: goap.Eq, Value: 0}}})
			b.Goal(goap.Goal{Name: "Work", Priority: 1, Want: []goap.Cond{{Fact: delivered, Op: goap.Eq, Value: 1}}})
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
			s.Run(w, 10)
			r := systems.Diagnose(w)
			if !tc.counted {
				assert.Zero(t, r.Counts[systems.CausePlannerDomainError], "%s", r)
			} else {
				assert.Equal(t, 1, r.Counts[systems.CausePlannerDomainError], "%s", r)
				assert.Contains(t, r.String(), fmt.Sprintf(why, tc.clause))
			}
			s.Finalize(w)
		})
	}
}

// A goal on a sensed fact is counted by the structure of its domain, not by the fact
// being sensed: a hunter whose goal Kill (dead, sensed) waits for Shoot, which needs
// visible (sensed), is not counted, busy patrolling below it or idle; a colonist whose
// only goal Eat (hungry, sensed) can be reached only by an Eat that needs a misspelt fact
// is counted idle, naming the goal and the fact (before, both were taken to wait).
func TestDiagnoseTellsAGoalOnASensedFactThatWaitsFromOneThatCannotBePlanned(t *testing.T) {
	forever := func(*goap.Context) goap.Status { return goap.Running }
	for _, tc := range []struct {
		name    string
		build   func(b *goap.Builder) goap.State
		counted string
	}{
		{"hunter patrolling", func(b *goap.Builder) goap.State {
			visible, dead, patrolled := b.Fact("visible"), b.Fact("dead"), b.Fact("patrolled")
			b.Action(goap.Action{Name: "Shoot", Cost: 1, Pre: []goap.Cond{{Fact: visible, Op: goap.Eq, Value: 1}},
				Effects: []goap.Effect{{Fact: dead, Value: 1}}})
			b.Action(goap.Action{Name: "Patrol", Cost: 1, Effects: []goap.Effect{{Fact: patrolled, Value: 1}}, Run: forever})
			b.Goal(goap.Goal{Name: "Kill", Priority: 10, Want: []goap.Cond{{Fact: dead, Op: goap.Eq, Value: 1}}})
			b.Goal(goap.Goal{Name: "Patrol", Priority: 1, Want: []goap.Cond{{Fact: patrolled, Op: goap.Eq, Value: 1}}})
			b.Sensed(visible, dead)
			return goap.State{}
		}, ""},
		{"hunter idle", func(b *goap.Builder) goap.State {
			visible, dead := b.Fact("visible"), b.Fact("dead")
			b.Action(goap.Action{Name: "Shoot", Cost: 1, Pre: []goap.Cond{{Fact: visible, Op: goap.Eq, Value: 1}},
				Effects: []goap.Effect{{Fact: dead, Value: 1}}})
			b.Goal(goap.Goal{Name: "Kill", Priority: 10, Want: []goap.Cond{{Fact: dead, Op: goap.Eq, Value: 1}}})
			b.Sensed(visible, dead)
			return goap.State{}
		}, ""},
		{"colonist idle", func(b *goap.Builder) goap.State {
			hungry, atFood, atFod := b.Fact("hungry"), b.Fact("atFood"), b.Fact("atFod")
			b.Action(goap.Action{Name: "GoToFood", Cost: 1, Effects: []goap.Effect{{Fact: atFood, Value: 1}}, Run: forever})
			b.Action(goap.Action{Name: "Eat", Cost: 1, Pre: []goap.Cond{{Fact: atFod, Op: goap.Eq, Value: 1}},
				Effects: []goap.Effect{{Fact: hungry, Value: 0}}})
			b.Goal(goap.Goal{Name: "Eat", Priority: 10, Want: []goap.Cond{{Fact: hungry, Op: goap.Eq, Value: 0}}})
			b.Sensed(hungry)
			var s goap.State
			s[hungry] = 1
			return s
		}, `goal "Eat" needs hungry == 0 (a sensed fact: perception may make it true, but no action that could can ever ` +
			`start, so no plan can); Eat could make that true but needs atFod == 1, which no action's effect makes true`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := goap.NewBuilder("d")
			start := tc.build(b)
			d, err := b.Build()
			require.NoError(t, err)
			reg := &goap.Registry{}
			id, err := reg.Add(d)
			require.NoError(t, err)
			world := arche.NewWorld()
			w := &world
			arche.AddResource(w, reg)
			sp, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: reg, Domain: id, State: start})
			require.NoError(t, err)
			sp.Spawn(r2.Vec{X: 1, Y: 1}, nil)
			s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.GOAP{})
			require.NoError(t, s.InitializeChecked(w))
			s.Run(w, 10)
			r := systems.Diagnose(w)
			if tc.counted == "" {
				assert.Zero(t, r.Counts[systems.CausePlannerDomainError], "%s", r)
			} else {
				assert.Equal(t, 1, r.Counts[systems.CausePlannerDomainError], "%s", r)
				assert.Contains(t, r.String(), tc.counted)
			}
			s.Finalize(w)
		})
	}
}
