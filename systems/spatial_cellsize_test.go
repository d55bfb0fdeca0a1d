package systems_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/archai-go/archai/ecs"
	"github.com/archai-go/archai/nav/grid"
	"github.com/archai-go/archai/systems"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// initPanic initializes a Spatial with cell on a fresh w×h world and returns the panic's
// message ("" if none).
func initPanic(t *testing.T, cell float64, w, h int) (msg string) {
	t.Helper()
	world := arche.NewWorld()
	g, err := grid.NewChecked(w, h)
	require.NoError(t, err)
	arche.AddResource(&world, g)
	s := &systems.Spatial{CellSize: cell, Workers: 1}
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		} else {
			s.Finalize(&world)
		}
	}()
	s.Initialize(&world)
	return ""
}

// A negative, NaN, infinite or tiny Spatial.CellSize panicked at Initialize with
// nav/spatial's message ("spatial: NewHash(-1, 64, 64): arguments must be positive and
// finite", "spatial: NewHash: 6.4e+10×6.4e+10 buckets is too many"), which names neither
// the system nor the field the user set (a negative one was even replaced by the default
// in silence). The message now names Spatial.CellSize and its value, and for a tiny one
// the least side the map allows, which Initialize accepts.
func TestSpatialBadCellSizeNamesTheField(t *testing.T) {
	for _, c := range []float64{-1, math.NaN(), math.Inf(1), math.Inf(-1), -math.SmallestNonzeroFloat64} {
		msg := initPanic(t, c, 64, 64)
		assert.Contains(t, msg, fmt.Sprintf("systems: Spatial.CellSize is %v;", c))
		assert.NotContains(t, msg, "NewHash")
	}
	msg := initPanic(t, 1e-9, 64, 64)
	assert.Contains(t, msg, "systems: Spatial.CellSize is 1e-09: on the 64×64 map that makes 4.096e+21 buckets")
	assert.Contains(t, msg, "at least 0.008 cells")
	assert.Empty(t, initPanic(t, 0.008, 64, 64), "the least side named is accepted")
	assert.Empty(t, initPanic(t, 0, 64, 64), "0 is the default")
	assert.Empty(t, initPanic(t, 1e300, 64, 64), "one bucket")
}

// The scenarios' and the default Spatial still initialize (no behaviour change for good
// sizes).
func TestSpatialGoodCellSizes(t *testing.T) {
	for _, c := range []float64{0, 0.5, 1, systems.DefaultHashCell, 7.5} {
		world := arche.NewWorld()
		arche.AddResource(&world, grid.New(40, 30))
		sp := &systems.Spatial{CellSize: c}
		s := ecs.NewScheduler(ecs.NewClockSystem(1.0/60), sp)
		require.NotPanics(t, func() { s.Initialize(&world); s.Run(&world, 1) }, "CellSize %v", c)
		s.Finalize(&world)
		want := c
		if c == 0 {
			want = systems.DefaultHashCell
		}
		assert.Equal(t, want, sp.CellSize, "0 means DefaultHashCell; others are kept")
	}
}
