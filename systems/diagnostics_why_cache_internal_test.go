package systems

import (
	"testing"

	"github.com/archai-go/archai/ai/htn"
	"github.com/stretchr/testify/assert"
)

// The planners' explanations are kept between checks while some agent holds their
// domain and state, and forgotten at the first check none does: a program whose idle
// agents go through many states, or that reloads its domains, does not grow the cache.
func TestWhyCacheForgetsWhatNoAgentHolds(t *testing.T) {
	var c whyCache[*htn.Domain, htn.State]
	d1, d2 := &htn.Domain{}, &htn.Domain{}
	var s htn.State
	for round := int32(0); round < 20; round++ {
		c.begin()
		s[0] = round
		_, ok := c.lookup(d1, &s)
		assert.False(t, ok)
		c.store(d1, &s, "why")
		kept := s
		kept[0] = 0
		if round > 0 {
			why, ok := c.lookup(d2, &kept)
			assert.True(t, ok, "round %d: met in every check, kept", round)
			assert.Equal(t, "kept", why)
		} else {
			c.store(d2, &kept, "kept")
		}
		c.end()
		assert.LessOrEqual(t, len(c.known), 2, "round %d", round)
	}
	c.begin()
	c.end()
	assert.Empty(t, c.known)
}
