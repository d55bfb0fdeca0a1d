package systems

import (
	"io"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDiagnosticsInTheScheduleNamesALeakedQuery: a newcomer made a query between
// frames and never iterated it; the scheduled Diagnostics was the first to find the
// world locked and panicked with Diagnose's advice, "call it between frames ... or add
// a systems.Diagnostics to the schedule", though it was that Diagnostics. Its panic
// names the open query instead.
func TestDiagnosticsInTheScheduleNamesALeakedQuery(t *testing.T) {
	w := arche.NewWorld()
	w.NewEntity(arche.ComponentID[components.Position](&w))
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &Diagnostics{Out: io.Discard})
	require.NoError(t, s.InitializeChecked(&w))
	s.Update(&w)
	q := generic.NewFilter1[components.Position]().Query(&w) // never iterated
	var msg any
	func() {
		defer func() { msg = recover() }()
		s.Run(&w, 60)
	}()
	q.Close()
	require.NotNil(t, msg, "a locked world at the check panics")
	assert.Contains(t, msg, "Diagnostics: the world is locked at its Update")
	assert.Contains(t, msg, "q.Close()")
	assert.NotContains(t, msg, "add a systems.Diagnostics")
}
