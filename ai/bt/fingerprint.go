package bt

// Fingerprint returns the 64-bit FNV-1a hash (Fowler, Noll and Vo; offset basis
// 14695981039346656037, prime 1099511628211) of the text t.Dump(w, nil) writes: every
// node's kind, name, conditions and nesting. systems/save records it for each tree a
// file names ("fnv1a64:" and 16 hex digits) and compares it at load. For a tree deeper
// than [DumpIndentDepth] it hashes the text with every level indented, as Dump wrote
// it before it numbered the deeper levels, and a registered leaf loaded from a file as
// its kind and name (`Condition "sees thief"`, `Action "Patrol"`), as Dump wrote it
// before it wrote the registered type (`TargetSeen "sees thief"`, `Patrol`), so saved
// fingerprints hold. So two trees that differ only in a leaf's registered type, of one
// kind, under one name attribute, have one fingerprint.
//
// It takes time linear in the nodes and the length of their labels, not in the text:
// a line's prefix is as long as its node is deep, so the text of a chain of d
// decorators holds about 2d² bytes (8.6 GB for d = 65,535), and hashing it byte by
// byte took that long. A run of prefix bytes is hashed in one step instead (see
// hashMap, fingerprint_internal.go).
func (t *Tree) Fingerprint() uint64 {
	sum, _ := t.fingerprint()
	return sum
}
