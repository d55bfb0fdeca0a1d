package systems

import (
	"github.com/archai-go/archai/ai/blackboard"
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
// keys only while a foe is in sight). Its buffers are reused: a check in steady state
// allocates nothing.
type utilityKeyChecks struct {
	filter *generic.Filter2[components.UtilityBrain, components.Blackboard]
	stores *generic.Filter1[components.Blackboard]
	keys   []utilityKey    // the keys some agent's store never held, and whether another's did
	hits   []utilityKeyHit // the agents with such a key, in query order
}

type utilityKey struct {
	key     blackboard.Entry
	written bool
}

type utilityKeyHit struct {
	e   arche.Entity
	key int // index in keys
}

func (c *utilityKeyChecks) check(w *arche.World, r *Report, perceiving bool) {
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
	var last arche.Entity
	for _, h := range c.hits {
		if k := c.keys[h.key]; !k.written && h.e != last {
			r.addNote(CauseBlackboardKeyUnwritten, h.e, exampleNote{kind: noteKey, what: k.key.Name()})
			last = h.e
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
