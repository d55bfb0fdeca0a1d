package serve_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/examples/internal/serve"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
)

// An example served with a fault of setup (a world without the map its Spatial system
// needs) exits with status 1 and one line naming the fault, serving nothing.
func TestRunExitsWithOneLineOnAFaultOfSetup(t *testing.T) {
	world := arche.NewWorld()
	sched := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{})
	var out, errs bytes.Buffer
	code := serve.Run("demo", context.Background(), &world, sched, "127.0.0.1:0", 1, &out, &errs)
	assert.Equal(t, 1, code)
	assert.Equal(t, "demo: systems: Spatial needs the map: the world has no *grid.Grid resource; add one with arche.AddResource(w, g) before Initialize\n", errs.String())
	assert.Empty(t, out.String(), "no page announced")
}
