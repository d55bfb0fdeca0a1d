package blackboard

import (
	"fmt"
	"reflect"
	"unsafe"
)

// Untyped access, for loaders that learn a key's type at run time (such as a tree file's
// SetBlackboard node copying one key into another). The functions returned are built once
// and allocate nothing when called.

// DeclareType declares the key called name holding values of type typ: [Declare] for a
// type known only at run time. Errors as Declare; a nil typ is an error too.
func (s *Schema) DeclareType(name string, typ reflect.Type) error {
	if typ == nil {
		return fmt.Errorf("blackboard: %q: nil type", name)
	}
	_, err := s.declare(name, typ)
	return err
}

// Copier returns a function that copies the value of the key src into the key dst of a
// store made from s, and reports whether it did: false, changing nothing, if the store is
// nil or of another schema or src is not set. Both keys must be declared, with the same
// type: else an error wrapping [ErrUnknownKey] or [ErrTypeMismatch]. A boxed value is
// shared by both keys, not copied.
func (s *Schema) Copier(dst, src string) (func(*Store) bool, error) {
	d, err := s.entryOf(dst)
	if err != nil {
		return nil, err
	}
	from, err := s.entryOf(src)
	if err != nil {
		return nil, err
	}
	if d.typ != from.typ {
		return nil, fmt.Errorf("blackboard: copy %q to %q: %w: %v, not %v", src, dst, ErrTypeMismatch, d.typ, from.typ)
	}
	ds, ss := s.index[dst], s.index[src]
	di, si, n, c := d.idx, from.idx, wordsOf(d.typ), d.class
	return func(st *Store) bool {
		if st == nil || st.schema != s || int(ss) >= len(st.set) || !st.set[ss] {
			return false
		}
		if int(ds) >= len(st.set) {
			st.grow()
		}
		switch c {
		case classWord:
			copy(st.words[di:di+n], st.words[si:si+n])
		case classString:
			st.strs[di] = st.strs[si]
		default:
			st.anys[di] = st.anys[si]
		}
		st.set[ds] = true
		st.seq[ds]++
		return true
	}, nil
}

// Setter returns a function that sets the key called name to the constant v in a store
// made from s, and reports whether it did (false if the store is nil or of another
// schema). v must be assignable to the key's type: else an error wrapping
// [ErrTypeMismatch]; an undeclared name is an error wrapping [ErrUnknownKey].
func (s *Schema) Setter(name string, v any) (func(*Store) bool, error) {
	e, err := s.entryOf(name)
	if err != nil {
		return nil, err
	}
	if vt := reflect.TypeOf(v); vt == nil || !vt.AssignableTo(e.typ) {
		return nil, fmt.Errorf("blackboard: %q: %w: %v, not %v", name, ErrTypeMismatch, e.typ, vt)
	}
	slot, idx, c := s.index[name], e.idx, e.class
	rv := reflect.New(e.typ)
	rv.Elem().Set(reflect.ValueOf(v))
	var words []uint64
	var str string
	switch c {
	case classWord:
		words = make([]uint64, wordsOf(e.typ))
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), e.typ.Size()),
			unsafe.Slice((*byte)(rv.UnsafePointer()), e.typ.Size()))
	case classString:
		str = rv.Elem().String()
	}
	boxed := rv.Elem().Interface()
	return func(st *Store) bool {
		if st == nil || st.schema != s {
			return false
		}
		if int(slot) >= len(st.set) {
			st.grow()
		}
		switch c {
		case classWord:
			copy(st.words[idx:], words)
		case classString:
			st.strs[idx] = str
		default:
			st.anys[idx] = boxed
		}
		st.set[slot] = true
		st.seq[slot]++
		return true
	}, nil
}

// entryOf returns the entry of the key called name.
func (s *Schema) entryOf(name string) (*entry, error) {
	slot, ok := s.index[name]
	if !ok {
		return nil, fmt.Errorf("blackboard: %q: %w", name, ErrUnknownKey)
	}
	return &s.entries[slot], nil
}

// wordsOf is the number of words a classWord value of typ takes.
func wordsOf(typ reflect.Type) int32 { return int32(max(1, (typ.Size()+7)/8)) }
