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
	c := classOf(typ)
	slot := int32(len(s.entries))
	s.entries = append(s.entries, entry{name: name, typ: typ, class: c, idx: s.counts[c]})
	s.counts[c]++
	s.index[name] = slot
	return slot, nil
}

// classOf picks the storage of a type: words for pointer-free scalars of at most 8 bytes.
func classOf(typ reflect.Type) class {
	switch typ.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		if typ.Size() <= 8 {
			return classWord
		}
	case reflect.String:
		return classString
	}
	return classAny
}

// grow sizes the store's slices to the schema.
func (st *Store) grow() {
	s := st.schema
	st.set = append(st.set, make([]bool, len(s.entries)-len(st.set))...)
	st.words = append(st.words, make([]uint64, int(s.counts[classWord])-len(st.words))...)
	st.strs = append(st.strs, make([]string, int(s.counts[classString])-len(st.strs))...)
	st.anys = append(st.anys, make([]any, int(s.counts[classAny])-len(st.anys))...)
}
