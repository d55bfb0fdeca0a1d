package save_test

import (
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/bt"
	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	"github.com/archai-go/archai/systems/save"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// pendingWorld is a 40×40 grid with a wall and 4 agents whose paths wait in a path
// queue of a tiny budget: after one frame every one is PathPending.
func pendingWorld(t *testing.T) (*arche.World, *systems.PathQueue, []arche.Entity) {
	world := arche.NewWorld()
	w := &world
	g := grid.New(40, 40)
	for y := int32(0); y < 36; y++ {
		g.SetCost(grid.Cell{X: 20, Y: y}, grid.Blocked)
	}
	arche.AddResource(w, g)
	pq := &systems.PathQueue{Budget: 5}
	pq.Initialize(w)
	m := generic.NewMap2[components.Position, components.Path](w)
	var es []arche.Entity
	for i := range 4 {
		es = append(es, m.NewWith(&components.Position{Vec: r2.Vec{X: 2.5, Y: 2.5 + float64(i)}},
			&components.Path{Want: true, Goal: grid.Cell{X: 35, Y: 2 + int32(i)}}))
	}
	pq.Update(w)
	for _, e := range es {
		_, p := m.Get(e)
		require.Equal(t, components.PathPending, p.State)
	}
	return w, pq, es
}

// A world loaded without restoring its path queue's state used to leave its pending
// agents waiting forever, with Diagnose silent. Now Diagnose counts them as
// path_not_queued, and the new queue asks for their paths again (Requeued), so every
// agent gets one.
func TestLoadWithoutRestoreIsReportedAndRecovers(t *testing.T) {
	w, pq, es := pendingWorld(t)
	data, err := save.Save(w, nil, pq)
	require.NoError(t, err)

	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	lw := l.World
	arche.AddResource(lw, ecs.Resource[grid.Grid](w))
	pq2 := &systems.PathQueue{Budget: 200}
	pq2.Initialize(lw) // and no l.Restore(pq2)

	r := systems.Diagnose(lw)
	assert.Equal(t, len(es), r.Counts[systems.CausePathNotQueued], r.String())
	assert.Contains(t, r.String(), "path_not_queued 4")

	pq2.Update(lw)
	assert.Equal(t, len(es), pq2.Requeued)
	assert.Equal(t, 0, systems.Diagnose(lw).Counts[systems.CausePathNotQueued])
	m := generic.NewMap1[components.Path](lw)
	for range 100 {
		pq2.Update(lw)
	}
	assert.Equal(t, int64(len(es)), pq2.TotalRequeued, "asked again once each")
	for _, e := range es {
		p := m.Get(e)
		assert.Equal(t, components.PathReady, p.State, "entity %d", e.ID())
	}

	// restored, nothing is orphaned and the run goes on as saved
	l2, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	arche.AddResource(l2.World, ecs.Resource[grid.Grid](w))
	pq3 := &systems.PathQueue{Budget: 5}
	pq3.Initialize(l2.World)
	require.NoError(t, l2.Restore(pq3))
	assert.Equal(t, 0, systems.Diagnose(l2.World).Counts[systems.CausePathNotQueued])
	pq3.Update(l2.World)
	assert.Equal(t, 0, pq3.Requeued)
}

// A queue that never loses requests never asks again: pending agents, replaced
// requests and an agent removed while it waits.
func TestPathQueueRequeuesNothingInANormalRun(t *testing.T) {
	w, pq, es := pendingWorld(t)
	m := generic.NewMap1[components.Path](w)
	m.Get(es[1]).Want = true // a request replacing a waiting one
	w.RemoveEntity(es[2])
	pq.Budget = 200
	for range 100 {
		assert.Equal(t, 0, systems.Diagnose(w).Counts[systems.CausePathNotQueued])
		pq.Update(w)
		assert.Equal(t, 0, pq.Requeued)
	}
	assert.Equal(t, components.PathReady, m.Get(es[0]).State)
}

// Restoring into systems not yet initialized used to crash with a nil pointer; it is an
// error naming the fix.
func TestRestoreBeforeInitializeIsAnError(t *testing.T) {
	w, pq, _ := pendingWorld(t)
	ff := &systems.FlowField{}
	ff.Initialize(w)
	data, err := save.Save(w, nil, pq, ff)
	require.NoError(t, err)
	l, err := save.Load(data, save.Registry{})
	require.NoError(t, err)
	arche.AddResource(l.World, ecs.Resource[grid.Grid](w))
	pq2 := &systems.PathQueue{}
	err = l.Restore(pq2, &systems.FlowField{})
	require.Error(t, err)
	assert.ErrorIs(t, err, systems.ErrNotInitialized)
	assert.ErrorIs(t, err, save.ErrState)
	assert.ErrorContains(t, err, "call Initialize")

	ff2 := &systems.FlowField{}
	err = ff2.LoadState([]byte(`{}`))
	assert.ErrorIs(t, err, systems.ErrNotInitialized)
}

// Two different trees compiled under one name used to save as one: after a load both
// agents ran the tree the registry held under that name. Save refuses it.
func TestSaveRefusesTwoTreesUnderOneName(t *testing.T) {
	world := arche.NewWorld()
	w := &world
	arche.AddResource(w, grid.New(8, 8))
	reg := bt.NewRegistry(blackboard.NewSchema())
	ok := func(*bt.Context) bt.Status { return bt.Success }
	left, err := bt.Compile("walker", bt.Action("left", ok))
	require.NoError(t, err)
	right, err := bt.Compile("walker", bt.Action("right", ok))
	require.NoError(t, err)
	for _, tree := range []*bt.Tree{left, right} {
		sp, err := systems.NewSpawner(w, systems.Thinker{Tree: tree, Registry: reg})
		require.NoError(t, err)
		sp.Spawn(r2.Vec{X: 1.5, Y: 1.5}, nil)
	}
	_, err = save.Save(w, nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, save.ErrDuplicateID)
	assert.ErrorContains(t, err, `two different trees named "walker"`)

	// the same tree on many agents is fine
	world2 := arche.NewWorld()
	w2 := &world2
	sp, err := systems.NewSpawner(w2, systems.Thinker{Tree: left, Registry: reg})
	require.NoError(t, err)
	sp.Spawn(r2.Vec{X: 1.5, Y: 1.5}, nil)
	sp.Spawn(r2.Vec{X: 2.5, Y: 1.5}, nil)
	_, err = save.Save(w2, nil)
	assert.NoError(t, err)
}
