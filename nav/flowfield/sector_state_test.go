package flowfield

import (
	"testing"

	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sameSectorField requires a and b to give every cell the same direction
// and integration value.
func sameSectorField(t *testing.T, a, b *SectorField) {
	t.Helper()
	g := a.Sectors().Grid()
	for y := int32(0); y < int32(g.Height()); y++ {
		for x := int32(0); x < int32(g.Width()); x++ {
			c := grid.Cell{X: x, Y: y}
			na, oka := a.Next(c)
			nb, okb := b.Next(c)
			require.Equal(t, oka, okb, "%v", c)
			require.Equal(t, na, nb, "%v", c)
			require.Equal(t, a.Integration(c), b.Integration(c), "%v", c)
		}
	}
}

// A sector field saved mid-build comes back the same, sector by sector in
// its build order (with the wanted sectors still wanted); after a grid edit
// its built sectors' values are saved and taken back as they are.
func TestSectorFieldStateRoundTrip(t *testing.T) {
	g := grid.New(96, 96)
	for x := int32(0); x < 88; x++ {
		g.SetCost(grid.Cell{X: x, Y: 30}, grid.Blocked)
	}
	s, err := NewSectors(g, 16)
	require.NoError(t, err)
	f := NewSectorField(s)
	f.SetGoal(grid.Cell{X: 10, Y: 10})
	for _, c := range []grid.Cell{{X: 90, Y: 40}, {X: 50, Y: 20}, {X: 5, Y: 60}, {X: 70, Y: 90}} {
		f.Request(c)
	}
	f.Update(2 * 16 * 16)
	st, err := f.State()
	require.NoError(t, err)
	assert.Len(t, st.Built, 3, "the goal's sector and two wanted ones")
	assert.Len(t, st.Wanted, 2)
	assert.False(t, st.Edited)
	assert.Nil(t, st.Built[1].D, "built again on restore, not saved")

	back := NewSectorField(s)
	require.NoError(t, back.Restore(st))
	sameSectorField(t, f, back)
	f.Update(1 << 20)
	back.Update(1 << 20)
	sameSectorField(t, f, back)

	// an edit: the field is refreshed, and its values are saved
	g.SetCost(grid.Cell{X: 88, Y: 30}, grid.Blocked)
	_, err = f.State()
	require.ErrorContains(t, err, "has not caught up with grid edits")
	f.Update(0)
	st, err = f.State()
	require.NoError(t, err)
	require.True(t, st.Edited)
	require.NotNil(t, st.Built[0].D)
	fresh, err := NewSectors(g, 16) // as a loaded world builds them, on the edited grid
	require.NoError(t, err)
	back = NewSectorField(fresh)
	require.NoError(t, back.Restore(st))
	sameSectorField(t, f, back)

	st.Built[0].Dir = st.Built[0].Dir[:10]
	bad := NewSectorField(fresh)
	require.ErrorContains(t, bad.Restore(st), "bytes of values and 10 of directions")
	_, ok := bad.Next(grid.Cell{X: 10, Y: 10})
	assert.False(t, ok, "no goal after a refused state")
}
