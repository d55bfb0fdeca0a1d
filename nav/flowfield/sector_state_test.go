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
			if ia, ib := a.Integration(c), b.Integration(c); oka != okb || na != nb || ia != ib { // testify only on a mismatch
				require.Equal(t, oka, okb, "%v", c)
				require.Equal(t, na, nb, "%v", c)
				require.Equal(t, ia, ib, "%v", c)
			}
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

// A field left behind by grid edits (another field's Update refreshed the sectors,
// this one's goal is followed by nobody) is saved as it is (Behind, with its
// sectors' values, seeds and changes) and restored so: the restored field catches up
// at its next Update as the saved one does, cell for cell, through a second edit.
func TestSectorFieldStateBehind(t *testing.T) {
	g := grid.New(96, 96)
	for x := int32(0); x < 88; x++ {
		g.SetCost(grid.Cell{X: x, Y: 30}, grid.Blocked)
	}
	s, err := NewSectors(g, 16)
	require.NoError(t, err)
	used, old := NewSectorField(s), NewSectorField(s)
	used.SetGoal(grid.Cell{X: 80, Y: 80})
	old.SetGoal(grid.Cell{X: 10, Y: 10})
	for _, c := range []grid.Cell{{X: 90, Y: 40}, {X: 50, Y: 20}, {X: 5, Y: 60}, {X: 40, Y: 90}} {
		old.Request(c)
	}
	old.Update(3 * 16 * 16)
	g.SetCost(grid.Cell{X: 20, Y: 30}, 1) // a door in the wall
	g.SetCost(grid.Cell{X: 5, Y: 5}, 4)   // mud in the old goal's sector
	used.Update(0)                        // refreshes the sectors; old is behind
	_, ok := old.Next(grid.Cell{X: 50, Y: 20})
	require.False(t, ok, "behind: no direction until its Update")
	st, err := old.State()
	require.NoError(t, err)
	require.True(t, st.Behind)
	require.Len(t, st.Built, 4)
	changed := 0
	for _, b := range st.Built {
		require.NotNil(t, b.D)
		require.NotEmpty(t, b.Est, "sector %d", b.Sector)
		if b.Changed {
			changed++
		}
	}
	assert.Equal(t, 1, changed, "the goal's sector changed (mud); the door's sector was not built")

	fresh, err := NewSectors(g, 16) // as a loaded world builds them, on the edited grid
	require.NoError(t, err)
	back := NewSectorField(fresh)
	require.NoError(t, back.Restore(st))
	again, err := back.State()
	require.NoError(t, err)
	assert.Equal(t, st, again, "saved again as it was")

	for round, edit := range []func(){func() {}, func() { g.SetCost(grid.Cell{X: 60, Y: 30}, 1) }} {
		edit()
		for _, f := range []*SectorField{old, back} {
			f.Request(grid.Cell{X: 50, Y: 40})
			f.Update(2 * 16 * 16)
		}
		sameSectorField(t, old, back)
		a, err := old.State()
		require.NoError(t, err)
		b, err := back.State()
		require.NoError(t, err)
		assert.Equal(t, a, b, "round %d", round)
	}

	bad := st
	bad.Built = append([]SectorBuildState{}, st.Built...)
	bad.Built[1].Est = bad.Built[1].Est[:5]
	require.ErrorContains(t, NewSectorField(fresh).Restore(bad), "not 12 a seed")
	bad.Built[1] = st.Built[1]
	bad.Behind = false
	require.ErrorContains(t, NewSectorField(fresh).Restore(bad), "not Behind")
}
