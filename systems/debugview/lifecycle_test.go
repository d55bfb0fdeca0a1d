package debugview_test

import (
	"testing"

	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/debugview"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
)

func TestViewerUpdateBeforeInitializePanicsClearly(t *testing.T) {
	world := arche.NewWorld()
	v := debugview.New()
	defer v.Close()
	assert.PanicsWithValue(t, "debugview: Viewer.Update called before Initialize: call Initialize(w) on every system (ecs.Scheduler.Initialize, or arche-model's model.Run) before the first Update",
		func() { v.Update(&world) })
}

// review5: like every system of package systems (39a872b), the Viewer's Update
// after Finalize (no Initialize since) panics naming it, rather than running on
// over a world the program has finished with; Finalize twice, or before
// Initialize, does not panic; Initialize again (a level restart) makes it run.
func TestViewerUpdateAfterFinalizePanicsClearly(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	v := debugview.New()
	defer v.Close()
	assert.NotPanics(t, func() { v.Finalize(w) }, "Finalize before Initialize")
	v.Initialize(w)
	v.Update(w)
	v.Finalize(w)
	want := "debugview: Viewer.Update called after Finalize: call Initialize(w) again first (a level restart), or stop updating it"
	assert.PanicsWithValue(t, want, func() { v.Update(w) })
	assert.NotPanics(t, func() { v.Finalize(w) }, "a second Finalize")
	assert.PanicsWithValue(t, want, func() { v.Update(w) })
	again := arche.NewWorld()
	v.Initialize(&again)
	assert.NotPanics(t, func() { v.Update(&again) }, "a level restart")
}

// A Viewer checks the world with a Diagnostics of its own that it never initializes, so a
// world it watches runs no Diagnostics whose state save.Save must be given
// (systems.StatefulSystems): saving with the viewer running needs nothing more.
func TestViewerRunsNoStatefulDiagnostics(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	v := debugview.New()
	defer v.Close()
	v.Initialize(w)
	v.Update(w)
	assert.Nil(t, systems.StatefulSystems(w))
	v.Finalize(w)
}
