package systems

// whyCache keeps, between checks, a planner's explanation of why an agent idles
// without a plan, by domain and state: thousands of idle agents of one domain in a few
// states cost one explanation each (a planning and its text) instead of one per agent
// and check, and a check in steady state allocates nothing. The explanation is a
// function of the domain and the state (conditions read the state only), so it is
// kept while some agent holds them; an entry no agent met in a check is forgotten
// then, so the cache holds at most one entry per idle agent.
type whyCache[D, S comparable] struct {
	known map[whyKey[D, S]]whyEntry
	round uint32 // the checks begun, to tell the entries met in this one
	met   int    // the entries met in this check
}

type whyKey[D, S comparable] struct {
	domain D
	state  S
}

type whyEntry struct {
	why string
	met uint32 // the check that last met it (whyCache.round)
}

// begin starts a check.
func (c *whyCache[D, S]) begin() {
	c.round++
	c.met = 0
}

// lookup returns the explanation kept for the domain and state, if any, and marks it
// met in this check.
func (c *whyCache[D, S]) lookup(d D, s *S) (string, bool) {
	k := whyKey[D, S]{d, *s}
	e, ok := c.known[k]
	if !ok {
		return "", false
	}
	if e.met != c.round {
		e.met = c.round
		c.met++
		c.known[k] = e // an existing key: no allocation
	}
	return e.why, true
}

// store keeps why as the explanation for the domain and state, met in this check.
func (c *whyCache[D, S]) store(d D, s *S, why string) {
	if c.known == nil {
		c.known = map[whyKey[D, S]]whyEntry{}
	}
	c.known[whyKey[D, S]{d, *s}] = whyEntry{why: why, met: c.round}
	c.met++
}

// end forgets the entries no agent met in this check.
func (c *whyCache[D, S]) end() {
	if len(c.known) <= c.met {
		return
	}
	for k, e := range c.known {
		if e.met != c.round {
			delete(c.known, k)
		}
	}
}
