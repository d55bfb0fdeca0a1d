package utility

import (
	"slices"

	"github.com/archai-go/archai/ai/blackboard"
)

// BlackboardAgent is an agent view that carries the agent's blackboard store (nil if it
// has none), such as the *systems.Agent the Utility system passes to considerations.
type BlackboardAgent interface {
	BlackboardStore() *blackboard.Store
}

// Number is a type a blackboard key may hold for [KeyInput].
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64
}

// KeyInput returns a consideration Input that reads the blackboard key k of the agent,
// which must be a [BlackboardAgent], as a float64, so a designer-declared fact (a threat
// level, an ammo count) is a consideration without Go code of its own. Any other agent, a
// nil store, a key of another schema or a key not set reads NaN, which scores 0 (see
// [Fact]). The setup mistakes are counted: an agent that is not a BlackboardAgent in
// [State].Unread (so is the zero Key), an agent without a store of k's schema (no store, or another
// schema's) in [State].NoBlackboard; a key not set is not (an unset key is a designer's
// veto; systems.Diagnose reports a key that no agent's store has ever held). The keys a
// reasoner's KeyInputs read are listed by [Reasoner.Keys]. It allocates nothing.
func KeyInput[T Number](k blackboard.Key[T]) func(agent any) float64 {
	return func(agent any) float64 {
		a, ok := agent.(BlackboardAgent)
		if !ok || !k.Valid() {
			if l, isLister := agent.(*keyLister); isLister && k.Valid() {
				l.add(blackboard.EntryOf(k)) // Reasoner.Keys asking: off the read path
			}
			return unread // counted in State.Unread
		}
		st := a.BlackboardStore()
		if st == nil || st.Schema() != k.Schema() {
			return noStore // counted in State.NoBlackboard
		}
		v, ok := blackboard.Get(st, k)
		if !ok {
			return unset // a designer's veto: not counted in State.NaNInputs
		}
		return float64(v)
	}
}

// keyLister is the stand-in agent [Reasoner.Keys] hands each consideration's Input: a
// [KeyInput] adds its key to it and reads nothing; it is not a [BlackboardAgent], so
// asking costs a read of an agent nothing.
type keyLister struct{ keys []blackboard.Entry }

func (l *keyLister) add(e blackboard.Entry) {
	if !slices.Contains(l.keys, e) {
		l.keys = append(l.keys, e)
	}
}

// list calls in with l, recovering a panic: an Input written for one agent type
// (a type assertion of its own rather than a [Fact]) may panic on the stand-in.
func (l *keyLister) list(in func(agent any) float64) {
	defer func() { _ = recover() }() // the stand-in is no agent an Input must read: its panic tells nothing
	in(l)
}

// Keys returns the blackboard keys the reasoner's considerations read through
// [KeyInput] (the zero Key not included), each once, in the order of the actions and
// their considerations; nil if none does. The caller must not modify the slice.
//
// The reasoner learns them on the first call, by calling each consideration's Input
// once with a stand-in agent that is no [BlackboardAgent]: a KeyInput notes its key
// and reads nothing, a [Fact] reads nothing, and an Input of the program's own that
// panics on the stand-in is taken as reading no key. Later calls return the same
// slice and allocate nothing. systems.Diagnose calls it (CauseBlackboardKeyUnwritten);
// Decide never does. Safe for concurrent use.
func (r *Reasoner) Keys() []blackboard.Entry {
	r.keysOnce.Do(func() {
		var l keyLister
		for i := range r.actions {
			for j := range r.actions[i].Considerations {
				if in := r.actions[i].Considerations[j].Input; in != nil {
					l.list(in)
				}
			}
		}
		r.keys = l.keys
	})
	return r.keys
}
