package systems

import (
	"testing"
	"unsafe"

	"github.com/archai-go/archai/components"
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
	c.scanRuns(&q.Query) // runs only: the same runs, no entity
	require.Equal(t, 300, c.count)
	require.Empty(t, c.ents)
	runs := append([]columnRun(nil), c.runs...)
	q = f.Query(&w)
	c.scan(&q.Query)
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
