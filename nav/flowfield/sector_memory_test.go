package flowfield_test

import (
	"errors"
	"testing"

	"github.com/archai-go/archai/nav/flowfield"
	"github.com/archai-go/archai/nav/grid"
	"github.com/stretchr/testify/require"
)

// NewSectors refuses sectors too small for the grid (an estimated build over
// flowfield.MaxSectorBuildBytes) with ErrSectorMemory, naming the estimate,
// the limit and the smallest side it accepts, before allocating; it used to
// build them, gigabytes for 4-cell sectors near grid.MaxCells.
func TestNewSectorsRefusesSectorsTooSmallForTheGrid(t *testing.T) {
	require.Equal(t, int64(65536*1700+1<<20*4), flowfield.SectorBuildBytes(1024, 1024, 4))
	require.Equal(t, int64(16*1700+1024*4*4), flowfield.SectorBuildBytes(1024, 4, 0)) // 0: the default side, 64
	require.Equal(t, int64(3*2*1700+10*5*4), flowfield.SectorBuildBytes(10, 5, 4))    // partial sectors count whole
	require.Greater(t, flowfield.SectorBuildBytes(8192, 8192, 4), int64(7<<30)*9/10)
	require.Less(t, flowfield.SectorBuildBytes(8192, 8192, 64), int64(flowfield.MaxSectorBuildBytes))

	g := grid.New(4096, 2560) // 655,360 sectors of 4 cells: about 1,063 MiB
	_, err := flowfield.NewSectors(g, 4)
	require.True(t, errors.Is(err, flowfield.ErrSectorMemory), "%v", err)
	require.ErrorContains(t, err, "4-cell sectors over 4096×2560 cells would allocate about 1102 MiB")
	require.ErrorContains(t, err, "limit of 1024 MiB (flowfield.MaxSectorBuildBytes); use sectors of 5 cells or more")
	// a corridor one cell wide, 2^22 cells: a sector per 4 cells
	_, err = flowfield.NewSectors(grid.New(1<<22, 1), 4)
	require.True(t, errors.Is(err, flowfield.ErrSectorMemory), "%v", err)

	// sides within the limit build
	s, err := flowfield.NewSectors(grid.New(512, 512), 4)
	require.NoError(t, err)
	require.Equal(t, 4, s.Size())
}
