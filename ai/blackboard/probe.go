package blackboard

// Probe is a stand-in for a missing store that counts the reads made on it: a caller that
// would hand a leaf no store (nil) hands it [Probe.Store] instead, and learns after the
// call whether the leaf read a key it could not have, and which. systems.Decision does so
// for an agent without a Blackboard, so Diagnose can tell a tree written in Go that reads
// keys from one that reads none.
//
// The probe's store holds nothing and keeps nothing: every read on it reports the key
// missing and every write fails, exactly as on a nil store; only its [Store.Schema] is
// nil rather than a panic. Reads by a valid key ([Get], [Entry.Seq], [Seq], [Scalar.Word],
// [Scalar.Str]) are counted; reads by name ([Store.Has], [Store.Value]) and the zero Key
// are not. Counting costs nothing on a read that finds its store: only the miss path of a
// store whose schema differs from the key's looks at the probe. A Probe is not safe for
// concurrent use; it allocates nothing.
type Probe struct {
	st     Store
	reads  uint64
	schema *Schema // the last key read
	slot   int32
}

// NewProbe returns a probe with no read counted.
func NewProbe() *Probe {
	p := &Probe{}
	p.st.probe = p
	return p
}

// Store returns the probe's stand-in store, which behaves as a nil store.
func (p *Probe) Store() *Store { return &p.st }

// Reads returns the reads by a valid key counted since [NewProbe] or the last [Probe.Reset].
func (p *Probe) Reads() uint64 { return p.reads }

// LastKey returns the name of the key of the last read counted, or "" if none was.
func (p *Probe) LastKey() string {
	if p.schema == nil {
		return ""
	}
	return p.schema.entries[p.slot].name
}

// Reset forgets the reads counted.
func (p *Probe) Reset() { p.reads, p.schema, p.slot = 0, nil, 0 }

// missed notes a read of the key of slot in s on st, which did not hold it: counted if
// st is a probe's store and the key valid. It is called on the miss path only.
func (st *Store) missed(s *Schema, slot int32) {
	if st != nil && st.probe != nil && s != nil {
		p := st.probe
		p.reads++
		p.schema, p.slot = s, slot
	}
}
