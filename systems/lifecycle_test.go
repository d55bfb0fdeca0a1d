package systems_test

import (
	"fmt"
	"testing"

	"github.com/archai-go/archai/ai/goap"
	"github.com/archai-go/archai/ai/htn"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
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

// Every system's Update after its Finalize (no Initialize since) panics with a message
// naming the system and saying what to do, whether it has a worker pool (which used to
// panic inside the pool) or not (which used to run on, on a finished world); a
// Finalize of a system never initialized, or a second Finalize, releases nothing and
// does not panic; Initialize again (a level restart) makes it run.
func TestUpdateAfterFinalizePanicsNamingTheSystem(t *testing.T) {
	all := func() []ecs.System {
		return []ecs.System{
			&systems.Spatial{Workers: 2}, &systems.LOD{}, &systems.Perception{Workers: 2}, &systems.Decision{Workers: 2},
			&systems.Utility{}, &systems.FSM{}, &systems.HTN{}, &systems.GOAP{}, &systems.PathQueue{},
			&systems.FlowField{Workers: 2}, &systems.Combat{}, &systems.PathFollow{Workers: 2}, &systems.Steer{Workers: 2},
			&systems.ORCA{Workers: 2}, &systems.Movement{Workers: 2}, &systems.Diagnostics{},
		}
	}
	newLevel := func() *arche.World {
		world := arche.NewWorld()
		arche.AddResource(&world, grid.New(16, 16))
		arche.AddResource(&world, &htn.Registry{})
		arche.AddResource(&world, &goap.Registry{})
		return &world
	}
	syss := all()
	for _, sys := range syss {
		assert.NotPanics(t, func() { sys.Finalize(newLevel()) }, "%T: Finalize before Initialize", sys)
	}
	w := newLevel()
	s := ecs.NewScheduler(append([]ecs.System{ecs.NewClockSystem(1.0 / 60)}, syss...)...)
	s.Initialize(w)
	s.Run(w, 2)
	s.Finalize(w)
	for _, sys := range syss {
		name := fmt.Sprintf("%T", sys)[len("*systems."):]
		want := "systems: " + name + ".Update called after Finalize: the system has released its workers and the world; " +
			"call Initialize(w) again first (a level restart), or stop updating it"
		assert.PanicsWithValue(t, want, func() { sys.Update(w) }, name)
		assert.NotPanics(t, func() { sys.Finalize(w) }, "%s: a second Finalize", name)
		assert.PanicsWithValue(t, want, func() { sys.Update(w) }, name)
	}
	w = newLevel()
	s.Initialize(w)
	assert.NotPanics(t, func() { s.Run(w, 2) }, "a level restart")
	s.Finalize(w)
}
