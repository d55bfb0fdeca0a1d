package systems_test

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/spatial/r2"
)

// An entity with only a Position and a Path whose Want is set (a path asked
// for its own sake: a preview, a reachability query) is served by PathQueue,
// whose contract requires just Path and Position: Diagnose does not count it
// SteerIncomplete, before or after the request is served (a reviewer found it
// counted while Want was set).
func TestPathOnlyRequestIsNotSteerIncomplete(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(16, 16))
	b := generic.NewMap2[components.Position, components.Path](w)
	e := b.NewWith(&components.Position{Vec: r2.Vec{X: 1.5, Y: 1.5}},
		&components.Path{Want: true, Goal: grid.Cell{X: 12, Y: 12}, Waypoints: make([]grid.Cell, 0, 64)})
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.PathQueue{})
	s.Initialize(w)
	defer s.Finalize(w)
	before := systems.Diagnose(w)
	s.Update(w)
	_, p := b.Get(e)
	assert.Equal(t, components.PathReady, p.State, "PathQueue served the request")
	assert.Equal(t, 0, before.Counts[systems.CauseSteerIncomplete], "not counted while the request is open")
	after := systems.Diagnose(w)
	assert.Equal(t, 0, after.Counts[systems.CauseSteerIncomplete], "not counted once served (Want cleared)")
}
