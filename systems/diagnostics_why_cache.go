package systems

// checkCache keeps, between Diagnose checks, what a check worked out for a key (a
// schema's note, a planner's explanation for a domain and state), so that a check in
// steady state does the work once per distinct key and allocates nothing. An entry no
// lookup or store met in a check is forgotten at its end, so the cache holds at most
// one entry per key the world still has (a program making schemas per agent, or
// thousands of idle planners in ever new states, does not keep them all alive).
type checkCache[K comparable, V any] struct {
	known map[K]checkEntry[V]
	round uint32 // the checks begun, to tell the entries met in this one
	met   int    // the entries met in this check
}

type checkEntry[V any] struct {
	v   V
	met uint32 // the check that last met it (checkCache.round)
}

// begin starts a check.
func (c *checkCache[K, V]) begin() {
	c.round++
	c.met = 0
}

// lookup returns the value kept for k, if any, and marks it met in this check.
func (c *checkCache[K, V]) lookup(k K) (V, bool) {
	e, ok := c.known[k]
	if !ok {
		return e.v, false
	}
	if e.met != c.round {
		e.met = c.round
		c.met++
		c.known[k] = e // an existing key: no allocation
	}
	return e.v, true
}

// store keeps v for k, met in this check.
func (c *checkCache[K, V]) store(k K, v V) {
	if c.known == nil {
		c.known = map[K]checkEntry[V]{}
	}
	if e, ok := c.known[k]; !ok || e.met != c.round {
		c.met++
	}
	c.known[k] = checkEntry[V]{v: v, met: c.round}
}

// end forgets the entries not met in this check.
func (c *checkCache[K, V]) end() {
	if len(c.known) <= c.met {
		return
	}
	for k, e := range c.known {
		if e.met != c.round {
			delete(c.known, k)
		}
	}
}

// whyCache keeps a planner's explanation of why an agent idles without a plan, by
// domain and state: thousands of idle agents of one domain in a few states cost one
// explanation each (a planning and its text) instead of one per agent and check. The
// explanation is a function of the domain and the state (conditions read the state
// only), so it is kept while some agent holds them.
type whyCache[D, S comparable] struct {
	checkCache[whyKey[D, S], string]
}

type whyKey[D, S comparable] struct {
	domain D
	state  S
}

// lookup returns the explanation kept for the domain and state, if any.
func (c *whyCache[D, S]) lookup(d D, s *S) (string, bool) {
	return c.checkCache.lookup(whyKey[D, S]{d, *s})
}

// store keeps why as the explanation for the domain and state.
func (c *whyCache[D, S]) store(d D, s *S, why string) {
	c.checkCache.store(whyKey[D, S]{d, *s}, why)
}
