package save_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A path queue's state naming an entity past the loaded world's pool is refused at
// restore with ErrDomain, naming the field (it used to panic on the first frame).
func TestPathQueueStateEntityPastThePool(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	w.NewEntity()
	w.NewEntity() // IDs 1 and 2 are in the pool
	pq := &systems.PathQueue{}
	pq.Initialize(w)
	for _, tc := range []struct{ state, field string }{
		{`{"next_seq":2,"queued":[{"start":{"X":0,"Y":0},"goal":{"X":3,"Y":3},"priority":0,"seq":1,"requests":[{"entity":[999999,0],"request":1}]}],"expanded":0}`,
			"queued[0].requests[0].entity: 999999"},
		{`{"next_seq":2,"queued":[],"active":{"start":{"X":0,"Y":0},"goal":{"X":3,"Y":3},"priority":0,"seq":1,"requests":[{"entity":[1,0],"request":1},{"entity":[5,0],"request":1}]},"expanded":0}`,
			"active.requests[1].entity: 5"},
	} {
		err := pq.LoadState([]byte(tc.state))
		require.Error(t, err)
		assert.ErrorIs(t, err, save.ErrDomain)
		assert.ErrorContains(t, err, tc.field)
		assert.Equal(t, 0, pq.State().Expanded)
		assert.Empty(t, pq.State().Queued, "the queue is left empty")
		assert.NotPanics(t, func() { pq.Update(w) })
	}
}

// squadRef is a program's component with entity references in a field and a slice.
type squadRef struct {
	Leader  arche.Entity
	Members []arche.Entity
}

// Every arche.Entity of every component is checked against the pool, archai's
// (SquadMember.Squad used to load and panic later) and the program's alike.
func TestLoadChecksEveryEntityField(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	m := generic.NewMap3[components.Position, components.SquadMember, squadRef](w)
	e := m.New()
	_, _, ref := m.Get(e)
	ref.Leader, ref.Members = e, []arche.Entity{e, e}
	data, err := save.Save(w, nil)
	require.NoError(t, err)
	reg := save.Registry{Components: []reflect.Type{reflect.TypeFor[squadRef]()}}
	_, err = save.Load(data, reg)
	require.NoError(t, err, "the saved file loads")
	for _, tc := range []struct{ from, to, field string }{
		{`"Squad":[0,0]`, `"Squad":[999999,0]`, "SquadMember.Squad: entity 999999"},
		{`"Leader":[1,0]`, `"Leader":[77,0]`, "squadRef.Leader: entity 77"},
		{`"Members":[[1,0],[1,0]]`, `"Members":[[1,0],[78,0]]`, "squadRef.Members[1]: entity 78"},
	} {
		bad := strings.Replace(string(data), tc.from, tc.to, 1)
		require.NotEqual(t, string(data), bad, tc.from)
		_, err := save.Load([]byte(bad), reg)
		assert.ErrorIs(t, err, save.ErrDomain, tc.field)
		assert.ErrorContains(t, err, tc.field)
	}
}

// A flow-field state cannot choose how many fields loading builds: its capacity is
// bounded by the FlowField's MaxFields and its fields by its capacity (a 194 KB file
// used to take 1.67 GB).
func TestFlowFieldStateIsBounded(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	ff := &systems.FlowField{MaxFields: 16}
	ff.Initialize(w)
	entries := func(n int) string {
		var es []string
		for i := range n {
			es = append(es, fmt.Sprintf(`{"goal":{"X":%d,"Y":%d},"last_use":1,"settled":0,"done":false}`, i%8, i/8))
		}
		return "[" + strings.Join(es, ",") + "]"
	}
	for _, tc := range []struct{ state, msg string }{
		{`{"tick":1,"capacity":1000000000,"entries":[]}`, "capacity 1000000000 outside 1..32"},
		{`{"tick":1,"capacity":0,"entries":[]}`, "capacity 0 outside 1..32"},
		{`{"tick":1,"capacity":4,"entries":` + entries(5) + `}`, "5 fields for a capacity of 4"},
	} {
		err := ff.LoadState([]byte(tc.state))
		assert.ErrorIs(t, err, save.ErrDomain)
		assert.ErrorContains(t, err, tc.msg)
	}
	dup := `{"tick":1,"capacity":16,"entries":[{"goal":{"X":1,"Y":1},"last_use":1,"settled":0,"done":false},{"goal":{"X":1,"Y":1},"last_use":1,"settled":0,"done":false}]}`
	assert.ErrorContains(t, ff.LoadState([]byte(dup)), "twice")
	off := `{"tick":1,"capacity":16,"entries":[{"goal":{"X":9,"Y":1},"last_use":1,"settled":0,"done":false}]}`
	// a goal off the grid loads: the cache holds one for a follower whose goal is off
	// the map (a field that reaches no cell), as the running system asked for it
	assert.NoError(t, ff.LoadState([]byte(off)))
	require.NoError(t, ff.LoadState([]byte(`{"tick":1,"capacity":16,"entries":`+entries(16)+`}`)))
	assert.Equal(t, 16, ff.Cache.Capacity())
}

// route is a program's component with its own domain, checked through save.Checker.
type route struct {
	Stops []float64
	Next  int
}

func (r route) Check() error { // a value receiver: Load finds it through the pointer too
	if r.Next < 0 || r.Next >= len(r.Stops) {
		return fmt.Errorf("route.Next: %d of %d stops", r.Next, len(r.Stops))
	}
	return nil
}

func TestLoadCallsChecker(t *testing.T) {
	var _ save.Checker = route{}
	world := arche.NewWorld()
	w := &world
	m := generic.NewMap1[route](w)
	e := m.New()
	m.Get(e).Stops = []float64{1, 2}
	data, err := save.Save(w, nil)
	require.NoError(t, err)
	reg := save.Registry{Components: []reflect.Type{reflect.TypeFor[route]()}}
	_, err = save.Load(data, reg)
	require.NoError(t, err)
	bad := strings.Replace(string(data), `"Stops":[1,2],"Next":0`, `"Stops":[1,2],"Next":2`, 1)
	require.NotEqual(t, string(data), bad)
	_, err = save.Load([]byte(bad), reg)
	assert.ErrorIs(t, err, save.ErrDomain)
	assert.ErrorContains(t, err, "entity 1 (components[0]): save_test.route: value out of its domain: route.Next: 2 of 2 stops")
}

// A Clock.Frame past MaxFrame cannot be a run's: Load refuses it (MaxInt64 used to
// load and overflow the frame count of the next frames).
func TestLoadRefusesAFrameThatCannotAdvance(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, &ecs.Clock{DT: 1.0 / 60, Frame: 90, Started: true})
	data, err := save.Save(w, nil)
	require.NoError(t, err)
	for _, tc := range []struct {
		frame string
		ok    bool
	}{{"9223372036854775807", false}, {"9007199254740993", false}, {"-1", false}, {"9007199254740992", true}, {"0", true}} {
		bad := strings.Replace(string(data), `"Frame":90`, `"Frame":`+tc.frame, 1)
		require.NotEqual(t, string(data), bad)
		_, err := save.Load([]byte(bad), save.Registry{})
		if tc.ok {
			assert.NoError(t, err, tc.frame)
		} else {
			assert.ErrorIs(t, err, save.ErrDomain, tc.frame)
			assert.ErrorContains(t, err, "Clock.Frame: "+tc.frame+" outside 0..9007199254740992")
		}
	}
}
