package systems

import (
	"math"
	"reflect"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// TestStoreAgentCopiesTheRecord: storeAgent (non-temporal stores on amd64)
// writes every byte of the record and nothing beside it, whatever was in the
// slot before; the fence leaves it to be read.
func TestStoreAgentCopiesTheRecord(t *testing.T) {
	hot := growLines(nil, 5)
	for i := range hot {
		hot[i] = steerAgent{pos: r2.Vec{X: -1, Y: -1}, kind: 7, out: 9}
	}
	a := steerAgent{pos: r2.Vec{X: 1.5, Y: math.Inf(-1)}, vel: r2.Vec{X: math.Copysign(0, -1), Y: 3},
		point: r2.Vec{X: math.NaN(), Y: 1e-310}, kind: 3<<kindBits | 12, aux: -1, out: 1 << 30}
	storeAgent(&hot[2], &a)
	storeFence()
	require.Equal(t, unsafe.Slice((*byte)(unsafe.Pointer(&a)), unsafe.Sizeof(a)),
		unsafe.Slice((*byte)(unsafe.Pointer(&hot[2])), unsafe.Sizeof(a)), "the record, to the bit")
	for _, i := range []int{0, 1, 3, 4} {
		require.Equal(t, steerAgent{pos: r2.Vec{X: -1, Y: -1}, kind: 7, out: 9}, hot[i], "slot %d untouched", i)
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
