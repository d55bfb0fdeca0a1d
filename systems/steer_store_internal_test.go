package systems

import (
	"math"
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"github.com/archai-go/archai/components"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestStoreAgentWritesTheRecord: storeAgent (non-temporal stores on amd64)
// writes the record of its fields, every byte of it, and nothing beside it, whatever was in the slot before; the fence leaves it
// to be read.
func TestStoreAgentWritesTheRecord(t *testing.T) {
	hot := growLines(nil, 5)
	for i := range hot {
		hot[i] = steerAgent{pos: r2.Vec{X: -1, Y: -1}, kind: 7, out: 9}
	}
	hot[2].run = -1
	for _, a := range []steerAgent{
		{pos: r2.Vec{X: 1.5, Y: math.Inf(-1)}, vel: r2.Vec{X: math.Copysign(0, -1), Y: 3},
			point: r2.Vec{X: math.NaN(), Y: 1e-310}, kind: 3<<kindBits | 12, aux: -1, out: 1 << 30},
		{pos: r2.Vec{X: 2, Y: 3}, vel: r2.Vec{X: 4, Y: 5}, point: r2.Vec{X: 6, Y: 7}, kind: 1<<kindBits - 1, aux: 1<<31 - 1, out: 1, run: 5},
		{kind: math.MaxUint32, aux: math.MinInt32, out: math.MaxInt32, run: math.MaxInt32},
	} {
		pos, vel, point := a.pos, a.vel, a.point
		storeAgent(&hot[2], &pos, &vel, &point, uint64(a.kind)|uint64(uint32(a.aux))<<32, uint64(uint32(a.out))|uint64(uint32(a.run))<<32)
		storeFence()
		require.Equal(t, unsafe.Slice((*byte)(unsafe.Pointer(&a)), unsafe.Sizeof(a)),
			unsafe.Slice((*byte)(unsafe.Pointer(&hot[2])), unsafe.Sizeof(a)), "the record, to the bit: %+v", a)
		for _, i := range []int{0, 1, 3, 4} {
			require.Equal(t, steerAgent{pos: r2.Vec{X: -1, Y: -1}, kind: 7, out: 9}, hot[i], "slot %d untouched", i)
		}
	}
}

// TestGrowLinesAlignsAndClears: the hot records start on a cache line at any
// length, a new array is all empty slots (out 0), and a length within the
// capacity keeps the array.
func TestGrowLinesAlignsAndClears(t *testing.T) {
	var s []steerAgent
	for _, n := range []int{0, 1, 2, 3, 7, 64, 100, 1000, 5000, 40000, 10, 0, 41000} {
		old := s
		s = growLines(s, n)
		require.Len(t, s, n)
		require.GreaterOrEqual(t, cap(s), n)
		if n > 0 {
			require.Zero(t, uintptr(unsafe.Pointer(&s[0]))%64, "n %d: on a cache line", n)
		}
		if cap(old) >= n && n > 0 {
			require.Equal(t, unsafe.SliceData(old), unsafe.SliceData(s), "n %d: the same array", n)
			continue
		}
		for i := range s {
			require.Zero(t, s[i].out, "n %d: a new array's slots are empty", n)
			s[i].out = 1 // dirty it for the next length within the capacity
		}
		for i := range s {
			s[i].out = 0 // as the force pass leaves it
		}
	}
}

// TestSteerAgentHoldsNoPointers: storeAgent's stores bypass the garbage
// collector's write barrier, so the record must hold no pointer (a pointer
// field added to it must move out, as Steering did to Steer.outs).
func TestSteerAgentHoldsNoPointers(t *testing.T) {
	var check func(reflect.Type)
	check = func(ty reflect.Type) {
		switch ty.Kind() {
		case reflect.Struct:
			for i := range ty.NumField() {
				check(ty.Field(i).Type)
			}
		case reflect.Array:
			check(ty.Elem())
		case reflect.Bool, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int,
			reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint, reflect.Float32, reflect.Float64:
		default:
			t.Errorf("steerAgent holds a %v", ty)
		}
	}
	check(reflect.TypeFor[steerAgent]())
}

// TestSteerPrefetchLayout: the offsets prefetchBlock's assembly reads
// (and storeAgent's writes).
func TestSteerPrefetchLayout(t *testing.T) {
	amd64AssemblyOnly(t)
	var a steerAgent
	var pf steerPrefetch
	require.Equal(t, uintptr(0), unsafe.Offsetof(a.pos))
	require.Equal(t, []uintptr{16, 32, 48, 52, 56, 60}, []uintptr{unsafe.Offsetof(a.vel), unsafe.Offsetof(a.point),
		unsafe.Offsetof(a.kind), unsafe.Offsetof(a.aux), unsafe.Offsetof(a.out), unsafe.Offsetof(a.run)}, "storeAgent's too")
	require.Equal(t, []uintptr{0, 8, 16, 24, 32, 40}, []uintptr{unsafe.Offsetof(pf.outs), unsafe.Offsetof(pf.clr),
		unsafe.Offsetof(pf.more), unsafe.Offsetof(pf.w), unsafe.Offsetof(pf.fw), unsafe.Offsetof(pf.fh)})
}

// TestPrefetchBlockChangesNothing: prefetchBlock over records that are
// empty (out 0) or not, at positions on the grid's edges, off it, NaN and
// huge, and with no wall tables, writes no byte of the records, the
// components or the tables, and does not fault.
func TestPrefetchBlockChangesNothing(t *testing.T) {
	const w, h = 5, 3
	clr, more := make([]uint8, w*h), make([]uint8, w*h)
	for i := range clr {
		clr[i], more[i] = uint8(i), uint8(3*i)
	}
	st := make([]components.Steering, 4)
	for i := range st {
		st[i].Force = r2.Vec{X: float64(i), Y: -1}
	}
	outs := []*components.Steering{&st[0], &st[2]} // two runs, of two agents each
	nan, inf := math.NaN(), math.Inf(1)
	poss := []r2.Vec{{X: 0, Y: 0}, {X: 4.999, Y: 2.999}, {X: 5, Y: 1}, {X: 1, Y: 3}, {X: -1e-300, Y: 1},
		{X: 1, Y: -0.5}, {X: nan, Y: 1}, {X: 1, Y: nan}, {X: inf, Y: 1}, {X: 1e300, Y: -1e300}, {X: 2.5, Y: 1.5}}
	hot := growLines(nil, len(poss))
	for i, p := range poss {
		hot[i] = steerAgent{pos: p, vel: r2.Vec{X: 1}, kind: uint32(i), out: int32(i % 3), run: int32(i / 3 % 2)} // out 0: empty
	}
	before := slices.Clone(hot)
	stBefore := slices.Clone(st)
	for _, pf := range []steerPrefetch{
		{outs: unsafe.SliceData(outs), clr: &clr[0], more: &more[0], w: w, fw: w, fh: h},
		{outs: unsafe.SliceData(outs)}, // no tables: no position is on the grid
	} {
		for _, n := range []int{0, 1, len(hot)} {
			prefetchBlock(&hot[0], n, &pf)
		}
	}
	bytes := func(a []steerAgent) []byte {
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a))), len(a)*int(unsafe.Sizeof(a[0])))
	}
	require.Equal(t, bytes(before), bytes(hot), "the records, to the bit")
	require.Equal(t, stBefore, st)
	for i := range clr {
		require.Equal(t, uint8(i), clr[i])
		require.Equal(t, uint8(3*i), more[i])
	}
}
