// Package blackboard is a typed key/value store for per-agent facts that designers add
// without changing component structs, and that data-driven behavior trees read and write.
//
// Hot facts belong in plain component fields (no hashing, no boxing). The blackboard is
// for the rest: keys declared once in a [Schema], each a slot with a fixed Go type, and a
// small [Store] per agent holding the values.
//
//   - [Schema]: the set of keys, their names and types. [Declare] returns a typed
//     [Key]; declaring the same name again with the same type returns the same key, with
//     another type an error wrapping [ErrTypeMismatch].
//   - [Key]: a typed handle: a slot index. [Get] and [Set] are an index and a
//     type-specific load or store: no hashing, and no boxing for pointer-free and string
//     types.
//   - [Store]: one agent's values, made by [Schema.NewStore].
//
// Reading a missing key, a key of another schema, or through a nil store is a clear
// result (the zero value and false), never a panic.
//
// Storage: a pointer-free type of at most [MaxInline] (64) bytes lives inline in
// ceil(size/8) 8-byte words: booleans, integers, floats and complex numbers, and arrays
// and structs of them at any depth, such as a vector struct{ X, Y float64 } or an entity
// handle struct{ id, gen uint32 }. Getting and setting it copies bytes and allocates
// nothing. Strings (and types defined on string) live in a string slice, also without
// allocating. Every other type (anything holding a pointer, slice, map, interface,
// channel or function, or larger than MaxInline) lives in an interface slot, so setting
// such a key boxes it and may allocate.
//
// Loaders that learn a key's type at run time use [Schema.DeclareType], [Schema.Copier]
// (copy one key into another of the same type) and [Schema.Setter] (write a constant):
// the functions are built once and allocate nothing when called.
//
// Sequence numbers: a Store counts the writes to each key, so a reader can tell whether a
// value changed since it last looked ([Seq], [Entry.Seq], [Schema.Entry]; behavior trees'
// WasEntryUpdated and SkipUnlessUpdated). Writers pay one increment, readers that do not
// ask pay nothing.
package blackboard
