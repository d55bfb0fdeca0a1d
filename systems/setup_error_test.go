package systems_test

import (
	"errors"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recordingSystem notes its Initialize and Finalize calls in log.
type recordingSystem struct {
	name string
	log  *[]string
}

func (r *recordingSystem) Initialize(*arche.World) { *r.log = append(*r.log, "init "+r.name) }
func (r *recordingSystem) Update(*arche.World)     {}
func (r *recordingSystem) Finalize(*arche.World)   { *r.log = append(*r.log, "final "+r.name) }

// TestInitializeCheckedReturnsSetupErrors: each kind of setup fault comes back
// from Scheduler.InitializeChecked as an error of its kind, naming the system,
// with the systems initialized before it finalized in reverse order.
func TestInitializeCheckedReturnsSetupErrors(t *testing.T) {
	cases := []struct {
		name    string
		grid    bool
		systems func() []ecs.System
		kind    error
		system  string
		text    string
	}{
		{"PathQueue without a map", false, func() []ecs.System {
			return []ecs.System{&systems.PathQueue{}}
		}, ecs.ErrMissingResource, "PathQueue", "needs the map"},
		{"Decision without a clock", true, func() []ecs.System {
			return []ecs.System{&systems.Decision{}}
		}, ecs.ErrMissingResource, "Decision", "needs the simulation clock"},
		{"Steer without Spatial", true, func() []ecs.System {
			return []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Steer{}}
		}, ecs.ErrMissingResource, "Steer", "add the Spatial system before Steer"},
		{"PathQueue with an unknown Moves", true, func() []ecs.System {
			return []ecs.System{&systems.PathQueue{Options: grid.Options{Moves: 5}}}
		}, ecs.ErrSettings, "PathQueue", "cannot search with its Options"},
		{"FlowField with sectors of 2 cells", true, func() []ecs.System {
			return []ecs.System{&systems.FlowField{Sectors: 2}}
		}, ecs.ErrSettings, "FlowField", "FlowField.Sectors is 2"},
		{"ORCA after Movement", true, func() []ecs.System {
			return []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{}, &systems.Steer{}, &systems.Movement{}, &systems.ORCA{}}
		}, ecs.ErrOrder, "ORCA", "ORCA is initialized after Movement"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			world := arche.NewWorld()
			w := &world
			if c.grid {
				arche.AddResource(w, grid.New(16, 16))
			}
			var log []string
			sys := append([]ecs.System{&recordingSystem{"first", &log}}, c.systems()...)
			s := ecs.NewScheduler(sys...)
			err := s.InitializeChecked(w)
			require.Error(t, err)
			assert.ErrorIs(t, err, c.kind)
			var se *ecs.SetupError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, c.system, se.System)
			assert.Contains(t, err.Error(), c.text)
			assert.Equal(t, []string{"init first", "final first"}, log, "the system before is finalized")
		})
	}
}

// TestInitializeCheckedWrapsTheOptionsError: a PathQueue's invalid Options
// come back wrapping grid.Options.Validate's own error too.
func TestInitializeCheckedWrapsTheOptionsError(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	opt := grid.Options{Weight: -1}
	want := opt.Validate()
	require.Error(t, want)
	err := ecs.NewScheduler(&systems.PathQueue{Options: opt}).InitializeChecked(w)
	assert.ErrorIs(t, err, ecs.ErrSettings)
	assert.ErrorContains(t, err, want.Error())
}

// TestInitializeCheckedRetryAfterTheFix: after a missing map is reported, the
// program adds it and initializes the same scheduler again; the systems then
// run as usual.
func TestInitializeCheckedRetryAfterTheFix(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.PathQueue{}, &systems.PathFollow{},
		&systems.Steer{}, &systems.Movement{})
	err := s.InitializeChecked(w)
	require.ErrorIs(t, err, ecs.ErrMissingResource)
	arche.AddResource(w, grid.New(16, 16))
	require.NoError(t, s.InitializeChecked(w))
	s.Run(w, 3)
	s.Finalize(w)
}

// TestInitializeCheckedLetsOtherPanicsThrough: a panic that is not a setup
// fault (a bug, a user system's own) propagates unchanged.
func TestInitializeCheckedLetsOtherPanicsThrough(t *testing.T) {
	world := arche.NewWorld()
	s := ecs.NewScheduler(panicking{})
	assert.PanicsWithValue(t, "boom", func() { _ = s.InitializeChecked(&world) })
}

type panicking struct{}

func (panicking) Initialize(*arche.World) { panic("boom") }
func (panicking) Update(*arche.World)     {}
func (panicking) Finalize(*arche.World)   {}

// TestInitializePanicsWithASetupError: the plain Initialize (and arche-model's
// model.Run) still panics, with the *ecs.SetupError as the value.
func TestInitializePanicsWithASetupError(t *testing.T) {
	world := arche.NewWorld()
	defer func() {
		r := recover()
		err, ok := r.(error)
		require.True(t, ok, "panic value %T", r)
		assert.True(t, errors.Is(err, ecs.ErrMissingResource))
		assert.Contains(t, err.Error(), "systems: PathQueue needs the map")
	}()
	ecs.NewScheduler(&systems.PathQueue{}).Initialize(&world)
}

// panicText is the message of a recovered panic value: a string, or an error's
// Error() (a fault of setup panics with an *ecs.SetupError); "" for nil.
func panicText(r any) string {
	switch v := r.(type) {
	case string:
		return v
	case error:
		return v.Error()
	}
	return ""
}

// TestInitializeCheckedPutsTheResourcesBack: after a fault of setup the world
// has the resources it had before, the same values: those the systems added
// (the Clock, the Neighbours, archai's records) are gone, and the flow field
// cache FlowField replaced before failing on its Sectors is the old one again.
func TestInitializeCheckedPutsTheResourcesBack(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(16, 16)
	arche.AddResource(w, g)
	old := flowfield.NewCache(g, 2)
	arche.AddResource(w, old)
	present := func() int {
		n := 0
		for _, id := range arche.ResourceIDs(w) {
			if w.Resources().Has(id) {
				n++
			}
		}
		return n
	}
	require.Equal(t, 2, present())

	s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), &systems.Spatial{}, &systems.FlowField{Sectors: 2})
	err := s.InitializeChecked(w)
	require.ErrorIs(t, err, ecs.ErrSettings)
	assert.Equal(t, 2, present(), "only the map and the old cache")
	assert.Nil(t, ecs.Resource[ecs.Clock](w))
	assert.Nil(t, ecs.Resource[systems.Neighbours](w))
	assert.Same(t, g, ecs.Resource[grid.Grid](w))
	assert.Same(t, old, ecs.Resource[flowfield.Cache](w))

	// a Clock the world had before stays, the same value
	c := &ecs.Clock{DT: 1.0 / 30}
	arche.AddResource(w, c)
	require.ErrorIs(t, s.InitializeChecked(w), ecs.ErrSettings)
	assert.Same(t, c, ecs.Resource[ecs.Clock](w))
	assert.Equal(t, 3, present())
}

// TestCheckSetup: ecs.CheckSetup returns a fault of setup as an error, and on
// a good setup leaves the systems finalized and the world with only the
// resources it had; the same values then initialize and run.
func TestCheckSetup(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	var log []string
	sys := []ecs.System{&recordingSystem{"first", &log}, ecs.NewClockSystem(1.0 / 60), &systems.Spatial{},
		&systems.PathQueue{}, &recordingSystem{"last", &log}}
	err := ecs.CheckSetup(w, sys...)
	require.ErrorIs(t, err, ecs.ErrMissingResource)
	assert.Equal(t, []string{"init first", "final first"}, log)
	assert.Nil(t, ecs.Resource[ecs.Clock](w))

	g := grid.New(16, 16)
	arche.AddResource(w, g)
	log = log[:0]
	require.NoError(t, ecs.CheckSetup(w, sys...))
	assert.Equal(t, []string{"init first", "init last", "final last", "final first"}, log, "finalized in reverse order")
	assert.Nil(t, ecs.Resource[ecs.Clock](w), "the resources the systems added are gone")
	assert.Nil(t, ecs.Resource[systems.Neighbours](w))
	assert.Same(t, g, ecs.Resource[grid.Grid](w))
	assert.PanicsWithValue(t, "systems: Spatial.Update called after Finalize: the system has released its workers and the world; "+
		"call Initialize(w) again first (a level restart), or stop updating it", func() { sys[2].Update(w) })

	s := ecs.NewScheduler(sys...)
	s.Initialize(w)
	s.Run(w, 3)
	s.Finalize(w)
	assert.Equal(t, int64(2), ecs.Resource[ecs.Clock](w).Frame)
}

// FlowField{Sectors: 4} over a grid too big for 4-cell sectors (4096×2560:
// about 1.1 GiB to build) is a settings fault wrapping
// flowfield.ErrSectorMemory, before any sector is built.
func TestFlowFieldRefusesSectorsTooSmallForTheGrid(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(4096, 2560))
	s := ecs.NewScheduler(&systems.FlowField{Sectors: 4})
	err := s.InitializeChecked(w)
	require.Error(t, err)
	assert.ErrorIs(t, err, ecs.ErrSettings)
	assert.ErrorIs(t, err, flowfield.ErrSectorMemory)
	assert.ErrorContains(t, err, "use sectors of 5 cells or more")
}
