package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A GOAP agent waiting for "enemy visible", a fact only its Sense hook sets, was
// counted as planner_domain_error while it waited. With the fact declared sensed
// (goap.Builder.Sensed) it is not counted; undeclared it still is, and the note
// suggests declaring it; a second fact that nothing sets and nothing declares keeps
// the agent counted even with the first declared, and the note names that fact.
func TestDiagnoseDoesNotCountAGOAPAgentWaitingForPerception(t *testing.T) {
	for _, tc := range []struct {
		name           string
		sensed, broken bool
		counted        bool
		note           string
	}{
		{"declared", true, false, false, ""},
		{"undeclared", false, false, true, `Shoot could make that true but needs visible == 1, which no action's effect makes true ` +
			`and the state lacks (visible is 0): give an action an effect that makes it true, set visible in the state before ` +
			`planning, or, if perception sets it (the Sense hook, or a system writing the state), declare it with Builder.Sensed`},
		{"declared, another fact nothing sets", true, true, true, `Shoot could make that true but needs permit == 1, which no ` +
			`action's effect makes true and the state lacks (permit is 0)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seen := false // what the Sense hook perceives
			b := goap.NewBuilder("hunter")
			visible, dead, permit := b.Fact("visible"), b.Fact("dead"), b.Fact("permit")
			pre := []goap.Cond{{Fact: visible, Op: goap.Eq, Value: 1}}
			if tc.broken {
				pre = append(pre, goap.Cond{Fact: permit, Op: goap.Eq, Value: 1})
			}
			b.Action(goap.Action{Name: "Shoot", Cost: 1, Pre: pre, Effects: []goap.Effect{{Fact: dead, Value: 1}}})
			b.Goal(goap.Goal{Name: "Kill", Priority: 1, Want: []goap.Cond{{Fact: dead, Op: goap.Eq, Value: 1}}})
			b.Sense(func(c *goap.Context) {
				if seen {
					c.State[visible] = 1
				}
			})
			if tc.sensed {
				b.Sensed(visible)
			}
			d, err := b.Build()
			require.NoError(t, err)
			reg := &goap.Registry{}
			id, err := reg.Add(d)
			require.NoError(t, err)
			world := arche.NewWorld()
			w := &world
			arche.AddResource(w, reg)
			sp, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: reg, Domain: id})
			require.NoError(t, err)
			e := sp.Spawn(r2.Vec{}, nil)
			s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.GOAP{})
			require.NoError(t, s.InitializeChecked(w))
			s.Run(w, 10)
			planners := generic.NewMap1[components.GOAPPlanner](w)
			require.Zero(t, planners.Get(e).Run.Plans, "it waits")
			r := systems.Diagnose(w)
			if !tc.counted {
				assert.Zero(t, r.Counts[systems.CausePlannerDomainError], "%s", r)
				seen = true // the enemy comes into view: it plans
				s.Run(w, 2)
				assert.Equal(t, uint32(1), planners.Get(e).Run.Plans)
			} else {
				assert.Equal(t, 1, r.Counts[systems.CausePlannerDomainError], "%s", r)
				assert.Contains(t, r.String(), tc.note)
			}
			s.Finalize(w)
		})
	}
}
