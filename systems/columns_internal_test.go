package systems

import (
	"testing"
	"unsafe"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
)

// TestColumnsMatchQuery checks that columns addresses the same components a
// plain walk of the query gets, over several archetypes (one lacking the
// optional column) whose entities were created interleaved.
func TestColumnsMatchQuery(t *testing.T) {
	w := arche.NewWorld()
	posID := arche.ComponentID[components.Position](&w)
	velID := arche.ComponentID[components.Velocity](&w)
	wtID := arche.ComponentID[components.SteeringWeights](&w)
	kinID := arche.ComponentID[components.Kinematics](&w)
	for i := 0; i < 300; i++ {
		ids := []arche.ID{posID, velID}
		switch i % 3 {
		case 1:
			ids = append(ids, wtID)
		case 2:
			ids = append(ids, wtID, kinID)
		}
		e := w.NewEntity(ids...)
		(*components.Position)(w.Get(e, posID)).X = float64(i)
	}
	f := generic.NewFilter3[components.Position, components.Velocity, components.SteeringWeights]().
		Optional(generic.T[components.SteeringWeights]())
	var c columns
	c.column(posID, unsafe.Sizeof(components.Position{}))
	c.column(velID, unsafe.Sizeof(components.Velocity{}))
	c.column(wtID, unsafe.Sizeof(components.SteeringWeights{}))
	q := f.Query(&w)
	c.scanRuns(&w, &q.Query) // runs only: the same runs, no entity
	require.Equal(t, 300, c.count)
	require.Empty(t, c.ents)
	runs := append([]columnRun(nil), c.runs...)
	q = f.Query(&w)
	c.scan(&w, &q.Query)
	require.Len(t, c.ents, 300)
	require.Equal(t, 300, c.count)
	require.Len(t, c.runs, 3, "one run per archetype")
	require.Equal(t, c.runs, runs, "scanRuns finds scan's runs")

	q = f.Query(&w)
	r := 0
	for i := 0; q.Next(); i++ {
		pos, vel, wt := q.Get()
		r = c.run(i, r)
		require.Equal(t, q.Entity(), c.ents[i])
		require.Equal(t, unsafe.Pointer(pos), c.at(r, 0, i), "entity %d", i)
		require.Equal(t, unsafe.Pointer(vel), c.at(r, 1, i), "entity %d", i)
		require.Equal(t, unsafe.Pointer(wt), c.at(r, 2, i), "entity %d", i)
		ps := columnOf[components.Position](&c, r, 0, len(c.ents))
		require.Same(t, pos, &ps[i-c.runs[r].start], "entity %d", i)
		require.Equal(t, float64(int(pos.X)), pos.X)
		if ws := columnOf[components.SteeringWeights](&c, r, 2, len(c.ents)); wt == nil {
			require.Nil(t, ws)
		} else {
			require.Same(t, wt, &ws[i-c.runs[r].start], "entity %d", i)
		}
	}
}

// relTarget is a relation component: agents of one archetype per target.
type relTarget struct{ arche.Relation }

// TestColumnsRelationRuns checks that archetypes of one mask (a relation
// component with several targets) are separate runs of the right lengths,
// that scan and scanRuns agree with a plain walk of the query, and that a
// warm scan allocates nothing.
func TestColumnsRelationRuns(t *testing.T) {
	w := arche.NewWorld()
	posID := arche.ComponentID[components.Position](&w)
	relID := arche.ComponentID[relTarget](&w)
	targets := []arche.Entity{w.NewEntity(), w.NewEntity(), w.NewEntity()}
	lens := []int{5, 130, 1} // 130 > Arche's first capacity: one archetype grows
	builder := arche.NewBuilder(&w, posID, relID).WithRelation(relID)
	for k, tg := range targets {
		for i := 0; i < lens[k]; i++ {
			e := builder.New(tg)
			(*components.Position)(w.Get(e, posID)).X = float64(100*k + i)
		}
	}
	f := generic.NewFilter1[components.Position]()
	var c columns
	c.column(posID, unsafe.Sizeof(components.Position{}))
	for _, withEnts := range []bool{false, true, true} {
		q := f.Query(&w)
		if withEnts {
			c.scan(&w, &q.Query)
		} else {
			c.scanRuns(&w, &q.Query)
		}
		require.Equal(t, 136, c.count)
		require.Len(t, c.runs, 3, "one run per relation target")
		q = f.Query(&w)
		r := 0
		top := -1
		for i := 0; q.Next(); i++ {
			r = c.run(i, r)
			require.Equal(t, unsafe.Pointer(q.Get()), c.at(r, 0, i), "entity %d", i)
			top = max(top, int(q.Entity().ID()))
			if withEnts {
				require.Equal(t, q.Entity(), c.ents[i])
			}
		}
		if withEnts {
			require.Equal(t, top, c.top)
		} else {
			require.Empty(t, c.ents)
			require.Equal(t, -1, c.top)
		}
		for r := range c.runs {
			require.Contains(t, lens, c.end(r, c.count)-c.runs[r].start)
		}
	}
	allocs := testing.AllocsPerRun(20, func() {
		q := f.Query(&w)
		c.scan(&w, &q.Query)
		q = f.Query(&w)
		c.scanRuns(&w, &q.Query)
	})
	require.Zero(t, allocs, "a warm scan allocates nothing")
	require.False(t, w.IsLocked(), "every query closed")
}

// TestColumnsScanShared checks that scanShared gives scan's entities, runs
// and largest ID with 1 to 3 workers over a query of several archetypes
// (more entities than it reads alone), and allocates nothing warm.
func TestColumnsScanShared(t *testing.T) {
	w := arche.NewWorld()
	posID := arche.ComponentID[components.Position](&w)
	velID := arche.ComponentID[components.Velocity](&w)
	wtID := arche.ComponentID[components.SteeringWeights](&w)
	kinID := arche.ComponentID[components.Kinematics](&w)
	n := 2*minSharedEntities + 37
	for i := 0; i < n; i++ {
		ids := []arche.ID{posID, velID}
		switch i % 5 {
		case 1, 3:
			ids = append(ids, wtID)
		case 2:
			ids = append(ids, kinID)
		}
		w.NewEntity(ids...)
	}
	f := generic.NewFilter3[components.Position, components.Velocity, components.SteeringWeights]().
		Optional(generic.T[components.SteeringWeights]())
	var want columns
	want.column(posID, unsafe.Sizeof(components.Position{}))
	want.column(wtID, unsafe.Sizeof(components.SteeringWeights{}))
	q := f.Query(&w)
	want.scan(&w, &q.Query)
	require.Equal(t, n, want.count)
	require.Len(t, want.runs, 3)
	for _, workers := range []int{1, 2, 3} {
		pool := ecs.NewWorkers(workers)
		var c columns
		c.column(posID, unsafe.Sizeof(components.Position{}))
		c.column(wtID, unsafe.Sizeof(components.SteeringWeights{}))
		c.scanShared(&w, f.Filter(&w), pool)
		require.Equal(t, want.ents, c.ents, "%d workers", workers)
		require.Equal(t, want.runs, c.runs, "%d workers", workers)
		require.Equal(t, want.top, c.top, "%d workers", workers)
		require.Equal(t, n, c.count)
		require.False(t, w.IsLocked(), "every query closed")
		allocs := testing.AllocsPerRun(10, func() { c.scanShared(&w, f.Filter(&w), pool) })
		require.Zero(t, allocs, "%d workers: a warm scanShared allocates nothing", workers)
		pool.Close()
	}
}

// TestColumnsEntitiesAt checks that entitiesAt reads scan's entity at each
// index asked (the first, the last, both sides of archetype boundaries,
// long jumps), leaves the world unlocked and allocates nothing warm.
func TestColumnsEntitiesAt(t *testing.T) {
	w := arche.NewWorld()
	posID := arche.ComponentID[components.Position](&w)
	velID := arche.ComponentID[components.Velocity](&w)
	kinID := arche.ComponentID[components.Kinematics](&w)
	for i := 0; i < 600; i++ {
		ids := []arche.ID{posID}
		if i%3 == 1 {
			ids = append(ids, velID)
		}
		if i%3 == 2 {
			ids = append(ids, kinID)
		}
		w.NewEntity(ids...)
	}
	f := generic.NewFilter1[components.Position]()
	var want, c columns
	want.column(posID, unsafe.Sizeof(components.Position{}))
	c.column(posID, unsafe.Sizeof(components.Position{}))
	q := f.Query(&w)
	want.scan(&w, &q.Query)
	require.Len(t, want.runs, 3)
	idx := []int32{0, 1, 199, 200, 201, 399, 400, 599}
	q = f.Query(&w)
	c.scanRuns(&w, &q.Query)
	c.entitiesAt(&w, f.Filter(&w), idx)
	for _, i := range idx {
		require.Equal(t, want.ents[i], c.ents[i], "index %d", i)
	}
	require.False(t, w.IsLocked(), "every query closed")
	allocs := testing.AllocsPerRun(10, func() { c.entitiesAt(&w, f.Filter(&w), idx) })
	require.Zero(t, allocs)
	require.Panics(t, func() { c.entitiesAt(&w, f.Filter(&w), []int32{600}) })
}
