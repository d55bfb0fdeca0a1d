package flowfield_test

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"testing"

	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// behindState is the state of a sector field whose sectors another field brought up
// to date with a grid edit since it built its own (Behind: it holds its seeds), on a
// 32² grid of 8² sectors.
func behindState(t *testing.T) (*flowfield.Sectors, flowfield.SectorFieldState) {
	return behindAfter(t, grid.Cell{X: 16, Y: 16})
}

// behindAfter is behindState with the edit that puts the field behind blocking cell edit.
func behindAfter(t *testing.T, edit grid.Cell) (*flowfield.Sectors, flowfield.SectorFieldState) {
	g := grid.New(32, 32)
	s, err := flowfield.NewSectors(g, 8)
	require.NoError(t, err)
	f, other := flowfield.NewSectorField(s), flowfield.NewSectorField(s)
	f.SetGoal(grid.Cell{X: 30, Y: 30})
	other.SetGoal(grid.Cell{X: 2, Y: 2})
	for c := int32(0); c < 32; c += 3 {
		f.Request(grid.Cell{X: c, Y: 31 - c})
		other.Request(grid.Cell{X: c, Y: c})
	}
	for range 50 {
		f.Update(1 << 20)
		other.Update(1 << 20)
	}
	g.SetCost(edit, grid.Blocked)
	other.Update(1 << 20) // the sectors catch up with the edit; f is behind them
	st, err := f.State()
	require.NoError(t, err)
	require.True(t, st.Behind)
	require.NotEmpty(t, st.Built)
	return s, st
}

// A Behind state whose goal is off the grid, whose seeds lie off the grid or hold NaN,
// or whose values are NaN (with a matching sum) is refused; it was taken, and the field
// then had sectors built for a goal nobody could reach (a reviewer). The state as saved
// is taken.
func TestSectorFieldRestoreRefusesACorruptBehindState(t *testing.T) {
	s, st := behindState(t)
	require.NoError(t, flowfield.NewSectorField(s).Restore(st))

	_, bad := behindState(t)
	bad.Goal = grid.Cell{X: -7, Y: 1 << 20}
	err := flowfield.NewSectorField(s).Restore(bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "off the 32×32 grid")

	_, bad = behindState(t)
	est := binary.LittleEndian.AppendUint32(nil, 1<<30)
	est = binary.LittleEndian.AppendUint32(est, 0xFFFFFF00)
	est = binary.LittleEndian.AppendUint32(est, math.Float32bits(float32(math.NaN())))
	bad.Built[0].Est = est
	err = flowfield.NewSectorField(s).Restore(bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a finite cost ≥ 0")

	_, bad = behindState(t)
	b := &bad.Built[0]
	binary.LittleEndian.PutUint32(b.D, math.Float32bits(float32(math.NaN())))
	h := fnv.New64a()
	h.Write(b.D)
	h.Write(b.Dir)
	b.Sum = h.Sum64()
	err = flowfield.NewSectorField(s).Restore(bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a cost ≥ 0")
}

// A Behind state whose goal cell the edit that put it behind blocked (a door closing on
// the goal) is the field's own and loads (a reviewer: a first check refused it, so a
// game saved then could not load its file).
func TestSectorFieldRestoresABehindStateWhoseGoalWasBlocked(t *testing.T) {
	s, st := behindAfter(t, grid.Cell{X: 30, Y: 30}) // on the field's goal
	require.NoError(t, flowfield.NewSectorField(s).Restore(st))
}
