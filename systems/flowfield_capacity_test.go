package systems

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// An absurd FlowField.Capacity or MaxFields (a byte count, or a typo with three zeros
// too many) is named at Initialize. Capacity used to size the cache's slices and map at
// once: 2^50 died in the runtime ("makeslice: cap out of range"), a smaller absurd value
// asked for terabytes, with Reserve building that many fields.
func TestFlowFieldPanicsOnAbsurdCapacity(t *testing.T) {
	for _, f := range []*FlowField{{Capacity: math.MaxInt, Workers: 1}, {MaxFields: MaxFlowFields + 1, Workers: 1}} {
		w, _ := newWorld(4, 4)
		assert.PanicsWithError(t, "systems: FlowField.Capacity ("+strconv.Itoa(f.Capacity)+") and MaxFields ("+strconv.Itoa(f.MaxFields)+
			") must be at most MaxFlowFields (65536): they count fields (goals held at once), not bytes",
			func() { f.Initialize(w) })
	}
	w, _ := newWorld(4, 4)
	ok := &FlowField{Capacity: MaxFlowFields, MaxFields: MaxFlowFields, Workers: 1}
	assert.NotPanics(t, func() { ok.Initialize(w) })
	ok.Finalize(w)
}

// A Reserve whose fields would not fit in memory is named at Initialize
// (flowfield.Cache.Reserve's error) instead of the process dying allocating them.
func TestFlowFieldPanicsOnAbsurdReserve(t *testing.T) {
	w, _ := newWorld(1024, 1024)
	f := &FlowField{Capacity: 4096, Reserve: 4096, Workers: 1}
	assert.PanicsWithError(t, "systems: FlowField.Reserve (4096) on this 1024×1024 grid: flowfield: Cache.Reserve(4096): 4096 more fields of 1052676 cells each is more than MaxReserveCells (1073741824) cells; reserve the fields held at once (2 for one goal that moves), not bytes",
		func() { f.Initialize(w) })
}
