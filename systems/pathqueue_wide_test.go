package systems

import (
	"testing"

	"github.com/archai-go/archai/components"
	"github.com/archai-go/archai/nav/grid"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// A wide agent's search in progress is saved with its clearance and comes
// back as the same search: loaded, it finishes with the same path as the
// queue that never stopped.
func TestPathQueueSavesAWideSearch(t *testing.T) {
	w, g := newWorld(32, 32)
	for y := int32(0); y < 28; y++ {
		g.SetCost(grid.Cell{X: 16, Y: y}, grid.Blocked)
	}
	m := generic.NewMap3[components.Path, components.Position, components.Kinematics](w)
	e := m.New()
	p, pos, kin := m.Get(e)
	pos.Vec = r2.Vec{X: 2.5, Y: 2.5}
	kin.Radius = 1.2
	p.Want, p.Goal = true, grid.Cell{X: 30, Y: 2}

	pq := &PathQueue{Budget: 40}
	pq.Initialize(w)
	pq.Update(w)
	st := pq.State()
	require.NotNil(t, st.Active, "the search is carried over")
	assert.Equal(t, uint8(2), st.Active.Clearance)
	raw, err := pq.SaveState()
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"clearance":2`)

	other := &PathQueue{Budget: 40}
	other.Initialize(w)
	require.NoError(t, other.LoadState(raw))
	assert.Equal(t, st, other.State())
	for f := 0; f < 1000 && other.TotalServed == 0; f++ {
		other.Update(w)
	}
	p, _, _ = m.Get(e)
	require.Equal(t, components.PathReady, p.State)
	for _, c := range p.Waypoints[1:] {
		assert.GreaterOrEqual(t, g.Clearance(c), uint8(2), "the loaded search keeps the clearance")
	}
}
