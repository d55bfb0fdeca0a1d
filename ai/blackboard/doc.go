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
//     type-specific load or store: no hashing, and no boxing for scalar and string types.
//   - [Store]: one agent's values, made by [Schema.NewStore].
//
// Reading a missing key, a key of another schema, or through a nil store is a clear
// result (the zero value and false), never a panic.
//
// Storage: booleans, integers and floats (and types defined on them) live in 8-byte
// words; strings in a string slice; every other type in an interface slot, so setting
// such a key boxes (and may allocate).
package blackboard
