package blackboard

// Unset removes the value of e's key from st, whatever its type, as [Unset] does for a
// typed key (BehaviorTree.CPP's UnsetBlackboard): [Get] then reports it missing and its
// sequence number is kept. It does nothing if st is nil or of another schema or e is the
// zero Entry. It allocates nothing.
func (e Entry) Unset(st *Store) {
	if st == nil || e.schema == nil || st.schema != e.schema || int(e.slot) >= len(st.set) {
		return
	}
	st.set[e.slot] = false
	ent := &e.schema.entries[e.slot]
	switch ent.class {
	case classString:
		st.strs[ent.idx] = "" // let the string go
	case classAny:
		st.anys[ent.idx] = nil
	}
}
