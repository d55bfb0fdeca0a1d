package systems

import (
	"slices"
	"testing"
	"unsafe"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/ecs"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
)

// TestColumnsSharedAndAtAcrossRelationArchetypes: scanShared (1 to 3
// workers, whose ranges start inside relation archetypes) and entitiesAt
// (every 7th index and both sides of each run's border) read the entities a
// plain walk of the query reads, over archetypes of one mask told apart by
// their relation target only, one of them the zero target, mixed with plain
// archetypes; and runs, count and largest ID agree with scan.
func TestColumnsSharedAndAtAcrossRelationArchetypes(t *testing.T) {
	w := arche.NewWorld()
	posID := arche.ComponentID[components.Position](&w)
	velID := arche.ComponentID[components.Velocity](&w)
	relID := arche.ComponentID[relTarget](&w)
	targets := []arche.Entity{{}, w.NewEntity(), w.NewEntity(), w.NewEntity()}
	withRel := arche.NewBuilder(&w, posID, relID).WithRelation(relID)
	plain := arche.NewBuilder(&w, posID)
	withVel := arche.NewBuilder(&w, posID, velID)
	n := 0
	for round := range 9 {
		for k, tg := range targets {
			for range 97 * (k + round%3 + 1) {
				if tg.IsZero() {
					withRel.New() // the zero target
				} else {
					withRel.New(tg)
				}
				n++
			}
		}
		for i := range 300 {
			if i%2 == 0 {
				plain.New()
			} else {
				withVel.New()
			}
			n++
		}
	}
	require.Greater(t, n, 2*minSharedEntities)
	f := generic.NewFilter1[components.Position]()
	var want columns
	want.column(posID, unsafe.Sizeof(components.Position{}))
	q := f.Query(&w)
	want.scan(&w, &q.Query)
	require.Equal(t, n, want.count)
	require.Len(t, want.runs, 6, "4 relation targets and 2 plain archetypes")
	q = f.Query(&w)
	for i := 0; q.Next(); i++ {
		require.Equal(t, q.Entity(), want.ents[i], "scan, entity %d", i)
	}
	for _, workers := range []int{1, 2, 3} {
		pool := ecs.NewWorkers(workers)
		var c columns
		c.column(posID, unsafe.Sizeof(components.Position{}))
		c.scanShared(&w, f.Filter(&w), pool)
		require.Equal(t, want.ents, c.ents, "%d workers", workers)
		require.Equal(t, want.runs, c.runs, "%d workers", workers)
		require.Equal(t, want.top, c.top, "%d workers", workers)
		pool.Close()
	}
	var idx []int32
	for i := 0; i < n; i += 7 {
		idx = append(idx, int32(i))
	}
	for r := 1; r < len(want.runs); r++ { // both sides of each border
		s := int32(want.runs[r].start)
		idx = append(idx, s-1, s)
	}
	idx = append(idx, int32(n-1))
	slices.Sort(idx)
	idx = slices.Compact(idx)
	var c columns
	c.column(posID, unsafe.Sizeof(components.Position{}))
	q = f.Query(&w)
	c.scanRuns(&w, &q.Query)
	c.entitiesAt(&w, f.Filter(&w), idx)
	for _, i := range idx {
		require.Equal(t, want.ents[i], c.ents[i], "entitiesAt %d", i)
	}
	require.False(t, w.IsLocked(), "every query closed")
}
