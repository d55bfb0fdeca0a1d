package systems_test

import (
	"fmt"
	"testing"

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

// panicOf runs f and returns what it panicked with, as text ("" if it did not).
func panicOf(f func()) (msg string) {
	defer func() {
		if v := recover(); v != nil {
			msg = fmt.Sprint(v)
		}
	}()
	f()
	return ""
}

// A newcomer printed Diagnose's report per agent inside a query loop of their own: the
// panic was Arche's "attempt to register a new component in a locked world", which names
// neither Diagnose nor the fix. Both Diagnose and Diagnostics.Check now say what happened
// and what to do, and the world is left usable.
func TestDiagnoseInsideAnOpenQueryNamesTheFix(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	sp, err := systems.NewSpawner(w, systems.Mover{})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 2.5, Y: 2.5}, func(a *systems.Spawned) { a.MoveTo(r2.Vec{X: 12.5, Y: 12.5}) })
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{},
		&systems.PathFollow{}, &systems.Steer{}, &systems.Movement{})
	require.NoError(t, s.InitializeChecked(w))
	t.Cleanup(func() { s.Finalize(w) })
	s.Run(w, 5)

	diag := &systems.Diagnostics{}
	q := generic.NewFilter1[components.Position]().Query(w)
	require.True(t, q.Next())
	msg := panicOf(func() { systems.Diagnose(w) })
	msgCheck := panicOf(func() { diag.Check(w) })
	q.Close()

	for _, m := range []string{msg, msgCheck} {
		assert.Contains(t, m, "Diagnose")
		assert.Contains(t, m, "locked")
		assert.Contains(t, m, "after the query loop")
		assert.NotContains(t, m, "attempt to register a new component")
	}
	// the world was not left locked or half changed: both run once the query is closed
	r := systems.Diagnose(w)
	assert.Equal(t, 1, r.Agents)
	assert.Equal(t, 0, r.Total())
	assert.Equal(t, 1, diag.Check(w).Agents)
	s.Run(w, 1)
}
