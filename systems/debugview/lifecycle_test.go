package debugview_test

import (
	"testing"

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
