package systems

import (
	"unsafe"

	"github.com/archai-go/archai/ai/blackboard"
	"github.com/archai-go/archai/ai/utility"
	"github.com/archai-go/archai/components"
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// utilityKeyChecks counts under CauseBlackboardKeyUnwritten the utility agents whose
// reasoner reads (utility.KeyInput, utility.Reasoner.Keys) a key of their Blackboard's
// schema that has never been written: not in their own store, nor in any Blackboard's
// store of that schema in the world (sequence number 0 and no value in every one). Such
// a key reads NaN, which scores 0: a veto, in a product, for every agent, with no
// counter of its own (an unset key is a designer's veto, so utility.State does not count
// it). Agents that have not decided yet (State.Decisions 0) are not checked, nor the
// well-known perception keys while a Perception system runs (it writes the target's
// keys only while a foe is in sight). Likewise the utility.States agents keep in
// components of the program's own (a hybrid.UtilitySelector's, found as
// ownStateChecks finds them) that have decided, with their reasoner
// (utility.State.Reasoner) and the agent's Blackboard: the note names the component
// field and, when one of the agent's UtilitySelectors decides with the State, the
// node, its tree and the state whose tree it is. Its buffers are reused: a check in
// steady state allocates nothing.
type utilityKeyChecks struct {
	filter *generic.Filter2[components.UtilityBrain, components.Blackboard]
	stores *generic.Filter1[components.Blackboard]
	keys   []utilityKey              // the keys some agent's store never held, and whether another's did
	hits   []utilityKeyHit           // the agents with such a key, in query order: the UtilityBrains', then the own States'
	own    int                       // the index in hits of the first own State's
	done   map[arche.Entity]struct{} // the agents counted, while own States have hits
}

type utilityKey struct {
	key     blackboard.Entry
	written bool
}

type utilityKeyHit struct {
	e           arche.Entity
	key         int   // index in keys
	comp, field int32 // an own State's: the component (index in ownStateChecks.comps) and field
}

func (c *utilityKeyChecks) check(w *arche.World, r *Report, perceiving bool, d *diagnoser) {
	if c.filter == nil {
		c.filter = generic.NewFilter2[components.UtilityBrain, components.Blackboard]()
		c.stores = generic.NewFilter1[components.Blackboard]()
	}
	c.keys, c.hits = c.keys[:0], c.hits[:0]
	q := c.filter.Query(w)
	for q.Next() {
		ub, bb := q.Get()
		if ub.Reasoner == nil || ub.State.Decisions == 0 || bb.Store == nil {
			continue
		}
		sc := bb.Store.Schema()
		for _, k := range ub.Reasoner.Keys() {
			if k.Schema() != sc || perceiving && isPerceptionKey(k.Name()) {
				continue // another schema's key: CauseBlackboardMissing
			}
			if seq, set := k.Seq(bb.Store); seq == 0 && !set {
				c.hits = append(c.hits, utilityKeyHit{e: q.Entity(), key: c.keyIndex(k)})
			}
		}
	}
	c.own = len(c.hits)
	c.ownHits(w, &d.ownStates, perceiving)
	if len(c.hits) == 0 {
		return
	}
	sq := c.stores.Query(w)
	for sq.Next() {
		st := sq.Get().Store
		if st == nil {
			continue
		}
		for i := range c.keys {
			k := &c.keys[i]
			if !k.written && k.key.Schema() == st.Schema() {
				seq, set := k.key.Seq(st)
				k.written = seq > 0 || set
			}
		}
	}
	owned := c.own < len(c.hits)
	if owned {
		if c.done == nil {
			c.done = map[arche.Entity]struct{}{}
		}
		clear(c.done)
	}
	var last arche.Entity
	for _, h := range c.hits[:c.own] {
		if k := c.keys[h.key]; !k.written && h.e != last {
			r.addNote(CauseBlackboardKeyUnwritten, h.e, exampleNote{kind: noteKey, what: k.key.Name()})
			last = h.e
			if owned { // its own States are not counted again
				c.done[h.e] = struct{}{}
			}
		}
	}
	for _, h := range c.hits[c.own:] {
		k := c.keys[h.key]
		if k.written {
			continue
		}
		if _, ok := c.done[h.e]; ok {
			continue
		}
		oc := &d.ownStates.comps[h.comp]
		f := &oc.fields[h.field]
		s := (*utility.State)(unsafe.Add(w.Get(h.e, oc.id), f.off))
		n := exampleNote{kind: noteHybridKey, what: k.key.Name(), then: f.name, reasoner: s.Reasoner()}
		if at, ok := d.hybrid.find(w, d, h.e, unsafe.Pointer(s), kindChoice); ok {
			if at.reasoner != s.Reasoner() {
				continue // the node decides with another reasoner now (reloaded): its next decision adopts it
			}
			n.tree, n.node, n.machine, n.state = at.tree, at.node, at.machine, at.state
		}
		c.done[h.e] = struct{}{}
		r.addNote(CauseBlackboardKeyUnwritten, h.e, n)
	}
}

// ownHits appends the hits of the utility.States in the program's own components
// (own's) that have decided, for a key of their reasoner that their agent's
// Blackboard store has never held.
func (c *utilityKeyChecks) ownHits(w *arche.World, own *ownStateChecks, perceiving bool) {
	own.learn(w)
	bbID := arche.ComponentID[components.Blackboard](w)
	for k := range own.comps {
		oc := &own.comps[k]
		if len(oc.fields) == 0 {
			continue
		}
		q := w.Query(&oc.mask)
		for q.Next() {
			if !q.Has(bbID) {
				continue
			}
			st := (*components.Blackboard)(q.Get(bbID)).Store
			if st == nil {
				continue
			}
			sc := st.Schema()
			p := q.Get(oc.id)
			for j := range oc.fields {
				s := (*utility.State)(unsafe.Add(p, oc.fields[j].off))
				rs := s.Reasoner()
				if s.Decisions == 0 || rs == nil {
					continue
				}
				for _, key := range rs.Keys() {
					if key.Schema() != sc || perceiving && isPerceptionKey(key.Name()) {
						continue
					}
					if seq, set := key.Seq(st); seq == 0 && !set {
						c.hits = append(c.hits, utilityKeyHit{e: q.Entity(), key: c.keyIndex(key), comp: int32(k), field: int32(j)})
					}
				}
			}
		}
	}
}

// keyIndex returns k's index in c.keys, adding it if it is not there.
func (c *utilityKeyChecks) keyIndex(k blackboard.Entry) int {
	for i := range c.keys {
		if c.keys[i].key == k {
			return i
		}
	}
	c.keys = append(c.keys, utilityKey{key: k})
	return len(c.keys) - 1
}

// isPerceptionKey reports whether name is one of the well-known keys Perception writes.
func isPerceptionKey(name string) bool {
	for _, k := range perceptionKeyTypes {
		if k.name == name {
			return true
		}
	}
	return false
}
