package systems_test

import (
	"io"
	"testing"

	"github.com/archai-go/archai/ai/goap"
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

// idlePlanners is a world of nHTN HTN agents whose root never decomposes and nGOAP GOAP
// agents whose goal has no plan, all idle past HTNNoPlanSpan, with a Diagnostics.
func idlePlanners(tb testing.TB, nHTN, nGOAP int) (*arche.World, *systems.Diagnostics, *ecs.Scheduler) {
	hreg := &htn.Registry{}
	hb := htn.NewBuilder("guard")
	enemy := hb.Fact("enemy")
	root := hb.Compound("Guard")
	hb.Method(root, htn.Method{Name: "Attack", If: []htn.Condition{htn.Is(enemy, htn.Eq, 1)},
		Tasks: []htn.TaskID{hb.Primitive("Shoot", htn.Primitive{})}})
	hb.Root(root)
	hd, err := hb.Build()
	require.NoError(tb, err)
	hid, err := hreg.Add(hd)
	require.NoError(tb, err)

	greg := &goap.Registry{}
	gb := goap.NewBuilder("worker")
	axe, planks := gb.Fact("axe"), gb.Fact("planks")
	gb.Action(goap.Action{Name: "Craft", Cost: 1, Pre: []goap.Cond{{Fact: axe, Op: goap.Eq, Value: 1}},
		Effects: []goap.Effect{{Fact: planks, Value: 1, Add: true}}})
	gb.Goal(goap.Goal{Name: "Planks", Priority: 1, Want: []goap.Cond{{Fact: planks, Op: goap.Ge, Value: 1}}})
	gd, err := gb.Build()
	require.NoError(tb, err)
	gid, err := greg.Add(gd)
	require.NoError(tb, err)

	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, hreg)
	arche.AddResource(w, greg)
	hs, err := systems.NewSpawner(w, systems.HTNThinker{Registry: hreg, Domain: hid, Interval: 1})
	require.NoError(tb, err)
	gs, err := systems.NewSpawner(w, systems.GOAPThinker{Registry: greg, Domain: gid, Interval: 1})
	require.NoError(tb, err)
	for i := 0; i < nHTN; i++ {
		hs.Spawn(r2.Vec{X: float64(i), Y: 1}, nil)
	}
	for i := 0; i < nGOAP; i++ {
		gs.Spawn(r2.Vec{X: float64(i), Y: 2}, nil)
	}
	diag := &systems.Diagnostics{Every: 1 << 30, Out: io.Discard}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.5), &systems.HTN{}, &systems.GOAP{}, diag)
	require.NoError(tb, s.InitializeChecked(w))
	s.Run(w, int(2*systems.HTNNoPlanSpan/0.5))
	return w, diag, s
}

// Thousands of idle villagers: each check ran htn.Domain.WhyNoPlan (a planning and its
// text) and goap.Domain.WhyNoPlan for every idle agent, and built each agent's note.
// The explanation is worked out once per domain and state, and kept while an agent
// holds them: a check in steady state allocates nothing, and the notes are unchanged.
func TestDiagnosticsIdlePlannersCheckAllocatesNothing(t *testing.T) {
	w, diag, s := idlePlanners(t, 50, 50)
	defer s.Finalize(w)
	r := diag.Check(w)
	assert.Equal(t, 100, r.Counts[systems.CausePlannerDomainError], "%s", r)
	want := systems.Diagnose(w).String()
	assert.Contains(t, want, `its root task found no decomposition on every think from 0.5 s to `)
	assert.Contains(t, want, `root "Guard" does not decompose: method Attack needs enemy == 1`)
	assert.Equal(t, want, r.String(), "the Diagnostics system and Diagnose say the same")
	assert.Zero(t, testing.AllocsPerRun(10, func() { diag.Check(w) }), "in steady state a check allocates nothing")
	s.Run(w, 10)
	r = diag.Check(w)
	assert.Equal(t, systems.Diagnose(w).String(), r.String(), "the note follows the agent's last think")

	// a state changed: the explanation follows it
	q := generic.NewFilter1[components.HTNPlanner]().Query(w)
	for q.Next() {
		q.Get().State[0] = 2
	}
	r = diag.Check(w)
	assert.Contains(t, r.String(), "enemy is 2")
	assert.Equal(t, systems.Diagnose(w).String(), r.String())
}

func BenchmarkDiagnosticsIdlePlanners(b *testing.B) {
	for _, c := range []struct {
		name        string
		nHTN, nGOAP int
	}{{"htn=2000", 2000, 0}, {"goap=2000", 0, 2000}} {
		b.Run(c.name, func(b *testing.B) {
			w, diag, s := idlePlanners(b, c.nHTN, c.nGOAP)
			defer s.Finalize(w)
			diag.Check(w)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				diag.Check(w)
			}
		})
	}
}
