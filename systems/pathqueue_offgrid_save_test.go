package systems

import (
	"math"
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// Requests from a cell off the grid (searched from its entry) and to a goal off
// the grid (answered PathUnreachable) are queued like any other while a search is
// under way; a queue loaded from a state saved then takes them back and answers
// them as the saved queue would. Before, LoadState refused the state its own
// SaveState had written ("job ... is off the grid"), so the world could not be
// loaded.
func TestPathQueueLoadsRequestsOffTheGrid(t *testing.T) {
	w, g := newWorld(32, 32)
	for y := int32(0); y < 28; y++ {
		g.SetCost(grid.Cell{X: 16, Y: y}, grid.Blocked)
	}
	m := generic.NewMap2[components.Path, components.Position](w)
	req := func(at r2.Vec, goal grid.Cell) {
		e := m.New()
		p, pos := m.Get(e)
		pos.Vec = at
		p.Want, p.Goal = true, goal
	}
	req(r2.Vec{X: 2.5, Y: 2.5}, grid.Cell{X: 30, Y: 2}) // a long search: still active after the first frame
	req(r2.Vec{X: -3.5, Y: 4.5}, grid.Cell{X: 5, Y: 5}) // from off the grid
	req(r2.Vec{X: 3.5, Y: 3.5}, grid.Cell{X: 4, Y: math.MinInt32})
	req(r2.Vec{X: 3.5, Y: 4.5}, grid.Cell{X: 40, Y: 5})

	pq := &PathQueue{Budget: 20}
	pq.Initialize(w)
	pq.Update(w)
	st := pq.State()
	require.NotNil(t, st.Active)
	require.Len(t, st.Queued, 3, "the requests off the grid wait behind the search")
	raw, err := pq.SaveState()
	require.NoError(t, err)

	other := &PathQueue{Budget: 20}
	other.Initialize(w)
	require.NoError(t, other.LoadState(raw))
	assert.Equal(t, st, other.State())
	for f := 0; f < 1000 && other.TotalServed < 4; f++ {
		other.Update(w)
	}
	want := []components.PathState{components.PathReady, components.PathReady, components.PathUnreachable, components.PathUnreachable}
	q := generic.NewFilter1[components.Path]().Query(w)
	for i := 0; q.Next(); i++ {
		assert.Equal(t, want[i], q.Get().State, "request %d", i)
	}
}
