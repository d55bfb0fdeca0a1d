package bt

import "fmt"

// printLabel is node i's label as [Tree.Fingerprint] hashes it: [Tree.Dump]'s, but for
// a registered leaf loaded from a file its kind and name, `Condition "sees thief"`,
// `Action "Patrol"` (the registered type when the file gives no name), as Dump wrote
// such a leaf before it wrote the registered type (`TargetSeen "sees thief"`,
// `Patrol`): fingerprints recorded in saves before then still match the same tree.
func (t *Tree) printLabel(i int) string {
	n := &t.nodes[i]
	if !n.leaf {
		return t.label(i)
	}
	name := n.name
	if name == "" {
		name = n.tag
	}
	return fmt.Sprintf("%s %q", n.kind.String(), name)
}

// FNV-1a of 64 bits: h starts at fnvOffset and each byte b makes h = (h ⊕ b)·fnvPrime
// (mod 2^64).
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hashMap is what hashing a run of bytes does to an FNV-1a state h, whatever h is:
//
//	h ↦ mul·h + add[h mod 256]   (mod 2^64)
//
// One byte's step has this form, since h ⊕ b = h + ((l ⊕ b) − l) with l = h mod 256, and
// so has a run of them: a product's and a sum's low byte depend only on the low bytes
// of the operands, so the low byte of h after each byte is a function of l. A map
// applies to a state in two operations, however long its run; two maps compose, and a
// map inverts, in 256 operations each.
type hashMap struct {
	mul uint64
	add [256]uint64
}

// set makes m the map of the bytes of s, hashing s from each of the 256 low bytes: an
// h below 256 is its own low byte, so add[h] = FNV(h, s) − mul·h.
func (m *hashMap) set(s string) {
	m.mul = 1
	for range len(s) {
		m.mul *= fnvPrime
	}
	for l := range uint64(256) {
		m.add[l] = hashString(l, s) - m.mul*l
	}
}

// apply returns the state after the map's run of bytes from state h.
func (m *hashMap) apply(h uint64) uint64 { return m.mul*h + m.add[h&255] }

// then makes m the map of m's run followed by u's.
func (m *hashMap) then(u *hashMap) {
	for l := range uint64(256) {
		a := m.add[l]
		m.add[l] = u.mul*a + u.add[(m.mul*l+a)&255]
	}
	m.mul *= u.mul
}

// invert makes m the map that undoes u: m applied after u gives the state before u.
func (m *hashMap) invert(u *hashMap) {
	// the inverse of an odd number mod 2^64 by Newton's iteration: x = u.mul is right in
	// its low 3 bits (an odd square is 1 mod 8), and each step doubles the right bits
	x := u.mul
	for range 5 {
		x *= 2 - u.mul*x
	}
	m.mul = x
	for l := range uint64(256) {
		// u sends low byte l to low byte (u.mul·l + u.add[l]) mod 256, and h to
		// u.mul·h + u.add[l]: back is x·(that) − x·u.add[l]
		m.add[(u.mul*l+u.add[l])&255] = -x * u.add[l]
	}
}

// hashString returns the FNV-1a state after the bytes of s from state h.
func hashString(h uint64, s string) uint64 {
	for k := range len(s) {
		h = (h ^ uint64(s[k])) * fnvPrime
	}
	return h
}

// fingerprint returns Fingerprint's sum and the work it took: bytes hashed one by one,
// and entries of a hashMap computed. It walks the tree as Dump does with m nil, hashing
// each line's branch, label and newline byte by byte and its prefix (the path's "│   "
// and "    " steps) in one hashMap step, kept for the path as the walk goes: a step
// down composes the unit's map, a step back up its inverse.
func (t *Tree) fingerprint() (sum uint64, work int) {
	h := uint64(fnvOffset)
	if len(t.nodes) == 0 {
		return h, 0
	}
	var bar, space, barBack, spaceBack, prefix hashMap
	bar.set("│   ")
	space.set("    ")
	barBack.invert(&bar)
	spaceBack.invert(&space)
	prefix.set("")
	work = 256 * (len("│   ") + len("    ") + 3)
	line := func(s string) {
		h = hashString(h, s)
		work += len(s)
	}
	var walk func(i int, branch string)
	walk = func(i int, branch string) {
		h = prefix.apply(h)
		work++
		line(branch)
		line(t.printLabel(i))
		line(t.condLabel(i))
		line("\n")
		n := &t.nodes[i]
		if n.nkids == 0 {
			return
		}
		var step, back *hashMap
		switch branch {
		case "├── ":
			step, back = &bar, &barBack
		case "└── ":
			step, back = &space, &spaceBack
		}
		if step != nil {
			prefix.then(step)
			work += 256
		}
		kids := t.kids[n.kidOff : n.kidOff+int32(n.nkids)]
		for k, c := range kids {
			br := "├── "
			if k == len(kids)-1 {
				br = "└── "
			}
			walk(int(c), br)
		}
		if back != nil {
			prefix.then(back)
			work += 256
		}
	}
	walk(0, "")
	return h, work
}
