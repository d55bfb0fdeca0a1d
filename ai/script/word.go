package script

import (
	"encoding/binary"
	"math"
	"reflect"
)

// Blackboard words: an entry of at most 8 bytes is the first bytes of a word in memory
// order (blackboard.Scalar); encoding/binary's NativeEndian reads and writes them.

func bytesOf(w uint64) [8]byte {
	var b [8]byte
	binary.NativeEndian.PutUint64(b[:], w)
	return b
}

func wordOf(b [8]byte) uint64 { return binary.NativeEndian.Uint64(b[:]) }

// decodeInt reads an integer entry of Go kind k from its word; false for a uint64
// beyond int64.
func decodeInt(w uint64, k reflect.Kind) (int64, bool) {
	b := bytesOf(w)
	e := binary.NativeEndian
	switch k {
	case reflect.Int8:
		return int64(int8(b[0])), true
	case reflect.Uint8:
		return int64(b[0]), true
	case reflect.Int16:
		return int64(int16(e.Uint16(b[:2]))), true
	case reflect.Uint16:
		return int64(e.Uint16(b[:2])), true
	case reflect.Int32:
		return int64(int32(e.Uint32(b[:4]))), true
	case reflect.Uint32:
		return int64(e.Uint32(b[:4])), true
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		if intSize == 4 && k != reflect.Uint64 {
			return int64(e.Uint32(b[:4])), true
		}
		return int64(w), w <= math.MaxInt64
	case reflect.Int:
		if intSize == 4 {
			return int64(int32(e.Uint32(b[:4]))), true
		}
	}
	return int64(w), true
}

// encodeInt writes v as an integer entry of Go kind k; false if it does not fit.
func encodeInt(v int64, k reflect.Kind) (uint64, bool) {
	var b [8]byte
	e := binary.NativeEndian
	switch k {
	case reflect.Int8:
		b[0] = byte(v)
		return wordOf(b), v == int64(int8(v))
	case reflect.Uint8:
		b[0] = byte(v)
		return wordOf(b), v == int64(uint8(v))
	case reflect.Int16:
		e.PutUint16(b[:2], uint16(v))
		return wordOf(b), v == int64(int16(v))
	case reflect.Uint16:
		e.PutUint16(b[:2], uint16(v))
		return wordOf(b), v == int64(uint16(v))
	case reflect.Int32:
		e.PutUint32(b[:4], uint32(v))
		return wordOf(b), v == int64(int32(v))
	case reflect.Uint32:
		e.PutUint32(b[:4], uint32(v))
		return wordOf(b), v == int64(uint32(v))
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		if intSize == 4 && k != reflect.Uint64 {
			e.PutUint32(b[:4], uint32(v))
			return wordOf(b), v == int64(uint32(v))
		}
		return uint64(v), v >= 0
	case reflect.Int:
		if intSize == 4 {
			e.PutUint32(b[:4], uint32(v))
			return wordOf(b), v == int64(int32(v))
		}
	}
	return uint64(v), true
}

// intSize is the size of int, uint and uintptr in bytes.
const intSize = 4 << (^uint(0) >> 63)
