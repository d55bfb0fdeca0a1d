package systems_test

import (
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A newcomer added a zero grid.Grid{} as the map: InitializeChecked panicked
// inside Spatial with "spatial: NewHash(2, 0, 0): arguments must be positive
// and finite", a message about an internal package. A map of no cells is now a
// setup fault of every system that reads the map, like no map at all: a
// *ecs.SetupError wrapping ecs.ErrMissingResource that names the system and the
// 0×0 grid and says how to make one, from InitializeChecked and ecs.CheckSetup.
func TestAZeroGridIsASetupError(t *testing.T) {
	for _, c := range []struct {
		system string
		sys    func() []ecs.System
	}{
		{"Spatial", func() []ecs.System { return []ecs.System{&systems.Spatial{}} }},
		{"PathQueue", func() []ecs.System { return []ecs.System{&systems.PathQueue{}} }},
		{"FlowField", func() []ecs.System { return []ecs.System{&systems.FlowField{}} }},
		{"PathFollow", func() []ecs.System { return []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.PathFollow{}} }},
		{"Movement", func() []ecs.System { return []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Movement{}} }},
		{"Perception", func() []ecs.System { return []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Perception{}} }},
	} {
		t.Run(c.system, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			arche.AddResource(w, &grid.Grid{})
			check := func(err error) {
				require.Error(t, err)
				assert.ErrorIs(t, err, ecs.ErrMissingResource)
				var se *ecs.SetupError
				require.ErrorAs(t, err, &se)
				assert.Equal(t, c.system, se.System)
				assert.Contains(t, err.Error(), "systems: "+c.system+" needs the map")
				assert.Contains(t, err.Error(), "*grid.Grid resource is 0×0")
				assert.Contains(t, err.Error(), "grid.NewChecked")
				assert.NotContains(t, err.Error(), "spatial:")
			}
			check(ecs.NewScheduler(c.sys()...).InitializeChecked(w))
			check(ecs.CheckSetup(w, c.sys()...))
		})
	}
}
