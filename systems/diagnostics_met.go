package systems

import (
	"math/bits"
	"unsafe"
)

// metSet is the set of pointers a check has met (the Brains' node memories, the
// UtilityBrains' scores, the Blackboards' stores), for the checks that count an
// agent holding what an agent before it held (CauseMemoryShared,
// CauseBlackboardShared): an open-addressing table of the addresses, hashed
// by Fibonacci hashing (Knuth, TAOCP vol. 3, 6.4) and probed linearly. It answers
// as the map[*T]struct{} it replaces did, with one probe of a flat table where the
// map took most of the three passes' time at 100,000 agents. The table is kept at least twice the pointers met and reused: no
// allocation in steady state.
type metSet struct {
	slots []uintptr // the addresses met, 0 for an empty slot; len a power of two
	n     int       // the addresses met
	shift uint      // 64 − log2 len(slots): the top bits of the product index the table
}

// reset empties the set.
func (s *metSet) reset() {
	clear(s.slots)
	s.n = 0
}

// meet adds p (not nil) and reports whether it was met before.
func (s *metSet) meet(p unsafe.Pointer) bool {
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	u := uintptr(p)
	mask := uintptr(len(s.slots) - 1)
	for i := metHash(u, s.shift); ; i = (i + 1) & mask {
		switch s.slots[i] {
		case u:
			return true
		case 0:
			s.slots[i] = u
			s.n++
			return false
		}
	}
}

// grow doubles the table (1024 slots at first) and puts the addresses back.
func (s *metSet) grow() {
	old := s.slots
	s.slots = make([]uintptr, max(1024, 2*len(old)))
	s.shift = uint(64 - bits.TrailingZeros(uint(len(s.slots))))
	mask := uintptr(len(s.slots) - 1)
	for _, u := range old {
		if u == 0 {
			continue
		}
		i := metHash(u, s.shift)
		for s.slots[i] != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = u
	}
}

// metHash is Fibonacci hashing of an address on 64 bits (so 32-bit builds hash
// as 64-bit ones do): the top bits of u·⌊2⁶⁴/φ⌋, shift being 64 − log₂(slots).
func metHash(u uintptr, shift uint) uintptr {
	return uintptr((uint64(u) * 0x9e3779b97f4a7c15) >> shift)
}
