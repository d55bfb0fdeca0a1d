package blackboard

import "fmt"

// Sequence numbers: every slot of a Store counts the writes to it, so a reader can tell
// whether a value changed since it last looked (BehaviorTree.CPP 4.x's per-entry
// sequence_id, read by its WasEntryUpdated and SkipUnlessUpdated nodes).
//
// The count of a slot starts at 0 in a new Store and grows by one on every write that
// succeeds: [Set], [Scalar.SetWord], [Scalar.SetStr], and the functions of
// [Schema.Copier] and [Schema.Setter]. Writing the value a key already holds counts too
// (as in BehaviorTree.CPP: a write is an update). [Unset] and [Store.Reset] do not
// count and do not rewind it, so a count never goes back within one Store. Writers pay
// one increment; readers that do not ask pay nothing, and asking allocates nothing.

// Entry is untyped access to the sequence number of one key, for nodes that watch a key
// of any type. Make it with [Schema.Entry] or [EntryOf]. The zero Entry watches nothing:
// [Entry.Seq] reports it unset.
type Entry struct {
	schema *Schema
	slot   int32
}

// Entry returns access to the sequence number of the key called name. It returns an
// error wrapping [ErrUnknownKey] if name is not declared.
func (s *Schema) Entry(name string) (Entry, error) {
	slot, ok := s.index[name]
	if !ok {
		return Entry{}, fmt.Errorf("blackboard: %q: %w", name, ErrUnknownKey)
	}
	return Entry{schema: s, slot: slot}, nil
}

// EntryOf returns access to the sequence number of k (the zero Entry for the zero Key).
func EntryOf[T any](k Key[T]) Entry { return Entry{schema: k.schema, slot: k.slot} }

// Name returns the key's name, or "" for the zero Entry.
func (e Entry) Name() string {
	if e.schema == nil {
		return ""
	}
	return e.schema.entries[e.slot].name
}

// Schema returns the schema that declares the key, or nil for the zero Entry.
func (e Entry) Schema() *Schema { return e.schema }

// Seq returns the number of writes to the key in st so far, and whether the key is set.
// It returns 0 and false if st is nil or of another schema or e is the zero Entry, and
// the count and false if the key was written and then unset. It allocates nothing.
func (e Entry) Seq(st *Store) (uint64, bool) {
	if st == nil || e.schema == nil || st.schema != e.schema || int(e.slot) >= len(st.seq) {
		st.missed(e.schema, e.slot)
		return 0, false
	}
	return st.seq[e.slot], st.set[e.slot]
}

// Seq returns the number of writes to k in st so far and whether k is set; see
// [Entry.Seq].
func Seq[T any](st *Store, k Key[T]) (uint64, bool) { return EntryOf(k).Seq(st) }
