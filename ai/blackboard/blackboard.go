package blackboard

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"unsafe"
)

// Errors returned (wrapped, with the key name) by [Declare] and [Lookup].
var (
	ErrTypeMismatch = errors.New("key holds another type")
	ErrUnknownKey   = errors.New("unknown key")
	ErrEmptyName    = errors.New("empty key name")
)

// class is how a slot stores its value.
type class uint8

const (
	classWord   class = iota // pointer-free value up to MaxInline bytes, in ceil(size/8) uint64 words
	classString              // string
	classAny                 // anything else, boxed
)

// MaxInline is the largest size in bytes of a pointer-free type that a [Store] keeps
// inline, in ceil(size/8) 8-byte words, without boxing: 64 bytes, enough for vectors,
// entity handles, small matrices and structs of a few of them. Larger types are boxed.
const MaxInline = 64

// Schema is a set of declared keys: a name and a Go type per slot. Declare every key
// before making stores, or let stores grow on the first [Set] of a later key. A Schema is
// not safe for concurrent declaration; reading it concurrently is safe.
type Schema struct {
	entries []entry
	index   map[string]int32
	counts  [3]int32 // slots per class
}

type entry struct {
	name  string
	typ   reflect.Type
	class class
	idx   int32  // index within the class's slice (the first word, for classWord)
	loss  string // classAny: what a JSON round trip loses of a value, or "" (snapshot.go)
}

// NewSchema returns an empty schema.
func NewSchema() *Schema { return &Schema{index: map[string]int32{}} }

// Key is a typed handle to one slot of a [Schema]. The zero Key is invalid: [Get]
// reports it missing and [Set] refuses it.
type Key[T any] struct {
	schema *Schema
	slot   int32
	idx    int32
	class  class
}

// Declare returns the key called name holding values of type T, adding it to s if new.
// It returns an error wrapping [ErrTypeMismatch] if name is declared with another type,
// or [ErrEmptyName].
func Declare[T any](s *Schema, name string) (Key[T], error) {
	typ := reflect.TypeFor[T]()
	slot, err := s.declare(name, typ)
	if err != nil {
		return Key[T]{}, err
	}
	e := &s.entries[slot]
	return Key[T]{schema: s, slot: slot, idx: e.idx, class: e.class}, nil
}

// MustDeclare is [Declare] for package-level key declarations.
//
// Panics: if Declare returns an error.
func MustDeclare[T any](s *Schema, name string) Key[T] {
	k, err := Declare[T](s, name)
	if err != nil {
		panic(err)
	}
	return k
}

// Lookup returns the existing key called name. It returns an error wrapping
// [ErrUnknownKey] if there is none, or [ErrTypeMismatch] if it holds another type.
func Lookup[T any](s *Schema, name string) (Key[T], error) {
	slot, ok := s.index[name]
	if !ok {
		return Key[T]{}, fmt.Errorf("blackboard: %q: %w", name, ErrUnknownKey)
	}
	e := &s.entries[slot]
	if typ := reflect.TypeFor[T](); e.typ != typ {
		return Key[T]{}, fmt.Errorf("blackboard: %q: %w: %v, not %v", name, ErrTypeMismatch, e.typ, typ)
	}
	return Key[T]{schema: s, slot: slot, idx: e.idx, class: e.class}, nil
}

// Type returns the type of the key called name, or nil if it is not declared.
func (s *Schema) Type(name string) reflect.Type {
	if slot, ok := s.index[name]; ok {
		return s.entries[slot].typ
	}
	return nil
}

// Len returns the number of slots: the keys declared, and those removed by
// [Schema.Truncate] (whose slots are never given to another key; [Schema.Name] is ""
// for them). It only grows, so a program may take a change of Len for new keys.
func (s *Schema) Len() int { return len(s.entries) }

// Keys returns the number of keys declared and not removed by [Schema.Truncate]: Len
// without the removed slots. A schema of Keys 0 has no key a tree could read.
func (s *Schema) Keys() int { return len(s.index) }

// Truncate removes the keys declared after the first n slots ([Schema.Len] taken before
// declaring them), so that their names may be declared again, of any type: a loader
// undoes with it the declarations of a definition that failed to build. It does nothing
// if n is negative or not below Len. The removed keys keep their slots and storage,
// never given to a key declared later (a few bytes a store each), so no store, made
// before or after the call, reads one key's value as another's: a store keeps a value
// of a removed key but no longer shows it ([Store.Slots] and [Store.Value] leave it out),
// and the Key of a removed key reads and writes that hidden slot only.
func (s *Schema) Truncate(n int) {
	if n < 0 || n >= len(s.entries) {
		return
	}
	for i := range s.entries[n:] {
		e := &s.entries[n+i]
		if e.typ == nil {
			continue // removed before
		}
		delete(s.index, e.name)
		e.name, e.typ, e.loss = "", nil, "" // let the removed type go; class and idx stay, for its Keys
	}
}

// Clone returns a copy of s: the same keys, and removed slots, in the same slots, of the
// same types. The copy is a schema of its own: declaring keys in it changes nothing in s
// (nor the other way), and, as between any two schemas, keys and stores of one do not
// work with the other ([Get] reports a key of the other missing, [Set] refuses it). A
// loader tries a build on a clone to learn the keys it would declare, then declares
// them in s only if the build is kept.
func (s *Schema) Clone() *Schema {
	c := &Schema{entries: slices.Clone(s.entries), index: maps.Clone(s.index), counts: s.counts}
	if c.index == nil {
		c.index = map[string]int32{}
	}
	return c
}

// Name returns the name of slot i, in declaration order, or "" for a key removed by
// [Schema.Truncate].
//
// Panics: if i is out of range.
func (s *Schema) Name(i int) string { return s.entries[i].name }

// NewStore returns an empty store (no key set) for one agent.
func (s *Schema) NewStore() *Store {
	st := &Store{schema: s}
	st.grow()
	return st
}

// Name returns the key's name, or "" for the zero Key.
func (k Key[T]) Name() string {
	if k.schema == nil {
		return ""
	}
	return k.schema.entries[k.slot].name
}

// Schema returns the schema k belongs to, or nil for the zero Key.
func (k Key[T]) Schema() *Schema { return k.schema }

// Valid reports whether k was made by [Declare] or [Lookup].
func (k Key[T]) Valid() bool { return k.schema != nil }

// Store is one agent's blackboard: a value per key of its [Schema]. Keep it in the agent's
// component. A Store is not safe for concurrent use. Make it with [Schema.NewStore]; the
// zero Store belongs to no schema: it holds nothing and every Set on it fails.
type Store struct {
	schema *Schema
	set    []bool
	seq    []uint64 // per slot: writes so far (see seq.go)
	words  []uint64
	strs   []string
	anys   []any

	probe *Probe // a Probe's stand-in store: counts the reads it misses (probe.go)
}

// Get returns the value of k in st and true, or the zero value and false if st is nil,
// k belongs to another schema or k is not set. It allocates nothing.
func Get[T any](st *Store, k Key[T]) (T, bool) {
	var zero T
	if st == nil || k.schema != st.schema || k.schema == nil || int(k.slot) >= len(st.set) || !st.set[k.slot] {
		st.missed(k.schema, k.slot)
		return zero, false
	}
	switch k.class {
	case classWord:
		return *(*T)(unsafe.Pointer(&st.words[k.idx])), true
	case classString:
		return *(*T)(unsafe.Pointer(&st.strs[k.idx])), true
	}
	// a set boxed slot holds a T, or nil for a nil value of an interface type T
	v, _ := st.anys[k.idx].(T)
	return v, true
}

// Set sets k to v in st and reports whether it did: false if st is nil or k belongs to
// another schema. Pointer-free types up to [MaxInline] bytes and strings are stored
// without allocating (once the store has grown to the schema's size); other types are
// boxed.
func Set[T any](st *Store, k Key[T], v T) bool {
	if st == nil || k.schema != st.schema || k.schema == nil {
		return false
	}
	if int(k.slot) >= len(st.set) {
		st.grow()
	}
	switch k.class {
	case classWord:
		*(*T)(unsafe.Pointer(&st.words[k.idx])) = v
	case classString:
		*(*T)(unsafe.Pointer(&st.strs[k.idx])) = v
	default:
		st.anys[k.idx] = v
	}
	st.set[k.slot] = true
	st.seq[k.slot]++
	return true
}

// Unset removes k's value from st; [Get] then reports it missing.
func Unset[T any](st *Store, k Key[T]) {
	if st != nil && k.schema == st.schema && int(k.slot) < len(st.set) {
		st.set[k.slot] = false
		switch k.class {
		case classString:
			st.strs[k.idx] = "" // let the string go
		case classAny:
			st.anys[k.idx] = nil
		}
	}
}

// Has reports whether the key called name is set in st.
func (st *Store) Has(name string) bool {
	if st == nil || st.schema == nil {
		return false
	}
	slot, ok := st.schema.index[name]
	return ok && int(slot) < len(st.set) && st.set[slot]
}

// Value returns the value of the key called name, boxed, for debugging and display. It
// allocates; leaves use [Get].
func (st *Store) Value(name string) (any, bool) {
	if st == nil || st.schema == nil {
		return nil, false
	}
	slot, ok := st.schema.index[name]
	if !ok || int(slot) >= len(st.set) || !st.set[slot] {
		return nil, false
	}
	e := &st.schema.entries[slot]
	switch e.class {
	case classWord:
		v := reflect.New(e.typ)
		copy(unsafe.Slice((*byte)(v.UnsafePointer()), e.typ.Size()),
			unsafe.Slice((*byte)(unsafe.Pointer(&st.words[e.idx])), e.typ.Size()))
		return v.Elem().Interface(), true
	case classString:
		return reflect.ValueOf(st.strs[e.idx]).Convert(e.typ).Interface(), true
	}
	return st.anys[e.idx], true
}

// Reset unsets every key.
func (st *Store) Reset() {
	if st == nil {
		return
	}
	clear(st.set)
	clear(st.words)
	clear(st.strs)
	clear(st.anys)
}

// Schema returns the schema st was made from: nil for a nil store, the zero Store and a
// [Probe]'s store.
func (st *Store) Schema() *Schema {
	if st == nil {
		return nil
	}
	return st.schema
}
