package blackboard

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// ErrBadSlot is returned (wrapped, with the key name) by [Schema.StoreFromSlots] when a
// saved slot does not fit the schema's key.
var ErrBadSlot = errors.New("slot does not fit its key")

// ErrNotSavable is returned (wrapped, with the key name and the reason) by [Store.Slots]
// for a boxed value that JSON cannot carry whole, so that a save does not lose it in
// silence: a struct with an unexported field (JSON writes nothing for it), a non-nil
// value of an interface type (the save cannot say which type to load it as), or a
// string that is not valid UTF-8 (JSON writes U+FFFD for its bad bytes), at any depth. Types with their own JSON or text encoding (time.Time, arche's Entity) are
// trusted, and a field tagged json:"-" is the program's choice. Export the fields, or
// give the type MarshalJSON and UnmarshalJSON methods.
var ErrNotSavable = errors.New("value cannot be saved as JSON without loss")

// Slot is one key of a [Store] as plain data, for saving and loading: whether it is
// set, its write count ([Seq]) and its value. A pointer-free value (up to [MaxInline]
// bytes) is kept as its raw 8-byte words, so every bit pattern (NaN and infinite
// floats, entity handles) survives; a string as Str; any other type as its JSON
// encoding in Value. Type is the key's declared Go type (reflect's String, such as
// "float64" or "r2.Vec") when the key is set: a store loaded by a program that declares
// the key with another type is refused, rather than reading the raw words as that type.
type Slot struct {
	Key   string          `json:"key"`
	Type  string          `json:"type,omitempty"`
	Set   bool            `json:"set,omitempty"`
	Seq   uint64          `json:"seq,omitempty"`
	Words []uint64        `json:"words,omitempty"`
	Str   string          `json:"str,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
}

// Slots returns st's keys that are set or were ever written, in declaration order (not
// those removed by [Schema.Truncate]). It
// returns an error naming the key if a boxed value cannot be encoded as JSON (a NaN in
// a boxed struct, a channel, ...), or cannot be without loss ([ErrNotSavable]).
func (st *Store) Slots() ([]Slot, error) {
	if st == nil || st.schema == nil {
		return nil, nil
	}
	var out []Slot
	for i := range st.set {
		e := &st.schema.entries[i]
		if !st.set[i] && st.seq[i] == 0 || e.typ == nil { // unused, or a key removed by Truncate
			continue
		}
		sl := Slot{Key: e.name, Set: st.set[i], Seq: st.seq[i]}
		if st.set[i] {
			sl.Type = e.typ.String()
			switch e.class {
			case classWord:
				sl.Words = append([]uint64(nil), st.words[e.idx:e.idx+wordsOf(e.typ)]...)
			case classString:
				sl.Str = st.strs[e.idx]
			default:
				if loss := e.loss; loss != "" && (e.typ.Kind() != reflect.Interface || st.anys[e.idx] != nil) {
					return nil, fmt.Errorf("blackboard: key %q (%v): %w: %s", e.name, e.typ, ErrNotSavable, loss)
				}
				b, err := json.Marshal(st.anys[e.idx])
				if err != nil {
					return nil, fmt.Errorf("blackboard: key %q (%v): %w", e.name, e.typ, err)
				}
				// after Marshal, which refuses a cycle of pointers this walk would follow forever
				if where, ok := validUTF8(reflect.ValueOf(st.anys[e.idx]), "value"); !ok {
					return nil, fmt.Errorf("blackboard: key %q (%v): %w: a string that is not valid UTF-8 at %s "+
						"(JSON would load it with U+FFFD in place of its bad bytes)", e.name, e.typ, ErrNotSavable, where)
				}
				sl.Value = b
			}
		}
		out = append(out, sl)
	}
	return out, nil
}

// StoreFromSlots returns a new store of s holding slots (from [Store.Slots]). It
// returns an error wrapping [ErrUnknownKey] for a key s does not declare, or
// [ErrBadSlot] for a value of the wrong size, saved as another type (Slot.Type; a slot
// without one, from a file written before it, is taken by its size) or that does not
// decode to the key's type (or a key given twice), naming the key; it never changes s.
func (s *Schema) StoreFromSlots(slots []Slot) (*Store, error) {
	st := &Store{schema: s}
	st.grow()
	for _, sl := range slots {
		slot, ok := s.index[sl.Key]
		if !ok {
			return nil, fmt.Errorf("blackboard: %q: %w", sl.Key, ErrUnknownKey)
		}
		if st.set[slot] || st.seq[slot] != 0 {
			return nil, fmt.Errorf("blackboard: %q: %w: given twice", sl.Key, ErrBadSlot)
		}
		e := &s.entries[slot]
		st.seq[slot] = sl.Seq
		if !sl.Set {
			if sl.Words != nil || sl.Str != "" || sl.Value != nil {
				return nil, fmt.Errorf("blackboard: %q: %w: a value for an unset key", sl.Key, ErrBadSlot)
			}
			continue
		}
		if sl.Type != "" && sl.Type != e.typ.String() {
			return nil, fmt.Errorf("blackboard: %q (%v): %w: saved as %s", sl.Key, e.typ, ErrBadSlot, sl.Type)
		}
		st.set[slot] = true
		switch e.class {
		case classWord:
			if n := wordsOf(e.typ); len(sl.Words) != int(n) {
				return nil, fmt.Errorf("blackboard: %q (%v): %w: %d words, want %d", sl.Key, e.typ, ErrBadSlot, len(sl.Words), n)
			}
			if e.typ.Kind() == reflect.Bool && sl.Words[0] > 1 {
				return nil, fmt.Errorf("blackboard: %q (%v): %w: %d is not a bool", sl.Key, e.typ, ErrBadSlot, sl.Words[0])
			}
			if off, b, ok := badBool(e.typ, sl.Words); !ok {
				return nil, fmt.Errorf("blackboard: %q (%v): %w: byte %d is %d, not a bool", sl.Key, e.typ, ErrBadSlot, off, b)
			}
			copy(st.words[e.idx:], sl.Words)
		case classString:
			if sl.Words != nil || sl.Value != nil {
				return nil, fmt.Errorf("blackboard: %q (%v): %w: not a string", sl.Key, e.typ, ErrBadSlot)
			}
			st.strs[e.idx] = sl.Str
		default:
			v := reflect.New(e.typ)
			if sl.Value == nil {
				return nil, fmt.Errorf("blackboard: %q (%v): %w: no value", sl.Key, e.typ, ErrBadSlot)
			}
			if err := json.Unmarshal(sl.Value, v.Interface()); err != nil {
				return nil, fmt.Errorf("blackboard: %q (%v): %w: %v", sl.Key, e.typ, ErrBadSlot, err)
			}
			st.anys[e.idx] = v.Elem().Interface()
		}
	}
	return st, nil
}

var (
	jsonMarshaler   = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// validUTF8 reports whether every string that encoding/json writes of v (values, map
// keys, exported fields at any depth) is valid UTF-8; if not, it also returns where the
// first bad one is, as a path from at. Types with their own JSON or text encoding are
// trusted, as in [jsonLossOf].
func validUTF8(v reflect.Value, at string) (string, bool) {
	if !v.IsValid() {
		return "", true
	}
	t := v.Type()
	pt := reflect.PointerTo(t)
	if t.Implements(jsonMarshaler) || pt.Implements(jsonMarshaler) ||
		t.Implements(textMarshaler) || pt.Implements(textMarshaler) {
		return "", true
	}
	switch v.Kind() {
	case reflect.String:
		return at, utf8.ValidString(v.String())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "", true
		}
		return validUTF8(v.Elem(), at)
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && v.Kind() == reflect.Slice {
			return "", true // []byte is written as base64
		}
		for i := range v.Len() {
			if where, ok := validUTF8(v.Index(i), at+"["+strconv.Itoa(i)+"]"); !ok {
				return where, false
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if where, ok := validUTF8(it.Key(), at+" (a map key)"); !ok {
				return where, false
			}
			if where, ok := validUTF8(it.Value(), at+"[…]"); !ok {
				return where, false
			}
		}
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Tag.Get("json") == "-" || !f.IsExported() && !f.Anonymous {
				continue
			}
			if where, ok := validUTF8(v.Field(i), at+"."+f.Name); !ok {
				return where, false
			}
		}
	}
	return "", true
}

// jsonLossOf returns what encoding/json loses of a value of type t, or "" (see
// [ErrNotSavable]). Declare computes it once per boxed key.
func jsonLossOf(t reflect.Type, seen map[reflect.Type]bool) string {
	if seen[t] {
		return ""
	}
	seen[t] = true
	pt := reflect.PointerTo(t)
	if (t.Implements(jsonMarshaler) || pt.Implements(jsonMarshaler)) && pt.Implements(jsonUnmarshaler) ||
		(t.Implements(textMarshaler) || pt.Implements(textMarshaler)) && pt.Implements(textUnmarshaler) {
		return "" // its own encoding
	}
	switch t.Kind() {
	case reflect.Interface:
		return "a value of interface type " + t.String() + " (its dynamic type is not saved)"
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return jsonLossOf(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Tag.Get("json") == "-" {
				continue
			}
			if !f.IsExported() && !(f.Anonymous && f.Type.Kind() == reflect.Struct) {
				return "unexported field " + f.Name + " of " + t.String()
			}
			if loss := jsonLossOf(f.Type, seen); loss != "" {
				return loss
			}
		}
	}
	return ""
}

// badBool checks the bools of a value of the pointer-free type t held in words (in
// memory order): it returns the offset and value of the first byte that is neither 0 nor
// 1, and false, or true if there is none.
func badBool(t reflect.Type, words []uint64) (uintptr, byte, bool) {
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), len(words)*8)
	var check func(t reflect.Type, off uintptr) (uintptr, byte, bool)
	check = func(t reflect.Type, off uintptr) (uintptr, byte, bool) {
		switch t.Kind() {
		case reflect.Bool:
			if b := raw[off]; b > 1 {
				return off, b, false
			}
		case reflect.Array:
			for i := range t.Len() {
				if o, b, ok := check(t.Elem(), off+uintptr(i)*t.Elem().Size()); !ok {
					return o, b, false
				}
			}
		case reflect.Struct:
			for i := range t.NumField() {
				f := t.Field(i)
				if o, b, ok := check(f.Type, off+f.Offset); !ok {
					return o, b, false
				}
			}
		}
		return 0, 0, true
	}
	return check(t, 0)
}
