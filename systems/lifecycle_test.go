package systems_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
)

// Every system's Update before its Initialize panics with a message naming the system
// and saying Initialize was not called, not with a nil dereference; after Initialize
// the same value runs.
func TestUpdateBeforeInitializePanicsNamingTheSystem(t *testing.T) {
	for _, sys := range []ecs.System{
		&systems.Spatial{}, &systems.LOD{}, &systems.Perception{}, &systems.Decision{Workers: 2},
		&systems.Utility{}, &systems.FSM{}, &systems.HTN{}, &systems.GOAP{}, &systems.PathQueue{},
		&systems.FlowField{}, &systems.Combat{}, &systems.PathFollow{}, &systems.Steer{},
		&systems.ORCA{}, &systems.Movement{}, &systems.Diagnostics{},
	} {
		name := fmt.Sprintf("%T", sys)[len("*systems."):]
		t.Run(name, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			want := "systems: " + name + ".Update called before Initialize: call Initialize(w) on every system " +
				"(ecs.Scheduler.Initialize, or arche-model's model.Run) before the first Update"
			if name == "Diagnostics" {
				want += " (or Every was set ≤ 0 after it)"
			}
			assert.PanicsWithValue(t, want, func() { sys.Update(w) })
		})
	}
}
