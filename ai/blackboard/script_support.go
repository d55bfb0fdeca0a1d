package blackboard

import (
	"fmt"
	"reflect"
)

// Scalar is untyped access to one key whose type is a boolean, an integer, a float or a
// string, or a type defined on one (an enum such as type Mode int8): for interpreters
// that learn a key's type when they load, such as ai/script. Make it with
// [Schema.Scalar]; its methods allocate nothing. The zero Scalar reads and writes
// nothing.
type Scalar struct {
	schema *Schema
	slot   int32
	idx    int32
	class  class
}

// Scalar returns untyped access to the key called name, and the key's type. It returns
// an error wrapping [ErrUnknownKey] if name is not declared, or [ErrTypeMismatch] if the
// type's kind is not Bool, Int, Int8…Int64, Uint, Uint8…Uint64, Uintptr, Float32,
// Float64 or String.
func (s *Schema) Scalar(name string) (Scalar, reflect.Type, error) {
	e, err := s.entryOf(name)
	if err != nil {
		return Scalar{}, nil, err
	}
	switch e.typ.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.String:
	default:
		return Scalar{}, e.typ, fmt.Errorf("blackboard: %q: %w: %v is not a boolean, number or string", name, ErrTypeMismatch, e.typ)
	}
	return Scalar{schema: s, slot: s.index[name], idx: e.idx, class: e.class}, e.typ, nil
}

// Word returns the 8-byte word holding the value of a non-string key in st, and true.
// The value is the first Size bytes of the word in memory order (the other bytes are
// unspecified): decode it with encoding/binary's NativeEndian. It returns false if st
// is nil or of another schema, the key is not set, or it holds a string.
func (k Scalar) Word(st *Store) (uint64, bool) {
	if st == nil || k.schema == nil || st.schema != k.schema || k.class != classWord ||
		int(k.slot) >= len(st.set) || !st.set[k.slot] {
		st.missed(k.schema, k.slot)
		return 0, false
	}
	return st.words[k.idx], true
}

// SetWord sets a non-string key to the value held in the first Size bytes of w (in
// memory order, as [Scalar.Word] returns them) and reports whether it did: false if st
// is nil or of another schema, or the key holds a string.
func (k Scalar) SetWord(st *Store, w uint64) bool {
	if st == nil || k.schema == nil || st.schema != k.schema || k.class != classWord {
		return false
	}
	if int(k.slot) >= len(st.set) {
		st.grow()
	}
	st.words[k.idx] = w
	st.set[k.slot] = true
	st.seq[k.slot]++
	return true
}

// Str returns the value of a string key in st and true, or "" and false if st is nil or
// of another schema, the key is not set, or it is not a string.
func (k Scalar) Str(st *Store) (string, bool) {
	if st == nil || k.schema == nil || st.schema != k.schema || k.class != classString ||
		int(k.slot) >= len(st.set) || !st.set[k.slot] {
		st.missed(k.schema, k.slot)
		return "", false
	}
	return st.strs[k.idx], true
}

// SetStr sets a string key to v and reports whether it did: false if st is nil or of
// another schema, or the key is not a string.
func (k Scalar) SetStr(st *Store, v string) bool {
	if st == nil || k.schema == nil || st.schema != k.schema || k.class != classString {
		return false
	}
	if int(k.slot) >= len(st.set) {
		st.grow()
	}
	st.strs[k.idx] = v
	st.set[k.slot] = true
	st.seq[k.slot]++
	return true
}
