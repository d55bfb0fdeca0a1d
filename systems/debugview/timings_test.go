package debugview_test

import (
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/debugview"
	"github.com/mlange-42/arche-model/model"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slowSystem takes 1 ms of wall time per Update.
type slowSystem struct{}

func (slowSystem) Initialize(*arche.World) {}
func (slowSystem) Update(*arche.World)     { time.Sleep(time.Millisecond) }
func (slowSystem) Finalize(*arche.World)   {}
func (slowSystem) Name() string            { return "slow" }

// TestChartUnderArcheModel: under arche-model (no ecs.Scheduler) the page's
// per-system chart gets its times from an ecs.Timings whose Time wraps each
// system where it is added to the Model: every system by name, in order, the
// slow one's ms per frame at least its sleep, the viewer's own entry its work.
func TestChartUnderArcheModel(t *testing.T) {
	tm := &ecs.Timings{}
	v := debugview.New()
	v.Speed, v.Every, v.Times = 0, 1, tm
	m := model.New()
	arche.AddResource(&m.World, grid.New(8, 8))
	for _, s := range []ecs.System{ecs.NewClockSystem(1.0 / 60), &systems.Spatial{}, slowSystem{}, &systems.Movement{}, v} {
		m.AddSystem(tm.Time(s))
	}
	m.Initialize()
	defer func() { v.Close(); m.Finalize() }()
	srv := httptest.NewServer(v.Handler())
	defer srv.Close()
	for range 4 {
		m.Update()
	}
	s := getState(t, srv)
	require.Len(t, s.Systems, 5, "%+v", s.Systems)
	names := make([]string, len(s.Systems))
	for i, x := range s.Systems {
		names[i] = x.Name
	}
	assert.Equal(t, []string{"clock", "spatial", "slow", "movement", "debugview"}, names)
	assert.GreaterOrEqual(t, s.Systems[2].Ms, 1.0, "1 ms a frame")
	assert.Less(t, s.Systems[4].Ms, 1.0, "the viewer's work alone")
}

// TestTimesANilPointerIsASetupError: Viewer.Times set to a nil *ecs.Timings or
// *ecs.Scheduler (a timer left unset in the program's struct) is an ErrSettings
// error at Initialize naming the field, not a nil dereference at the first
// snapshot.
func TestTimesANilPointerIsASetupError(t *testing.T) {
	var tm *ecs.Timings
	var sched *ecs.Scheduler
	for _, timer := range []debugview.Timer{tm, sched} {
		world := arche.NewWorld()
		v := debugview.New()
		v.Times = timer
		err := ecs.NewScheduler(v).InitializeChecked(&world)
		require.ErrorIs(t, err, ecs.ErrSettings)
		assert.EqualError(t, err, fmt.Sprintf("debugview: Viewer.Times is a nil %T; set it to the *ecs.Scheduler or *ecs.Timings that times the systems, or leave it unset (nil)", timer))
	}
}
