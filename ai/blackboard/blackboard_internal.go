package blackboard

import (
	"fmt"
	"reflect"
)

func (s *Schema) declare(name string, typ reflect.Type) (int32, error) {
	if name == "" {
		return 0, fmt.Errorf("blackboard: %w", ErrEmptyName)
	}
	if s.index == nil {
		s.index = map[string]int32{}
	}
	if slot, ok := s.index[name]; ok {
		if e := &s.entries[slot]; e.typ != typ {
			return 0, fmt.Errorf("blackboard: %q: %w: %v, not %v", name, ErrTypeMismatch, e.typ, typ)
		}
		return slot, nil
	}
	c, n := classOf(typ)
	slot := int32(len(s.entries))
	var loss string
	if c == classAny {
		loss = jsonLossOf(typ, map[reflect.Type]bool{})
	}
	s.entries = append(s.entries, entry{name: name, typ: typ, class: c, idx: s.counts[c], loss: loss})
	s.counts[c] += n
	s.index[name] = slot
	return slot, nil
}

// classOf picks the storage of a type and the number of elements of that class's slice
// one value takes: ceil(size/8) words (at least one) for pointer-free types of at most
// [MaxInline] bytes, one string for strings, one interface slot for the rest.
func classOf(typ reflect.Type) (class, int32) {
	if typ.Kind() == reflect.String {
		return classString, 1
	}
	if typ.Size() <= MaxInline && typ.Align() <= 8 && pointerFree(typ) {
		return classWord, wordsOf(typ)
	}
	return classAny, 1
}

// pointerFree reports whether values of typ hold no pointer the garbage collector must
// see: no pointers, strings, slices, maps, interfaces, channels or functions, at any
// depth of arrays and structs.
func pointerFree(typ reflect.Type) bool {
	switch typ.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return typ.Len() == 0 || pointerFree(typ.Elem())
	case reflect.Struct:
		for i := range typ.NumField() {
			if !pointerFree(typ.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// grow sizes the store's slices to the schema.
func (st *Store) grow() {
	s := st.schema
	st.set = append(st.set, make([]bool, len(s.entries)-len(st.set))...)
	st.seq = append(st.seq, make([]uint64, len(s.entries)-len(st.seq))...)
	st.words = append(st.words, make([]uint64, int(s.counts[classWord])-len(st.words))...)
	st.strs = append(st.strs, make([]string, int(s.counts[classString])-len(st.strs))...)
	st.anys = append(st.anys, make([]any, int(s.counts[classAny])-len(st.anys))...)
}
