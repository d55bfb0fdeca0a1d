package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// guardDomain is a guard whose root waits on "enemy", a fact no effect sets and whose
// sensor (the newcomer forgot it) never writes; idle adds a last method without
// conditions, the way to say "nothing to do".
func guardDomain(t *testing.T, name string, idle bool) *htn.Domain {
	b := htn.NewBuilder(name)
	enemy := b.Fact("enemy")
	root := b.Compound("Guard")
	b.Method(root, htn.Method{Name: "Attack", If: []htn.Condition{htn.Is(enemy, htn.Eq, 1)},
		Tasks: []htn.TaskID{b.Primitive("Shoot", htn.Primitive{})}})
	if idle {
		b.Method(root, htn.Method{Name: "Idle"})
	}
	b.Root(root)
	d, err := b.Build()
	require.NoError(t, err)
	return d
}

// An HTN agent whose root never decomposes idles with Run.Status Failure, and Diagnose
// said "no misconfiguration" (newbie5 htnvill), where GOAP's counterpart is reported with
// WhyNoPlan's explanation. Diagnose counts it once the spell has lasted HTNNoPlanSpan,
// with htn.Domain.WhyNoPlan's explanation; not before, and not an agent whose root has a
// last method without conditions.
func TestDiagnoseCountsAnHTNAgentWhoseRootLongFailedToDecompose(t *testing.T) {
	reg := &htn.Registry{}
	stuck, err := reg.Add(guardDomain(t, "guard", false))
	require.NoError(t, err)
	calm, err := reg.Add(guardDomain(t, "calm", true))
	require.NoError(t, err)

	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, reg)
	sp, err := systems.NewSpawner(w, systems.HTNThinker{Registry: reg, Domain: stuck})
	require.NoError(t, err)
	e := sp.Spawn(r2.Vec{}, nil)
	sp, err = systems.NewSpawner(w, systems.HTNThinker{Registry: reg, Domain: calm})
	require.NoError(t, err)
	ok := sp.Spawn(r2.Vec{}, nil)
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.HTN{})
	s.Initialize(w)
	defer s.Finalize(w)

	s.Run(w, 50) // 5 s: shorter than HTNNoPlanSpan
	hp := generic.NewMap1[components.HTNPlanner](w)
	run := hp.Get(e).Run
	assert.Equal(t, htn.Failure, run.Status)
	assert.True(t, run.NoPlan)
	assert.Greater(t, run.NoPlans, uint32(1), "every think plans, and finds nothing")
	assert.Zero(t, hp.Get(ok).Run.NoPlans, "Idle decomposes")
	r := systems.Diagnose(w)
	assert.Zero(t, r.Counts[systems.CausePlannerDomainError], "a short spell is nothing to do now: %s", r)

	s.Run(w, int(systems.HTNNoPlanSpan*10)) // the spell is now longer than HTNNoPlanSpan
	r = systems.Diagnose(w)
	assert.Equal(t, 1, r.Counts[systems.CausePlannerDomainError], "%s", r)
	assert.Equal(t, e, r.Examples[systems.CausePlannerDomainError])
	assert.Contains(t, r.String(), `its root task found no decomposition on every think from 0.0 s to `)
	assert.Contains(t, r.String(), `root "Guard" does not decompose: method Attack needs enemy == 1 (enemy is 0; `+
		`no task's effect changes enemy: only the sensor or a system writing the state can); if it has nothing to do then, `+
		`give the root a last method without conditions`)
}
