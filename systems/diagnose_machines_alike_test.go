package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ai/fsm"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// machineOf builds a machine called name with the given states.
func machineOf(t *testing.T, name string, states ...string) *fsm.Machine {
	t.Helper()
	b := fsm.NewBuilder(name)
	for _, s := range states {
		b.State(s, fsm.Hooks{})
	}
	m, err := b.Build()
	require.NoError(t, err)
	return m
}

// diagnoseMachines spawns two agents on each machine and diagnoses the world
// with its systems initialized.
func diagnoseMachines(t *testing.T, ms ...*fsm.Machine) systems.Report {
	t.Helper()
	world := arche.NewWorld()
	w := &world
	for i, m := range ms {
		sp, err := systems.NewSpawner(w, systems.Thinker{Machine: m, Interval: 0.1})
		require.NoError(t, err)
		sp.Spawn(r2.Vec{X: float64(i), Y: 1}, nil)
		sp.Spawn(r2.Vec{X: float64(i), Y: 2}, nil)
	}
	s := ecs.NewScheduler(ecs.NewClockSystem(0.1), &systems.FSM{})
	s.Initialize(w)
	defer s.Finalize(w)
	s.Run(w, 2)
	return systems.Diagnose(w)
}

// silent19: two machines of one name, or of names whose tags collide, took each
// other's StateIDs for their own (a hook returning the other's state of an index
// in range moved the agent, uncounted) with a clean Diagnose. Now each pair is a
// finding naming both machines and the fix.
func TestDiagnoseReportsMachinesOfOneName(t *testing.T) {
	wolf := machineOf(t, "guard", "Prowl", "Hunt")
	villager := machineOf(t, "guard", "Work", "Eat", "Sleep")
	require.Equal(t, wolf.State(2)>>16, villager.State(2)>>16, "the case: one tag")
	require.True(t, villager.Has(wolf.State(2)), "the villager's machine takes the wolf's Hunt for its own")
	r := diagnoseMachines(t, wolf, villager)
	require.Equal(t, []string{`"guard" and "guard" (one name)`}, r.MachinesAlike)
	require.Equal(t, 1, r.Total())
	require.Contains(t, r.String(), `"guard" and "guard" (one name)`)
	require.Contains(t, r.String(), "give each machine a name of its own in fsm.NewBuilder")
}

func TestDiagnoseReportsMachinesWhoseTagsCollide(t *testing.T) {
	a := machineOf(t, "machine178", "Idle", "Run")
	b := machineOf(t, "machine248", "Sit", "Stand")
	require.Equal(t, a.State(1)>>16, b.State(1)>>16, "the case: FNV-1a tags that collide")
	other := machineOf(t, "villager", "Work")
	r := diagnoseMachines(t, a, other, b)
	require.Equal(t, []string{`"machine178" and "machine248" (their tags collide)`}, r.MachinesAlike)
	require.Contains(t, r.String(), "rename either")
}

func TestDiagnoseAcceptsTwoBuildsOfOneDefinition(t *testing.T) {
	// one definition built twice (a machine built per spawner): each StateID
	// names the same state in both, so taking one for the other is harmless
	a := machineOf(t, "guard", "Prowl", "Hunt")
	b := machineOf(t, "guard", "Prowl", "Hunt")
	c := machineOf(t, "villager", "Work")
	r := diagnoseMachines(t, a, b, c)
	require.Nil(t, r.MachinesAlike)
	require.Equal(t, 0, r.Total(), "%v", r)
}
