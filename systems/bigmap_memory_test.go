package systems

import (
	"runtime"
	"testing"

	"github.com/archai-go/archai/nav/grid"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/require"
)

// Memory that grows with the map, not the crowd (big20): on a 4096² map a
// byte per cell is 16 MB, so each table a system keeps per cell is counted
// here, in bytes allocated per cell, on a map big enough that per-cell
// tables dwarf everything else.

// allocatedBytes returns the bytes f allocates on the heap (MemStats'
// TotalAlloc, freed or not).
func allocatedBytes(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// bigMapTown is a 1024² town map with rooms and streets (grid.GenerateTown).
func bigMapTown(t *testing.T) *grid.Grid {
	t.Helper()
	g, err := grid.GenerateTown(1024, 3)
	require.NoError(t, err)
	return g
}

// TestFlowFieldSectorModeReservesNoWholeGridField: in sector mode the
// flowfield.Cache stays empty, so Reserve must not allocate whole-grid fields
// (about 11 bytes per cell each, and on the 4096² swarm, Reserve 2 held 353 MB
// that nothing read). Initialize allocates the sector layer alone: the copy
// of the costs (4 bytes per cell) and the per-node directions (about 5), and
// the cache holds no field, free or in use, after it.
func TestFlowFieldSectorModeReservesNoWholeGridField(t *testing.T) {
	g := bigMapTown(t)
	g.Prepare()
	cells := float64(g.Width() * g.Height())
	for _, sectors := range []int{0, 64} {
		world := arche.NewWorld()
		w := &world
		arche.AddResource(w, g)
		flow := &FlowField{Sectors: sectors, Capacity: 2, Reserve: 2, Workers: 1}
		perCell := float64(allocatedBytes(func() { flow.Initialize(w) })) / cells
		t.Logf("Sectors %d: Initialize allocated %.1f bytes per cell", sectors, perCell)
		if sectors == 0 {
			require.Greater(t, perCell, 18.0, "whole-grid mode reserves its 2 fields (the test's yardstick)")
		} else {
			require.Less(t, perCell, 12.0, "sector mode: the sector layer only, no whole-grid field")
		}
		flow.Finalize(w)
	}
}
